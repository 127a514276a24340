import { describe, expect, it } from 'vitest';
import { laterRemember, labelStride, labelWidth, recall, remember, shownLabels } from './axis.js';

describe('axis labels', () => {
  it('thins labels so that shown ones are at least a label apart', () => {
    const w = labelWidth('Year 847, day 12');
    for (const [count, width] of [[21, 600], [21, 1200], [5, 300], [60, 900], [2, 50]] as const) {
      const k = labelStride(count, width, w);
      const shown = [...shownLabels(count, k)].sort((a, b) => a - b);
      const spacing = width / (count - 1);
      for (let i = 1; i < shown.length; i++) expect((shown[i]! - shown[i - 1]!) * spacing, `${count}@${width}`).toBeGreaterThanOrEqual(w);
      expect(shown[0]).toBe(0);
    }
    expect(labelStride(5, 1000, 40)).toBe(1);
    expect([...shownLabels(5, 1)]).toEqual([0, 1, 2, 3, 4]);
    // 0, 3, 6, 9 and the last (10): 9 is too near 10, so it gives way
    expect([...shownLabels(11, 3)].sort((a, b) => a - b)).toEqual([0, 3, 6, 10]);
  });
});

describe('remembered layer and session', () => {
  it('round-trips per vault and ignores junk', () => {
    const m = new Map<string, string>();
    const store = { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
    remember(store, '/v/a', { layer: 'campaign', session: 4 });
    remember(store, '/v/b', { layer: 'other', session: null });
    expect(recall(store, '/v/a')).toEqual({ layer: 'campaign', session: 4 });
    expect(recall(store, '/v/b')).toEqual({ layer: 'other', session: null });
    expect(recall(store, '/v/c')).toBeNull();
    m.set('lorecraft.timeline:/v/d', '{"layer": 3}');
    m.set('lorecraft.timeline:/v/e', 'not json');
    expect(recall(store, '/v/d')).toBeNull();
    expect(recall(store, '/v/e')).toBeNull();
  });
});

describe('remembered later (laterRemember: off the scrub steps)', () => {
  const setup = () => {
    const m = new Map<string, string>();
    const writes: string[] = [];
    const store = { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => { writes.push(v); m.set(k, v); } };
    const due = new Map<number, () => void>();
    let id = 0;
    const timers = { set: (fn: () => void) => { due.set(++id, fn); return id; }, clear: (i: unknown) => void due.delete(i as number) };
    const fire = () => { const fns = [...due.values()]; due.clear(); for (const f of fns) f(); };
    return { m, writes, store, fire, later: laterRemember(() => store, 250, timers) };
  };

  it('writes the last of a burst of steps once, when they pause', () => {
    const { writes, store, fire, later } = setup();
    for (let s = 1; s <= 40; s++) later.note('/v/a', { layer: 'c', session: s });
    expect(writes).toEqual([]);
    fire();
    expect(writes).toHaveLength(1);
    expect(recall(store, '/v/a')).toEqual({ layer: 'c', session: 40 });
    fire();
    expect(writes).toHaveLength(1);
  });

  it('flush() writes what is pending at once (page hidden, unloaded, read back), and nothing twice', () => {
    const { writes, store, fire, later } = setup();
    later.note('/v/a', { layer: 'c', session: 3 });
    later.flush();
    expect(recall(store, '/v/a')).toEqual({ layer: 'c', session: 3 });
    fire();
    later.flush();
    expect(writes).toHaveLength(1);
  });

  it("another vault's session does not drop the pending one", () => {
    const { store, fire, later } = setup();
    later.note('/v/a', { layer: 'c', session: 3 });
    later.note('/v/b', { layer: 'd', session: null });
    expect(recall(store, '/v/a')).toEqual({ layer: 'c', session: 3 });
    fire();
    expect(recall(store, '/v/b')).toEqual({ layer: 'd', session: null });
  });
});
