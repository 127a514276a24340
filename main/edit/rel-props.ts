/**
 * Planning a relationship property edit (issue 18): `entity -[rel]-> target`'s
 * own property `key`, as `entity`'s note writes it (each direction has its own:
 * the item in the other end's note is the other side's). The item is found in a
 * field of `entity`'s type mapped to `rel` (or `related` for RELATED_TO); the
 * value is checked against the relationship type's declared properties (`since` /
 * `until`: a session number or an event); the bytes come from rel-items.ts.
 */
import type { EntityRecord } from '../../shared/types.js';
import { valueMismatch } from '../config/validate.js';
import { CoreError } from '../domain/errors.js';
import { Calendar } from '../timeline/calendar.js';
import type { EditContext, NoteEntity } from './context.js';
import { setItemProperty, unsetItemProperty } from './rel-items.js';
import type { Plan } from './relations.js';
import { invalid, relInfo, typeDef, writeTarget } from './rules.js';

/** Always understood on any relationship: when it holds (docs/timeline.md). */
export const LIFETIME_KEYS = ['since', 'until'] as const;

interface Holder { a: NoteEntity; b: EntityRecord; canonical: string; field: string; item: Record<string, unknown> | string }

function other(ctx: EditContext, a: NoteEntity, target: string): EntityRecord {
  const ph = ctx.model.entity(target) ?? ctx.model.resolve(target, a.layer);
  return ph ?? ctx.find(target);
}

/** The field of `entity`'s note whose item refers to `target` for `rel`; 'not-found' when the note writes none. */
function holderOf(ctx: EditContext, entity: string, rel: string, target: string): Holder {
  const a = ctx.find(entity);
  const b = other(ctx, a, target);
  const schema = ctx.model.schema();
  const R = rel.toUpperCase();
  const info = relInfo(schema, R);
  if (!info) writeTarget(schema, a.type, b.type, R); // throws the 'unknown relationship' refusal
  const fields = R === 'RELATED_TO' ? ['related']
    : (typeDef(schema, a.type)?.field_mappings ?? []).filter((m) => m.relationship.toUpperCase() === R).map((m) => m.field);
  const fm = ctx.model.note(a.path)?.frontmatter ?? {};
  for (const field of fields) {
    const v = fm[field];
    for (const item of Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]) {
      if (ctx.refersTo(item, a.layer, b)) return { a, b, canonical: info!.canonical, field, item: item as Holder['item'] };
    }
  }
  throw new CoreError('not-found', `${a.name}'s note writes no ${R} to ${b.name}${fields.length ? ` (in ${fields.join(', ')})` : ''}: link them first`, {
    from: a.id, rel: R, to: b.id, ...(fields.length ? { field: fields[0] } : {}),
  });
}

/** Refuse a value that does not fit the relationship type's declaration (names the field and what was expected). */
export function checkRelValue(ctx: EditContext, canonical: string, key: string, value: unknown, present: boolean): void {
  if (key === 'to') throw invalid("'to' is the relationship's target: link the other entity instead", { field: key });
  if (!/^[A-Za-z_][A-Za-z0-9_ -]*$/.test(key)) throw invalid(`'${key}' is not a property name`, { field: key });
  const scalar = (x: unknown) => ['string', 'number', 'boolean'].includes(typeof x);
  if (value === null || value === undefined) throw invalid(`${canonical}.${key} needs a value (unset it to remove it)`, { field: key });
  if (!(scalar(value) || (Array.isArray(value) && value.every(scalar)))) throw invalid(`${canonical}.${key} must be a plain value or a list of them`, { field: key });
  if ((LIFETIME_KEYS as readonly string[]).includes(key)) {
    const ok = (typeof value === 'number' && Number.isInteger(value) && value >= 0) || (typeof value === 'string' && value.trim() !== '');
    if (!ok) throw invalid(`${key} must be a session number or an event, got ${JSON.stringify(value)}`, { field: key });
    return;
  }
  const defs = ctx.model.schema().relationship_types.find((r) => r.name === canonical)?.properties ?? [];
  const def = defs.find((d) => d.name === key);
  if (!def) {
    if (present) return;
    throw invalid(`${canonical} declares no property '${key}' (declared: ${[...defs.map((d) => d.name), ...LIFETIME_KEYS].join(', ')})`, { field: key });
  }
  const cal = ctx.model.config().calendar;
  const expected = valueMismatch(def, value, cal ? new Calendar(cal) : null);
  if (expected) throw invalid(`${canonical} property '${key}' must be ${expected}, got ${JSON.stringify(value)}`, { field: key });
}

export async function planRelProperty(ctx: EditContext, entity: string, rel: string, target: string, key: string, value: unknown): Promise<Plan> {
  const h = holderOf(ctx, entity, rel, target);
  const present = typeof h.item === 'object' && Object.prototype.hasOwnProperty.call(h.item, key);
  checkRelValue(ctx, h.canonical, key, value, present);
  const match = (ref: string) => ctx.refersTo(ref, h.a.layer, h.b);
  const ch = await ctx.edit(h.a.path, (t) => setItemProperty(t, h.field, match, key, value));
  return { label: `set ${key} of ${h.a.name} ${rel.toUpperCase()} ${h.b.name}`, files: [ch] };
}

export async function planRelUnset(ctx: EditContext, entity: string, rel: string, target: string, key: string): Promise<Plan> {
  const h = holderOf(ctx, entity, rel, target);
  if (key === 'to') throw invalid("'to' is the relationship's target: unlink instead", { field: key });
  const match = (ref: string) => ctx.refersTo(ref, h.a.layer, h.b);
  const ch = await ctx.edit(h.a.path, (t) => unsetItemProperty(t, h.field, match, key));
  return { label: `unset ${key} of ${h.a.name} ${rel.toUpperCase()} ${h.b.name}`, files: [ch] };
}
