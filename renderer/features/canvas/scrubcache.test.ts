import { describe, expect, it } from 'vitest';
import { hotWindow, windowShort, windowSteps } from './scrubcache.js';

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

describe('windowShort', () => {
  // a scrub one step at a time (a key press each), the next window built ahead whenever windowShort says so (in idle
  // time between steps): no step changes an element outside the window, i.e. none draws the cold part in its frame
  const walk = (ahead: number, behind: number, margin: number, sessions: number, moves: ReadonlyArray<1 | -1>) => {
    let at = 0, dir: 1 | -1 = 1, w = windowSteps(at, dir, ahead, behind), out = 0, builds = 0;
    for (const m of moves) {
      if (at + m < 0 || at + m > sessions - 1) continue;
      // the step overlay at -> at + m changes pairs[k]
      const k = m > 0 ? at : at - 1;
      if (k < w[0] || k > w[1]) { out++; w = windowSteps(at + m, m, ahead, behind); }
      at += m; dir = m;
      if (windowShort(at, dir, w, margin)) { w = windowSteps(at, dir, ahead, behind); builds++; }
    }
    return { out, builds };
  };

  it('keeps every step of a walk, either way and turning back, inside the window (4 ahead, 1 behind, margin 2; and 8, 2, 3)', () => {
    let seed = 7;
    const rnd = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
    for (const [ahead, behind, margin] of [[4, 1, 2], [8, 2, 3], [2, 1, 1]] as const) {
      for (let run = 0; run < 50; run++) {
        const moves: Array<1 | -1> = [];
        let d: 1 | -1 = 1;
        for (let i = 0; i < 300; i++) { if (rnd() < 0.15) d = d > 0 ? -1 : 1; moves.push(d); }
        expect(walk(ahead, behind, margin, 68, moves).out).toBe(0);
      }
    }
  });

  it('builds the next window about every (ahead - margin + 1) steps one way, and fails the walk without a step behind', () => {
    const forward = Array.from({ length: 66 }, () => 1 as const);
    expect(walk(4, 1, 2, 68, forward).builds).toBe(22);
    expect(walk(8, 2, 3, 68, forward).builds).toBe(11);
    // no step behind: turning back leaves the window at once
    expect(walk(4, 0, 2, 68, [1, 1, 1, -1]).out).toBe(1);
  });
});
