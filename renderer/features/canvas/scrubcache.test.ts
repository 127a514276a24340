import { describe, expect, it } from 'vitest';
import { hotWindow } from './scrubcache.js';

// pairs[k]: what changes between overlays k and k + 1
const pairs = [['a'], ['b'], ['c'], ['d'], ['e'], ['f']];

describe('hotWindow', () => {
  it('covers `ahead` steps the way the scrubber moves and `behind` the other way', () => {
    // at overlay 2 moving forward: steps 2->3, 3->4 ahead, 1->2 behind
    expect([...hotWindow(pairs, 2, 1, 2, 1)].sort()).toEqual(['b', 'c', 'd']);
    // at overlay 2 moving back: steps 1->2, 0->1 ahead, 2->3 behind
    expect([...hotWindow(pairs, 2, -1, 2, 1)].sort()).toEqual(['a', 'b', 'c']);
  });

  it('always holds the next step either way when behind >= 1, and is clipped at both ends', () => {
    for (let at = 0; at <= pairs.length; at++) {
      for (const dir of [1, -1] as const) {
        const hot = hotWindow(pairs, at, dir, 3, 1);
        if (at < pairs.length) expect(hot.has(pairs[at]![0]!)).toBe(true);
        if (at > 0) expect(hot.has(pairs[at - 1]![0]!)).toBe(true);
      }
    }
    expect([...hotWindow(pairs, 0, -1, 4, 0)]).toEqual([]);
    expect([...hotWindow(pairs, 6, 1, 4, 0)]).toEqual([]);
    expect(hotWindow(pairs, 3, 1, 100, 100).size).toBe(6);
  });
});
