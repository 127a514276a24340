import { describe, expect, it } from 'vitest';
import { prng } from '../../../shared/prng.js';
import { patchSorted, patchZLists, zCompare, type ZLists, type ZOrdered } from './zsorted.js';

const el = (node: boolean, z: number, pool: number): ZOrdered & { id: string } =>
  ({ id: `${node ? 'n' : 'e'}${pool}`, isNode: () => node, pstyle: () => ({ value: z }), poolIndex: () => pool });

describe('patchSorted (the draw order kept by hand across a step)', () => {
  it('equals a full sort after random additions and removals (oracle)', () => {
    const rnd = prng(19);
    for (let trial = 0; trial < 200; trial++) {
      let pool = 0;
      const make = () => el(rnd() < 0.3, [0, 0, 0, 5, 10, 20][Math.floor(rnd() * 6)]!, pool++);
      const all = Array.from({ length: 5 + Math.floor(rnd() * 60) }, make);
      const sorted = [...all].sort(zCompare);
      const remove = new Set(all.filter(() => rnd() < 0.2));
      const add = Array.from({ length: Math.floor(rnd() * 8) }, make);
      const want = [...all.filter((x) => !remove.has(x)), ...add].sort(zCompare);
      expect(patchSorted(sorted, add, remove, zCompare).map((x) => (x as { id: string }).id)).toEqual(want.map((x) => (x as { id: string }).id));
    }
  });

  it('orders edges under nodes, then by z-index, then by the order added', () => {
    const a = el(true, 0, 1), b = el(false, 20, 2), c = el(false, 0, 3), d = el(true, 5, 0);
    expect([a, b, c, d].sort(zCompare)).toEqual([c, b, a, d]);
  });
});

describe('patchZLists (the order, interactive list and layer split kept by hand)', () => {
  type E = ZOrdered & { id: string; inter: boolean; drag: boolean; grab: boolean };
  /** the lists as Cytoscape builds them from scratch (getCachedZSortedEles, updateCachedGrabbedEles) */
  const fresh = (all: readonly E[]): ZLists<E> => {
    const s: ZLists<E> = [...all].sort(zCompare);
    s.interactive = s.filter((e) => e.inter);
    s.drag = s.filter((e) => e.drag && !e.grab);
    s.drag.push(...s.filter((e) => e.grab));
    s.nondrag = s.filter((e) => !e.drag && !e.grab);
    return s;
  };
  const ids = (l: ZLists<E>) => ({ all: l.map((e) => e.id), interactive: l.interactive!.map((e) => e.id), drag: l.drag!.map((e) => e.id), nondrag: l.nondrag!.map((e) => e.id) });

  it('equals the lists built from scratch after random drag-layer additions and removals (oracle)', () => {
    const rnd = prng(1919);
    let patched = 0;
    for (let trial = 0; trial < 200; trial++) {
      let pool = 0;
      const make = (drag: boolean): E => ({ ...el(rnd() < 0.3, [0, 0, 5, 20][Math.floor(rnd() * 4)]!, pool++), inter: rnd() < 0.8, drag, grab: false });
      const all = Array.from({ length: 5 + Math.floor(rnd() * 80) }, () => make(rnd() < 0.4));
      const lists = fresh(all);
      const remove = new Set(all.filter((e) => e.drag && rnd() < 0.25));
      const add = Array.from({ length: Math.floor(rnd() * 8) }, () => make(true));
      expect(patchZLists(lists, add, remove, zCompare, (e) => e.inter, (e) => e.grab)).toBe(true);
      patched++;
      expect(ids(lists)).toEqual(ids(fresh([...all.filter((x) => !remove.has(x)), ...add])));
    }
    expect(patched).toBe(200);
  });

  it('leaves the lists alone while a node is grabbed, or when the sub-lists are missing', () => {
    const a: E = { ...el(true, 0, 0), inter: true, drag: true, grab: true }, b: E = { ...el(false, 0, 1), inter: true, drag: true, grab: false };
    const lists = fresh([a, b]);
    const before = ids(lists);
    expect(patchZLists(lists, [{ ...el(false, 0, 2), inter: true, drag: true, grab: false }], new Set([b]), zCompare, (e) => e.inter, (e) => e.grab)).toBe(false);
    expect(ids(lists)).toEqual(before);
    expect(patchZLists([a, b] as ZLists<E>, [], new Set([b]), zCompare, (e) => e.inter, (e) => e.grab)).toBe(false);
  });
});
