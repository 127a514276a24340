/**
 * Reads that the edit form needs: the note's values, body and hash with the schema's view of its
 * type (edit-form), and the relationships the schema allows between two entities, ready to pass to
 * a link command (edit-allowed-relationships).
 */
import { refTarget } from '../../shared/wikilinks.js';
import { layerRefusal } from '../edit/rules.js';
import type { AllowedRel, EditForm } from '../../shared/contract-edit.js';
import type { EntityRecord } from '../../shared/types.js';
import { CoreError } from '../domain/errors.js';
import { getBody, readFrontmatter } from '../edit/frontmatter.js';
import { readVaultFile } from '../edit/safe-fs.js';
import type { CoreHost } from './core.js';

function mustResolve(core: CoreHost, nameOrId: string): EntityRecord {
  const e = core.resolveEntity(nameOrId);
  if (!e) throw new CoreError('not-found', `no entity named '${nameOrId}'`, { name: nameOrId });
  return e;
}

export async function editForm(c: CoreHost, nameOrId: string): Promise<EditForm> {
  const e = mustResolve(c, nameOrId);
  if (e.placeholder || !e.path) throw new CoreError('not-found', `${e.name} is only referenced: there is no note for it`, { name: e.name, id: e.id });
  const file = await readVaultFile(c.vaultDir, e.path);
  if (!file) throw new CoreError('not-found', `${e.path} no longer exists on disk`, { path: e.path });
  const ix = c.index;
  return {
    entity: { id: e.id, name: e.name, type: e.type, layer: e.layer, path: e.path, placeholder: e.placeholder, tags: e.tags, aliases: e.aliases },
    titleField: ix.titleField,
    properties: ix.properties(e.type).map((p) => ({
      name: p.name, type: p.type, required: p.required,
      ...(p.values ? { values: p.values } : {}), ...(p.items ? { items: p.items } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
    })),
    mappings: ix.mappings(e.type).map((m) => ({ field: m.field, label: m.declaredAs, relationship: m.relationship, targetTypes: m.targetTypes, cardinality: m.cardinality })),
    values: readFrontmatter(file.text),
    body: getBody(file.text),
    hash: file.hash,
    types: ix.typeNames,
  };
}

export function allowedRelationships(c: CoreHost, fromId: string, toId: string): AllowedRel[] {
  const a = mustResolve(c, fromId);
  const b = mustResolve(c, toId);
  const ix = c.index;
  const out: Array<{ label: string; from: string; rel: string; to: string; relationship: string; field: string; on: 'from' | 'to'; refused?: string; replaces?: string }> = [];
  const seen = new Set<string>();
  for (const r of ix.allowedRelationships(a.type, b.type)) {
    let item: (typeof out)[number];
    if (r.on === 'from') {
      item = { label: r.label, from: a.id, rel: r.label, to: b.id, relationship: r.relationship, field: r.field, on: 'from' };
    } else {
      // the field lives on b's note: name it as read from a (the inverse), or, with no inverse declared,
      // link from b's side and say so
      const inv = ix.inverseOf(r.label);
      item = inv
        ? { label: inv, from: a.id, rel: inv, to: b.id, relationship: r.relationship, field: r.field, on: 'to' }
        : { label: `${r.label} (from ${b.name})`, from: b.id, rel: r.label, to: a.id, relationship: r.relationship, field: r.field, on: 'to' };
    }
    const key = `${item.from}|${ix.canonicalName(item.rel.toUpperCase()) ?? item.rel}|${item.to}|${item.field}`;
    const symKey = ix.isSymmetric(item.rel) ? `${item.to}|${ix.canonicalName(item.rel)}|${item.from}|${item.field}` : key;
    if (seen.has(key) || seen.has(symKey)) continue;
    seen.add(key);
    // a drop the layer rules cannot resolve is refused with its reason; a single-valued field says what it replaces
    const [holder, other] = item.on === 'from' ? [a, b] : [b, a];
    const refused = layerRefusal(c.engine.model.config(), holder, other);
    const scalar = ix.mappings(holder.type).find((m) => m.field === item.field)?.cardinality === 'scalar';
    const cur = holder.path ? c.engine.model.note(holder.path)?.frontmatter[item.field] : undefined;
    const replaces = scalar && cur !== undefined && cur !== null && cur !== '' && typeof cur !== 'object' && !sameEntity(c, String(cur), holder.layer, other.id)
      ? String(cur) : undefined;
    out.push({ ...item, ...(refused ? { refused } : {}), ...(replaces !== undefined ? { replaces } : {}) });
  }
  return out;
}

/** Does a frontmatter value (a name or a [[link]]) name this entity, as seen from `layer`? */
function sameEntity(c: CoreHost, value: string, layer: string, id: string): boolean {
  return c.engine.model.resolve(refTarget(value), layer)?.id === id;
}
