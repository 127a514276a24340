import { describe, expect, it } from 'vitest';
import { layoutOptions } from './layout.js';

describe('layoutOptions', () => {
  it('fcose without animation or its own fit (the controller fits on node bodies: cheap on big graphs)', () => {
    for (const n of [10, 1000, 5000]) {
      const o = layoutOptions(n, {}, () => true);
      expect(o).toMatchObject({ name: 'fcose', animate: false, fit: false });
      expect(o.fixedNodeConstraint).toBeUndefined();
    }
  });

  it('draft quality and fewer iterations as the graph grows', () => {
    expect(layoutOptions(100, {}, () => true).quality).toBe('default');
    expect(layoutOptions(1000, {}, () => true).quality).toBe('draft');
    expect(layoutOptions(5000, {}, () => true).numIter).toBeLessThan(layoutOptions(1000, {}, () => true).numIter as number);
  });

  it('pins present on the canvas become fixed constraints; absent ones are left out', () => {
    const o = layoutOptions(3, { a: { x: 1, y: 2 }, gone: { x: 0, y: 0 } }, (id) => id !== 'gone');
    expect(o.fixedNodeConstraint).toEqual([{ nodeId: 'a', position: { x: 1, y: 2 } }]);
  });
});

describe('quickPlace', () => {
  it('gives every node its own spot, at least a node apart (coincident edge ends made Cytoscape warn "invalid endpoints")', async () => {
    const { quickPlace } = await import('./layout.js');
    const pts = Array.from({ length: 2000 }, (_, k) => quickPlace(k));
    let min = Infinity;
    for (let i = 0; i < 300; i++) for (let j = i + 1; j < 300; j++) min = Math.min(min, Math.hypot(pts[i]!.x - pts[j]!.x, pts[i]!.y - pts[j]!.y));
    expect(min).toBeGreaterThan(20);
    expect(new Set(pts.map((p) => `${Math.round(p.x)},${Math.round(p.y)}`)).size).toBe(2000);
  });
});

describe('componentStart', () => {
  it('puts each connected component in its own disc, every node on its own spot, the biggest at the centre', async () => {
    const { componentStart } = await import('./layout.js');
    // a 30-node path, a 10-node path, 5 isolated nodes; ids interleaved
    const comp = (i: number) => (i % 3 === 0 && i < 90 ? 0 : i % 3 === 1 && i < 30 ? 1 : 2);
    const n = 95, edges: number[] = [];
    const byComp: number[][] = [[], [], []];
    for (let i = 0; i < n; i++) byComp[comp(i)]!.push(i);
    for (const c of [0, 1]) for (let k = 1; k < byComp[c]!.length; k++) edges.push(byComp[c]![k - 1]!, byComp[c]![k]!);
    const p = componentStart(n, Uint32Array.from(edges), 10);
    expect(p).toEqual(componentStart(n, Uint32Array.from(edges), 10));
    expect([...p].every(Number.isFinite)).toBe(true);
    const pts = Array.from({ length: n }, (_, i) => ({ x: p[2 * i]!, y: p[2 * i + 1]! }));
    const disc = (m: number[]) => {
      const cx = m.reduce((s, i) => s + pts[i]!.x, 0) / m.length, cy = m.reduce((s, i) => s + pts[i]!.y, 0) / m.length;
      return { cx, cy, r: Math.max(...m.map((i) => Math.hypot(pts[i]!.x - cx, pts[i]!.y - cy))) };
    };
    const a = disc(byComp[0]!), b = disc(byComp[1]!);
    expect(Math.hypot(a.cx, a.cy)).toBeLessThan(10);
    expect(Math.hypot(a.cx - b.cx, a.cy - b.cy)).toBeGreaterThan(a.r + b.r);
    let min = Infinity;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) min = Math.min(min, Math.hypot(pts[i]!.x - pts[j]!.x, pts[i]!.y - pts[j]!.y));
    expect(min).toBeGreaterThan(3);
  });
});
