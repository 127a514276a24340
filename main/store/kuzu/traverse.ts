/**
 * neighbours(): level-by-level frontier expansion over the canonical REL
 * tables (one query per direction per level, bounded fan-out), labelling each
 * step from the end already reached: an 'in' step on a type with an inverse
 * gets the inverse name, symmetric types are 'both'.
 * shortestPath(): Kùzu's `* SHORTEST` recursive rel over every canonical
 * table, undirected.
 */
import type { EntitySummary, PathResult, Traversal, TraversalStep } from '../../../shared/types.js';
import { CoreError, type Direction } from '../../core/api.js';
import type { Conn, Row } from './db.js';
import { canonicalLabels } from './queries.js';
import type { RelRegistry } from './rels.js';
import { rowToSummary, summaryProjection } from './rows.js';

/** Expansion stops adding entities past this many (a hub at depth 5 could otherwise return the whole world). */
export const MAX_TRAVERSAL_ENTITIES = 5000;

async function summaryOf(c: Conn, id: string): Promise<EntitySummary> {
  const rows = await c.query(`MATCH (e:Entity {id: $id}) RETURN ${summaryProjection('e')}`, { id });
  if (!rows[0]) throw new CoreError('entity-not-found', `no entity with id "${id}"`);
  return rowToSummary(rows[0]);
}

/**
 * The queries for one level: at most two (one per arrow). Symmetric tables are
 * walked both ways whatever the direction; a `type` filter may be canonical or
 * inverse, and an inverse name flips the direction (HAS_MEMBER out = MEMBER_OF in).
 */
interface LevelQuery { one: string; many: string; seen: 'out' | 'in' }

function levelQueries(reg: RelRegistry, type: string | undefined, direction: Direction): Array<LevelQuery> | null {
  let tables = reg.names();
  let dir = direction;
  if (type !== undefined) {
    const r = reg.resolve(type) ?? reg.resolve(type.toUpperCase());
    if (!r) return null;
    tables = [r.canonical];
    if (r.inverted && dir !== 'both') dir = dir === 'out' ? 'in' : 'out';
  }
  const symmetric = tables.filter((t) => reg.get(t)?.symmetric);
  const out: LevelQuery[] = [];
  for (const arrow of ['out', 'in'] as const) {
    const ts = dir === 'both' || dir === arrow ? tables : symmetric;
    if (ts.length === 0) continue;
    const L = canonicalLabels(reg, ts);
    const pat = arrow === 'out' ? `-[r:${L}]->` : `<-[r:${L}]-`;
    // slim rows (ids only): result conversion dominates the cost; summaries are fetched once at the end
    // `WHERE a.id IN $ids`, not `UNWIND $ids … MATCH (a {id: x})`: with a multi-label rel pattern the UNWIND
    // plan costs ~36 ms CPU even for one id (measured at 10k/50k) against ~14 ms for 100 ids with IN;
    // a single id uses the primary-key pattern (~1.3 ms).
    const cols = 'RETURN a.id AS src, label(r) AS type, b.id AS dst';
    out.push({ one: `MATCH (a:Entity {id: $id})${pat}(b:Entity) ${cols}`, many: `MATCH (a:Entity)${pat}(b:Entity) WHERE a.id IN $ids ${cols}`, seen: arrow });
  }
  return out;
}

export async function neighbours(c: Conn, reg: RelRegistry, id: string, opts: { depth: number; type?: string; direction: Direction }): Promise<Traversal> {
  const root = await summaryOf(c, id);
  const depth = Math.min(5, Math.max(1, Math.floor(opts.depth || 1)));
  const queries = levelQueries(reg, opts.type, opts.direction);
  const result: Traversal = { root, entities: [], steps: [] };
  if (!queries) return result;
  const level = new Map<string, number>([[id, 0]]);
  const order: string[] = [];
  const stepKeys = new Set<string>();
  let frontier = [id];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const { one, many, seen } of queries) {
      const rows: Row[] = frontier.length === 1 ? await c.query(one, { id: frontier[0] as string }) : await c.query(many, { ids: frontier });
      for (const r of rows) {
        const dst = String(r.dst);
        const known = level.get(dst);
        if (known !== undefined && known < d) continue;
        if (known === undefined) {
          if (level.size > MAX_TRAVERSAL_ENTITIES) continue;
          level.set(dst, d);
          next.push(dst);
          order.push(dst);
        }
        const type = String(r.type);
        const v = reg.view(type, seen);
        const step: TraversalStep = { depth: d, from: String(r.src), to: dst, type, label: v.label, direction: v.direction };
        const key = `${step.from}\u0000${dst}\u0000${type}\u0000${step.direction}`;
        if (!stepKeys.has(key)) { stepKeys.add(key); result.steps.push(step); }
      }
    }
    frontier = next;
  }
  if (order.length > 0) {
    const rows = await c.query(`UNWIND $ids AS x MATCH (e:Entity {id: x}) RETURN ${summaryProjection('e')}`, { ids: order });
    const byId = new Map(rows.map((r) => { const s = rowToSummary(r); return [s.id, s] as const; }));
    for (const x of order) { const s = byId.get(x); if (s) result.entities.push(s); }
  }
  return result;
}

const idKey = (v: unknown): string => JSON.stringify(v);

export async function shortestPath(c: Conn, reg: RelRegistry, fromId: string, toId: string, maxDepth: number): Promise<PathResult | null> {
  const from = await summaryOf(c, fromId);
  await summaryOf(c, toId);
  if (fromId === toId) return { entities: [from], steps: [] };
  const max = Math.min(30, Math.max(1, Math.floor(maxDepth || 1)));
  // ids, labels and internal ids only (whole node objects would carry every body); summaries fetched after
  const rows = await c.query(
    `MATCH p = (a:Entity {id: $f})-[r:${canonicalLabels(reg)}* SHORTEST 1..${max}]-(b:Entity {id: $t})
     RETURN properties(nodes(p), 'id') AS ids, properties(nodes(p), '_id') AS nids,
            properties(rels(p), '_label') AS types, properties(rels(p), '_src') AS srcs LIMIT 1`,
    { f: fromId, t: toId },
  );
  const row = rows[0];
  if (!row) return null;
  const ids = (row.ids as string[]).map(String);
  const nids = row.nids as unknown[];
  const types = (row.types as string[]).map(String);
  const srcs = row.srcs as unknown[];
  const sums = await c.query(`UNWIND $ids AS x MATCH (e:Entity {id: x}) RETURN ${summaryProjection('e')}`, { ids });
  const byId = new Map(sums.map((r) => { const x = rowToSummary(r); return [x.id, x] as const; }));
  const entities = ids.map((x) => byId.get(x)).filter((x): x is EntitySummary => x !== undefined);
  const steps: TraversalStep[] = types.map((type, i) => {
    const seen = idKey(srcs[i]) === idKey(nids[i]) ? 'out' : 'in';
    const v = reg.view(type, seen);
    return { depth: i + 1, from: ids[i] as string, to: ids[i + 1] as string, type, label: v.label, direction: v.direction };
  });
  return { entities, steps };
}
