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
