/**
 * Which notes write one relationship, and what each writes (issue 18: the
 * canvas's edge panel): for the edge `from -[type]-> to`, every item of a
 * mapped field in either end's note that refers to the other end, with the
 * name that note reads the relationship by (MEMBER_OF on the member, HAS_MEMBER
 * on the faction) and that item's own properties. A relationship written on both
 * ends gives two items; the model's merged record cannot tell which end wrote what.
 */
import type { RelItem } from '../../shared/contract-edit.js';
import type { EntityRecord } from '../../shared/types.js';
import { CoreError } from '../domain/errors.js';
import { itemRef } from '../edit/rel-items.js';
import { typeDef } from '../edit/rules.js';
import type { CoreHost } from './core.js';

export function relationshipItems(core: CoreHost, fromRef: string, type: string, toRef: string): RelItem[] {
  const from = core.resolveEntity(fromRef);
  const to = core.resolveEntity(toRef);
  if (!from || !to) throw new CoreError('not-found', `no entity named '${from ? toRef : fromRef}'`, { name: from ? toRef : fromRef });
  const ix = core.index;
  const canonical = type.toUpperCase() === 'RELATED_TO' ? 'RELATED_TO' : ix.canonicalName(type.toUpperCase());
  if (!canonical) throw new CoreError('unknown-relationship', `'${type}' is not a relationship type of the schema`, { type });
  const back = ix.isSymmetric(canonical) ? canonical : ix.inverseOf(canonical);
  const m = core.engine.model;
  const out: RelItem[] = [];
  const scan = (holder: EntityRecord, other: EntityRecord, name: string | null) => {
    if (!holder.path || name === null) return;
    const fields = name === 'RELATED_TO' ? [{ field: 'related', relationship: name }]
      : (typeDef(m.schema(), holder.type)?.field_mappings ?? []).filter((f) => f.relationship.toUpperCase() === name);
    const fm = m.note(holder.path)?.frontmatter ?? {};
    for (const f of fields) {
      const v = fm[f.field];
      for (const item of Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]) {
        const ref = itemRef(item);
        if (ref === null || m.resolve(ref, holder.layer)?.id !== other.id) continue;
        const { to: _to, ...props } = typeof item === 'object' ? (item as Record<string, unknown>) : { to: item };
        out.push({ holder: { id: holder.id, name: holder.name }, rel: name, other: { id: other.id, name: other.name }, field: f.field, path: holder.path, properties: props });
      }
    }
  };
  scan(from, to, canonical);
  if (from.id !== to.id) scan(to, from, back);
  return out;
}
