/**
 * Link / unlink planning: which note and field hold `from -[rel]-> to`
 * (schema field mappings, inverse and symmetric names), in which style
 * ([[wikilink]] or plain name, list or scalar), and the new bytes.
 */
import { formatLink, refTarget } from '../../shared/wikilinks.js';
import { entityId, normaliseName } from '../../shared/names.js';
import type { RelationshipRecord } from '../../shared/types.js';
import { CoreError } from '../domain/errors.js';
import type { EditContext, NoteEntity } from './context.js';
import { addListItem, removeListItem, setField } from './frontmatter.js';
import { setItemProperty } from './rel-items.js';
import { checkRelValue } from './rel-props.js';
import { checkEntityName, checkTargetType, invalid, layerRefusal, relInfo, writeTarget } from './rules.js';
import type { FileChange } from './tx.js';

/** The files a command will write, and its history label. */
export interface Plan { label: string; files: FileChange[] }

/**
 * `properties`: the relationship's own properties, set on the item written (or already there) in the holder's
 * note, checked against the relationship type first; the link and its properties are one file change.
 */
export async function planLink(ctx: EditContext, from: string, rel: string, to: string, placeholder = false, properties: Record<string, unknown> = {}): Promise<Plan> {
  const a = ctx.find(from);
  const props = Object.entries(properties);
  const info = relInfo(ctx.model.schema(), rel);
  if (info) for (const [k, v] of props) checkRelValue(ctx, info.canonical, k, v, false);
  const withProps = (t: string, field: string, match: (ref: string) => boolean) => props.reduce((out, [k, v]) => setItemProperty(out, field, match, k, v), t);
  if (placeholder) {
    const known = ctx.model.entity(to) ?? ctx.model.resolve(to, a.layer);
    if (!known || known.placeholder) {
      if (props.length) throw invalid(`${to} has no note yet: create it before giving the relationship properties`, { field: 'properties' });
      return planLinkPlaceholder(ctx, a, rel, checkEntityName(known?.name ?? to));
    }
  }
  const b = ctx.find(to);
  const wt = writeTarget(ctx.model.schema(), a.type, b.type, rel);
  const [holder, other] = wt.end === 'from' ? [a, b] : [b, a];
  checkTargetType(wt.mapping, other.type, other.name);
  // a link the holder's layer cannot see would resolve to a placeholder: refuse it, saying why
  const why = layerRefusal(ctx.model.config(), holder, other);
  if (why) throw invalid(why, { field: wt.field, reason: 'layer', layer: holder.layer, targetLayer: other.layer });
  const ref = ctx.refText(holder, other, wt.field);
  const cur = ctx.model.note(holder.path)?.frontmatter[wt.field];
  const items = Array.isArray(cur) ? cur : cur === undefined || cur === null ? [] : [cur];
  const exists = items.some((x) => ctx.refersTo(x, holder.layer, other));
  if (exists && !props.length) return { label: '', files: [] };
  const match = (r: string) => ctx.refersTo(r, holder.layer, other);
  const ch = await ctx.edit(holder.path, (t) => withProps(exists ? t : wt.cardinality === 'scalar' ? setField(t, wt.field, ref) : addListItem(t, wt.field, ref), wt.field, match));
  return { label: `link ${a.name} ${rel.toUpperCase()} ${b.name}`, files: [ch] };
}

/** `a -[rel]-> name` where name has no note: written on a's note only, by name (no target type to check yet). */
async function planLinkPlaceholder(ctx: EditContext, a: NoteEntity, rel: string, name: string): Promise<Plan> {
  const wt = writeTarget(ctx.model.schema(), a.type, null, rel);
  if (wt.end !== 'from') throw invalid(`${rel.toUpperCase()} is written in the other entity's note, and ${name} has no note yet: create it first`, { field: 'relationship' });
  const cur = ctx.model.note(a.path)?.frontmatter[wt.field];
  const items = Array.isArray(cur) ? cur : cur === undefined || cur === null ? [] : [cur];
  const key = normaliseName(name);
  if (items.some((x) => typeof x === 'string' && normaliseName(refTarget(x)) === key)) return { label: '', files: [] };
  const ref = ctx.wikiStyle(wt.field) ? formatLink(name) : name;
  const ch = await ctx.edit(a.path, (t) => wt.cardinality === 'scalar' ? setField(t, wt.field, ref) : addListItem(t, wt.field, ref));
  return { label: `link ${a.name} ${rel.toUpperCase()} ${name}`, files: [ch] };
}

export async function planUnlink(ctx: EditContext, from: string, rel: string, to: string): Promise<Plan> {
  const a = ctx.find(from);
  // the other end may be a placeholder (a name with no note): its links can be removed all the same
  // (resolve() answers only real notes; a placeholder lives in the referencing layer under its name)
  const ph = ctx.model.entity(to) ?? ctx.model.resolve(to, a.layer) ?? ctx.model.entity(entityId(a.layer, to));
  const b = ph?.placeholder ? ph : ctx.find(to);
  const info = relInfo(ctx.model.schema(), rel);
  if (!info) writeTarget(ctx.model.schema(), a.type, b.type, rel); // throws the 'unknown relationship' refusal
  const R = rel.toUpperCase();
  const forward = R === info!.canonical;
  const symmetric = info!.mirror === info!.canonical;
  // the edges as declared in files, whichever end holds the field
  const edges: RelationshipRecord[] = [...ctx.model.edgesFrom(a.id), ...ctx.model.edgesTo(a.id)].filter((e) =>
    e.type === info!.canonical && e.field !== null &&
    ((forward || symmetric) && e.from === a.id && e.to === b.id || (!forward || symmetric) && e.from === b.id && e.to === a.id));
  const bySource = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!bySource.has(e.source)) bySource.set(e.source, new Set());
    bySource.get(e.source)!.add(e.field!);
  }
  if (!bySource.size) throw new CoreError('not-found', `no ${R} between ${a.name} and ${b.name} is written in any note`, { from: a.id, rel: R, to: b.id });
  const files: FileChange[] = [];
  for (const [path, fields] of bySource) {
    const holderId = ctx.model.entityIdOfPath(path);
    const holderLayer = ctx.model.layerOf(path) ?? a.layer;
    const other = holderId === a.id ? b : a;
    files.push(await ctx.edit(path, (t) => {
      let out = t;
      for (const f of fields) out = removeListItem(out, f, (v: unknown) => ctx.refersTo(v, holderLayer, other));
      return out;
    }));
  }
  return { label: `unlink ${a.name} ${R} ${b.name}`, files };
}
