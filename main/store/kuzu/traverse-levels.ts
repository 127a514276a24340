/**
 * Level-by-level neighbours(): frontier expansion over the canonical REL
 * tables, one query per arrow per level (`WHERE a.id IN $ids`). traverse.ts
 * answers most walks with one recursive query instead; this one remains for
 * the walks a single Kùzu pattern cannot express (a directed walk that must
 * also cross symmetric tables both ways) and as the reference the recursive
 * walk is tested against (traverse.test.ts).
 */
import type { Traversal, TraversalStep } from '../../../shared/types.js';
import type { Conn, Row } from './db.js';
import { canonicalLabels } from './queries.js';
import type { RelRegistry } from './rels.js';
import type { SummaryCache } from './summaries.js';
import { MAX_TRAVERSAL_ENTITIES, type WalkPlan, compareSteps, rootSummary } from './walk.js';

interface LevelQuery { one: string; many: string; seen: 'out' | 'in' }

/** At most two queries per level (one per arrow); symmetric tables are walked both ways whatever the direction. */
function levelQueries(reg: RelRegistry, plan: WalkPlan): LevelQuery[] {
  const out: LevelQuery[] = [];
  for (const arrow of ['out', 'in'] as const) {
    const ts = plan.dir === 'both' || plan.dir === arrow ? plan.tables : plan.symmetric;
    if (ts.length === 0) continue;
    const L = canonicalLabels(reg, ts);
    const pat = arrow === 'out' ? `-[r:${L}]->` : `<-[r:${L}]-`;
    // `WHERE a.id IN $ids`, not `UNWIND $ids … MATCH (a {id: x})`: with a multi-label rel pattern the UNWIND
    // plan costs ~36 ms CPU even for one id (measured at 10k/50k) against ~14 ms for 100 ids with IN;
    // a single id uses the primary-key pattern (~1.3 ms).
    const cols = 'RETURN a.id AS src, label(r) AS type, b.id AS dst';
    out.push({ one: `MATCH (a:Entity {id: $id})${pat}(b:Entity) ${cols}`, many: `MATCH (a:Entity)${pat}(b:Entity) WHERE a.id IN $ids ${cols}`, seen: arrow });
  }
  return out;
}

export async function neighboursByLevel(
  c: Conn, reg: RelRegistry, cache: SummaryCache, id: string, depth: number, plan: WalkPlan | null, cap = MAX_TRAVERSAL_ENTITIES,
): Promise<Traversal> {
  const root = await rootSummary(c, cache, id);
  const result: Traversal = { root, entities: [], steps: [] };
  if (!plan) return result;
  const queries = levelQueries(reg, plan);
  const level = new Map<string, number>([[id, 0]]);
  const order: string[] = [];
  const stepKeys = new Set<string>();
  let frontier = [id];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const rows: Array<{ r: Row; seen: 'out' | 'in' }> = [];
    for (const { one, many, seen } of queries) {
      const got: Row[] = frontier.length === 1 ? await c.query(one, { id: frontier[0] as string }) : await c.query(many, { ids: frontier });
      for (const r of got) rows.push({ r, seen });
    }
    // the level's new entities in id order, then the cap: the cut is the same whatever the row order
    const fresh = [...new Set(rows.map(({ r }) => String(r.dst)).filter((x) => !level.has(x)))].sort(); // code-unit order, as compareSteps
    const next = fresh.slice(0, Math.max(0, cap + 1 - level.size));
    for (const x of next) { level.set(x, d); order.push(x); }
    for (const { r, seen } of rows) {
      const dst = String(r.dst);
      if (level.get(dst) !== d) continue;
      const type = String(r.type);
      const v = reg.view(type, seen);
      const step: TraversalStep = { depth: d, from: String(r.src), to: dst, type, label: v.label, direction: v.direction };
      const key = `${step.from}\u0000${dst}\u0000${type}\u0000${step.direction}`;
      if (!stepKeys.has(key)) { stepKeys.add(key); result.steps.push(step); }
    }
    frontier = next;
  }
  result.steps.sort(compareSteps);
  const byId = await cache.get(c, order);
  for (const x of order) { const s = byId.get(x); if (s) result.entities.push(s); }
  return result;
}
