import { describe, expect, it } from 'vitest';
import { prng } from '../../../shared/prng.js';
import { patchSorted, zCompare, type ZOrdered } from './zsorted.js';

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
