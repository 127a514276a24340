/**
 * Store micro-bench: synthetic EntityRecords/edges generated in memory (no
 * files, no parser), loaded into a real Kùzu store in ctx.tmpDir. Called by
 * bench/run.ts; figures are milliseconds.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { entityId } from '../shared/names.js';
import type { EntityRecord, RelationshipRecord } from '../shared/types.js';
import { createKuzuStore } from '../main/store/kuzu-store.js';
import { testSchema } from '../main/store/test-helpers.js';
import { prng } from '../shared/prng.js';


const WORDS = ('river castle dragon king queen sword harbour guild temple forest mountain shadow silver iron merchant ' +
  'priest ruin tower storm winter festival treaty rebellion oath crown bridge market smuggler lantern tide ember').split(' ');
const TYPES = ['npc', 'location', 'faction', 'item', 'deity'];
const RELS = ['MEMBER_OF', 'PART_OF', 'ALLIED_WITH', 'LOCATED_IN', 'LINKS_TO', 'RELATED_TO'];

export function syntheticWorld(n: number, edgesPerEntity: number, seed = 42): { entities: EntityRecord[]; edges: RelationshipRecord[] } {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const entities: EntityRecord[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${pick(WORDS)} ${pick(WORDS)} ${i}`;
    const sentences = Array.from({ length: 4 + Math.floor(r() * 8) }, () =>
      Array.from({ length: 8 + Math.floor(r() * 10) }, () => pick(WORDS)).join(' ') + '.');
    entities.push({
      id: entityId('main', name), name, type: pick(TYPES), layer: 'main', path: `notes/${name}.md`, hash: `h${i}`,
      tags: [pick(WORDS), `Type/${pick(TYPES)}`], aliases: r() < 0.2 ? [`the ${pick(WORDS)} ${i}`] : [],
      properties: { rank: i % 10, title: pick(WORDS) }, body: sentences.join(' '), placeholder: false,
    });
  }
  const edges: RelationshipRecord[] = [];
  const m = n * edgesPerEntity;
  for (let k = 0; k < m; k++) {
    const from = entities[k % n] as EntityRecord;
    // skewed targets: a few hubs get many edges, like a real world's capitals and factions
    const to = entities[Math.floor(Math.pow(r(), 2) * n)] as EntityRecord;
    if (to.id === from.id) continue;
    edges.push({ from: from.id, to: to.id, type: pick(RELS), field: null, source: from.path as string, line: k });
  }
  return { entities, edges };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0) * 100) / 100;
}

async function timeMany(iter: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.min(5, iter); i++) await fn(i); // warm-up (prepared statements, caches)
  const ts: number[] = [];
  for (let i = 0; i < iter; i++) {
    const t = performance.now();
    await fn(i);
    ts.push(performance.now() - t);
  }
  return { p50: pct(ts, 50), p95: pct(ts, 95) };
}

export async function bench(ctx: { quick: boolean; tmpDir: string }): Promise<Record<string, unknown>> {
  const n = ctx.quick ? 1000 : 10000;
  const iter = ctx.quick ? 20 : 100;
  const { entities, edges } = syntheticWorld(n, 5);
  const store = createKuzuStore(join(ctx.tmpDir, 'store-bench'));
  try {
    await store.open(testSchema(), 'bench');
    let t = performance.now();
    await store.rebuild(entities, edges);
    const rebuild_ms = Math.round(performance.now() - t);
    t = performance.now();
    await store.ensureSearchIndex();
    const fts_index_ms = Math.round(performance.now() - t);
    const r = prng(7);
    const anyId = (): string => (entities[Math.floor(r() * n)] as EntityRecord).id;
    const lookup = await timeMany(iter, () => store.getEntity(anyId()));
    const hop3 = await timeMany(iter, () => store.neighbours(anyId(), { depth: 3, direction: 'both' }));
    const path = await timeMany(iter, () => store.shortestPath(anyId(), anyId(), 6));
    const search = await timeMany(iter, (i) => store.search(`${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}`, { limit: 20 }));
    const delta = await timeMany(Math.min(iter, 50), (i) => {
      const e = entities[i] as EntityRecord;
      return store.applyDelta({ removeEntities: [], upsertEntities: [{ ...e, body: `${e.body} edit ${i}` }], removeEdges: [], addEdges: [] });
    });
    return {
      store_entities: n,
      store_edges: edges.length,
      rebuild_ms,
      fts_index_ms,
      store_lookup_ms: lookup,
      store_neighbours_3hop_ms: hop3,
      store_path_ms: path,
      store_search_ms: search,
      store_apply_delta_ms: delta,
    };
  } finally {
    await store.close();
  }
}
