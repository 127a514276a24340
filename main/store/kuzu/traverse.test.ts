/**
 * The one-query walk (neighbours) against two references on a seeded random
 * graph in a real Kùzu database: a BFS over the edge list in plain JS (what a
 * walk means) and the level-by-level walk it replaced (neighboursByLevel).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Traversal } from '../../../shared/types.js';
import { prng } from '../../../shared/prng.js';
import type { Direction } from '../../domain/types.js';
import { createKuzuStore } from '../kuzu-store.js';
import { edge, ent, testSchema } from '../test-helpers.js';
import { type OpenedDb, closeDatabase, openDatabase } from './db.js';
import { readMeta } from './meta.js';
import { RelRegistry } from './rels.js';
import { SummaryCache } from './summaries.js';
import { neighbours } from './traverse.js';
import { neighboursByLevel } from './traverse-levels.js';
import { walkPlan } from './walk.js';

const TYPES = ['MEMBER_OF', 'PART_OF', 'ALLIED_WITH', 'LOCATED_IN', 'LINKS_TO', 'RELATED_TO'];
const SYMMETRIC = new Set(['ALLIED_WITH', 'RELATED_TO']);
const INVERSE: Record<string, string> = { MEMBER_OF: 'HAS_MEMBER', PART_OF: 'CONTAINS', LOCATED_IN: 'LOCATION_OF' };
const N = 120;
const names = Array.from({ length: N }, (_, i) => `E${i}`);
const r = prng(20261122);
const edges = Array.from({ length: 260 }, (_, k) => {
  const from = names[Math.floor(r() * N)] as string;
  // skewed targets (hubs); a few self-loops and parallel edges come with it
  const to = names[Math.floor(Math.pow(r(), 2) * N)] as string;
  return edge(from, to, TYPES[Math.floor(r() * TYPES.length)] as string, { source: `${from}.md`, line: k, field: k % 3 === 0 ? 'f' : null });
});
edges.push(edge('E1', 'E1', 'LINKS_TO'), edge('E2', 'E3', 'MEMBER_OF', { field: 'other' }), edge('E2', 'E3', 'MEMBER_OF'));
const id = (n: string): string => `main/${n.toLowerCase()}`;

let dir: string;
let o: OpenedDb;
let reg: RelRegistry;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-walk-'));
  const store = createKuzuStore(join(dir, 'db'));
  await store.open(testSchema(), 'fp');
  await store.rebuild([...names.map((n) => ent(n)), ent('Loner')], edges);
  await store.close();
  o = await openDatabase(join(dir, 'db', 'graph.kuzu'));
  reg = RelRegistry.fromJSON(String((await readMeta(o.reader)).rels));
});
afterAll(async () => {
  await closeDatabase(o);
  await rm(dir, { recursive: true, force: true });
});

/** Plain BFS over the edge list: levels and the steps from level d-1 to level d. */
function bfs(root: string, depth: number, type: string | undefined, direction: Direction): { levels: Map<string, number>; steps: string[] } {
  let only: string | undefined;
  let d0 = direction;
  if (type) {
    const canon = Object.entries(INVERSE).find(([, inv]) => inv === type)?.[0];
    only = canon ?? type;
    if (canon && d0 !== 'both') d0 = d0 === 'out' ? 'in' : 'out';
  }
  const adj = new Map<string, Array<{ to: string; type: string; dir: 'out' | 'in' | 'both'; label: string }>>();
  const add = (a: string, x: { to: string; type: string; dir: 'out' | 'in' | 'both'; label: string }): void => { adj.set(a, [...(adj.get(a) ?? []), x]); };
  for (const e of edges) {
    if (only && e.type !== only) continue;
    const sym = SYMMETRIC.has(e.type);
    if (sym || d0 !== 'in') add(e.from, { to: e.to, type: e.type, dir: sym ? 'both' : 'out', label: e.type });
    if (sym || d0 !== 'out') add(e.to, { to: e.from, type: e.type, dir: sym ? 'both' : 'in', label: sym ? e.type : INVERSE[e.type] ?? e.type });
  }
  const levels = new Map([[root, 0]]);
  let frontier = [root];
  for (let d = 1; d <= depth; d++) {
    const next: string[] = [];
    for (const u of frontier) for (const x of adj.get(u) ?? []) if (!levels.has(x.to)) { levels.set(x.to, d); next.push(x.to); }
    frontier = next;
  }
  const steps = new Set<string>();
  for (const [u, lu] of levels) {
    if (lu >= depth) continue;
    for (const x of adj.get(u) ?? []) if (levels.get(x.to) === lu + 1) steps.add(JSON.stringify([lu + 1, u, x.to, x.type, x.label, x.dir]));
  }
  levels.delete(root);
  return { levels, steps: [...steps].sort() };
}

const stepSet = (t: Traversal): string[] => t.steps.map((s) => JSON.stringify([s.depth, s.from, s.to, s.type, s.label, s.direction])).sort();
const levelsOf = (t: Traversal): Map<string, number> => {
  const m = new Map<string, number>();
  for (const s of t.steps) m.set(s.to, s.depth);
  return m;
};

const CASES: Array<{ type?: string; direction: Direction }> = [
  { direction: 'both' }, { direction: 'out' }, { direction: 'in' },
  { type: 'MEMBER_OF', direction: 'out' }, { type: 'HAS_MEMBER', direction: 'out' }, { type: 'LINKS_TO', direction: 'in' },
  { type: 'ALLIED_WITH', direction: 'out' }, { type: 'PART_OF', direction: 'both' },
];

