import { describe, expect, it } from 'vitest';
import { labelStride, labelWidth, recall, remember, shownLabels } from './axis.js';

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
