/** Read queries over the Entity table and the canonical REL tables (mirrors are never read here). */
import type { EntityRecord, EntitySummary, RelationshipRecord } from '../../../shared/types.js';
import type { ListFilter } from '../../domain/types.js';
import type { GraphCounts } from '../types.js';
import type { Conn, Params, Row } from './db.js';
import { type RelRegistry, ident } from './rels.js';
import { recordProjection, rowToRecord, rowToSummary, summaryProjection } from './rows.js';

/** `:A|B|C` over the canonical tables (so each edge is seen once). */
export function canonicalLabels(reg: RelRegistry, only?: string[]): string {
  return (only ?? reg.names()).map(ident).join('|');
}

/** Up to this many ids are read as primary-key lookups joined by UNION ALL; more go through one UNWIND. */
export const PK_UNION_MAX = 24;

/**
 * Rows of the entities with these ids (`columns` over `e`; absent ids give no row; order not kept).
 * Measured at 10k entities: `UNWIND $ids … MATCH (e {id: x})` is a hash join over a scan of the
 * Entity table, ~4.5 ms whatever the list's length (1 or 1,000 ids), while each pk lookup costs
 * ~0.15 ms inside one UNION ALL statement: below ~25 ids the lookups win (1 id: 0.3 vs 4.5 ms).
 */
export async function entitiesByIds(c: Conn, ids: readonly string[], columns: string): Promise<Row[]> {
  const uniq = [...new Set(ids)];
  if (uniq.length === 0) return [];
  if (uniq.length > PK_UNION_MAX) return c.query(`UNWIND $ids AS x MATCH (e:Entity {id: x}) RETURN ${columns}`, { ids: uniq });
  const params: Params = {};
  uniq.forEach((id, i) => { params[`i${i}`] = id; });
  return c.query(uniq.map((_, i) => `MATCH (e:Entity {id: $i${i}}) RETURN ${columns}`).join(' UNION ALL '), params);
}

const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : 0);

function rowToEdge(r: Row): RelationshipRecord {
  return {
    from: String(r.f),
    to: String(r.t),
    type: String(r.type),
    field: typeof r.field === 'string' ? r.field : null,
    source: typeof r.source === 'string' ? r.source : '',
    line: num(r.line),
  };
}

const EDGE_COLS = 'label(r) AS type, r.field AS field, r.source AS source, r.line AS line';

export async function getEntity(c: Conn, id: string): Promise<EntityRecord | null> {
  const rows = await c.query(`MATCH (e:Entity {id: $id}) RETURN ${recordProjection('e')}`, { id });
  return rows[0] ? rowToRecord(rows[0]) : null;
}

export async function edgesOf(c: Conn, reg: RelRegistry, id: string): Promise<RelationshipRecord[]> {
  const L = canonicalLabels(reg);
  const out = await c.query(`MATCH (a:Entity {id: $id})-[r:${L}]->(b:Entity) RETURN a.id AS f, b.id AS t, ${EDGE_COLS}`, { id });
  // self-loops already came back as outgoing
  const inc = await c.query(`MATCH (a:Entity {id: $id})<-[r:${L}]-(b:Entity) WHERE b.id <> $id RETURN b.id AS f, a.id AS t, ${EDGE_COLS}`, { id });
  return [...out, ...inc].map(rowToEdge);
}

/** Tags are matched case-insensitively and without a leading '#'. */
export async function list(c: Conn, f: ListFilter): Promise<{ items: EntitySummary[]; total: number }> {
  const where: string[] = [];
  const p: Params = {};
  if (!f.placeholders) where.push('e.placeholder = false');
  if (f.type !== undefined) { where.push('e.type = $type'); p.type = f.type; }
  if (f.layer !== undefined) { where.push('e.layer = $layer'); p.layer = f.layer; }
  if (f.tag !== undefined) {
    where.push('list_contains(list_transform(e.tags, x -> lower(x)), $tag)');
    p.tag = f.tag.replace(/^#/, '').toLowerCase();
  }
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const offset = Math.max(0, Math.floor(f.offset ?? 0));
  // no limit given: every match (total is returned either way)
  const page = f.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(f.limit))}`;
  const totalRows = await c.query(`MATCH (e:Entity) ${w} RETURN count(e) AS n`, p);
  const rows = await c.query(`MATCH (e:Entity) ${w} RETURN ${summaryProjection('e')} ORDER BY lower(e.name), e.id SKIP ${offset}${page}`, p);
  return { items: rows.map((r) => rowToSummary(r)), total: num(totalRows[0]?.n) };
}

/** entities = non-placeholder entities; relationships = edges in canonical tables (mirrors not counted). */
export async function counts(c: Conn, reg: RelRegistry): Promise<GraphCounts> {
  // Two filtered counts, not sum(CASE …): in kuzu 0.11.3 CASE over a table with deleted rows returns wrong rows.
  const all = await c.query('MATCH (e:Entity) RETURN count(e) AS n');
  const ph = await c.query('MATCH (e:Entity) WHERE e.placeholder = true RETURN count(e) AS n');
  const r = await c.query(`MATCH ()-[r:${canonicalLabels(reg)}]->() RETURN count(r) AS n`);
  const placeholders = num(ph[0]?.n);
  return { entities: num(all[0]?.n) - placeholders, placeholders, relationships: num(r[0]?.n) };
}

export async function storedHashes(c: Conn): Promise<Map<string, string>> {
  const rows = await c.query('MATCH (e:Entity) WHERE e.placeholder = false AND e.path IS NOT NULL RETURN e.path AS path, e.hash AS hash');
  const m = new Map<string, string>();
  for (const r of rows) if (typeof r.path === 'string') m.set(r.path, typeof r.hash === 'string' ? r.hash : '');
  return m;
}

/** With a layer filter: the layer's nodes and the edges between them. */
export async function snapshot(c: Conn, reg: RelRegistry, filter?: { layer?: string }): Promise<{ nodes: EntitySummary[]; edges: RelationshipRecord[] }> {
  const layer = filter?.layer;
  const p: Params = layer !== undefined ? { layer } : {};
  const nw = layer !== undefined ? 'WHERE e.layer = $layer' : '';
  const ew = layer !== undefined ? 'WHERE a.layer = $layer AND b.layer = $layer' : '';
  const nodes = await c.query(`MATCH (e:Entity) ${nw} RETURN ${summaryProjection('e')} ORDER BY e.id`, p);
  const edges = await c.query(`MATCH (a:Entity)-[r:${canonicalLabels(reg)}]->(b:Entity) ${ew} RETURN a.id AS f, b.id AS t, ${EDGE_COLS}`, p);
  return { nodes: nodes.map((r) => rowToSummary(r)), edges: edges.map(rowToEdge) };
}