describe('neighbours (one recursive query) on a seeded random graph', () => {
  it('equals a BFS over the edges and the level-by-level walk, for every direction, type filter and depth', async () => {
    const pick = prng(7);
    let compared = 0;
    for (let k = 0; k < 12; k++) {
      const root = id(names[Math.floor(pick() * N)] as string);
      for (const opts of CASES) {
        for (const depth of [1, 2, 3, 5]) {
          // every other walk runs its two arrows at once on the second read connection
          const got = await neighbours(o.reader, reg, new SummaryCache(), root, { depth, ...opts }, k % 2 ? o.spare : undefined);
          const old = await neighboursByLevel(o.reader, reg, new SummaryCache(), root, depth, walkPlan(reg, opts.type, opts.direction));
          const want = bfs(root, depth, opts.type, opts.direction);
          expect(stepSet(got)).toEqual(want.steps);
          expect(stepSet(got)).toEqual(stepSet(old));
          expect(new Map(got.entities.map((e) => [e.id, levelsOf(got).get(e.id)]))).toEqual(want.levels);
          expect(got.entities.map((e) => e.id).sort()).toEqual(old.entities.map((e) => e.id).sort());
          expect(got.root.id).toBe(root);
          // level order
          const ls = got.entities.map((e) => levelsOf(got).get(e.id) as number);
          expect(ls).toEqual([...ls].sort((a, b) => a - b));
          compared += want.steps.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000); // the graph is connected enough for the comparison to mean something
  });

  it('caps the entities inside the last level reached, keeping every earlier level whole', async () => {
    const root = id('E0');
    const full = await neighbours(o.reader, reg, new SummaryCache(), root, { depth: 5, direction: 'both' });
    const all = levelsOf(full);
    expect(full.entities.length).toBeGreaterThan(40);
    for (const cap of [1, 7, 25, 40]) {
      const got = await neighbours(o.reader, reg, new SummaryCache(), root, { depth: 5, direction: 'both' }, undefined, cap);
      const old = await neighboursByLevel(o.reader, reg, new SummaryCache(), root, 5, walkPlan(reg, undefined, 'both'), cap);
      expect(got.entities).toHaveLength(cap);
      expect(old.entities).toHaveLength(cap);
      const kept = new Set([root, ...got.entities.map((e) => e.id)]);
      const cut = Math.max(...got.entities.map((e) => all.get(e.id) as number));
      // every entity before the cut level is kept; levels are the uncapped ones; same level profile as the old walk
      for (const [x, l] of all) if (l < cut) expect(kept.has(x)).toBe(true);
      const profile = (t: Traversal): number[] => t.entities.map((e) => all.get(e.id) as number).sort();
      expect(profile(got)).toEqual(profile(old));
      // the steps are the uncapped steps between kept entities
      expect(stepSet(got)).toEqual(stepSet({ ...full, steps: full.steps.filter((s) => kept.has(s.from) && kept.has(s.to)) }));
    }
  });

  it('steps and entities come in one total order, whatever order Kùzu returns rows in (pages over them are stable)', async () => {
    const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
    const key = (s: Traversal['steps'][number]): [number, string, string, string, string] => [s.depth, s.from, s.to, s.type, s.direction];
    const ordered = (t: Traversal): void => {
      const ks = t.steps.map(key);
      const sorted = [...ks].sort((a, b) => a[0] - b[0] || cmp(a[1], b[1]) || cmp(a[2], b[2]) || cmp(a[3], b[3]) || cmp(a[4], b[4]));
      expect(ks).toEqual(sorted);
      const lv = levelsOf(t);
      const es = t.entities.map((e) => [lv.get(e.id) as number, e.id] as const);
      expect(es).toEqual([...es].sort((a, b) => a[0] - b[0] || cmp(a[1], b[1])));
    };
    for (const root of ['E0', 'E5', 'E17'].map(id)) {
      for (const opts of CASES) {
        const a = await neighbours(o.reader, reg, new SummaryCache(), root, { depth: 3, ...opts });
        const b = await neighbours(o.reader, reg, new SummaryCache(), root, { depth: 3, ...opts }, o.spare);
        const c = await neighboursByLevel(o.reader, reg, new SummaryCache(), root, 3, walkPlan(reg, opts.type, opts.direction));
        for (const t of [a, b, c]) ordered(t);
        expect(b).toEqual(a);
        expect(c.steps).toEqual(a.steps);
      }
      // a cut keeps the first entities of that order: the same ones in both walks
      for (const cap of [3, 20]) {
        const got = await neighbours(o.reader, reg, new SummaryCache(), root, { depth: 5, direction: 'both' }, undefined, cap);
        const old = await neighboursByLevel(o.reader, reg, new SummaryCache(), root, 5, walkPlan(reg, undefined, 'both'), cap);
        ordered(got);
        expect(old.entities.map((e) => e.id)).toEqual(got.entities.map((e) => e.id));
      }
    }
  });

  it('an unknown root is a not-found error; an unknown type walks nothing; a lone entity has no neighbours', async () => {
    await expect(neighbours(o.reader, reg, new SummaryCache(), 'main/nobody', { depth: 2, direction: 'both' })).rejects.toMatchObject({ code: 'not-found' });
    expect(await neighbours(o.reader, reg, new SummaryCache(), id('E0'), { depth: 2, type: 'NO_SUCH', direction: 'both' })).toMatchObject({ entities: [], steps: [] });
    expect(await neighbours(o.reader, reg, new SummaryCache(), id('Loner'), { depth: 3, direction: 'both' })).toMatchObject({ root: { name: 'Loner' }, entities: [], steps: [] });
  });
});
