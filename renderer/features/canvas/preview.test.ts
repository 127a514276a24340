import { describe, expect, it } from 'vitest';
import type { CanvasElements } from './elements.js';
import { quickPlace } from './layout.js';
import { dotPaint, fitView, sameLayoutInput, startLayoutInput, startPlaces, wellInView } from './preview.js';

function els(n: number): CanvasElements {
  const nodes = Array.from({ length: n }, (_, i) => ({
    group: 'nodes' as const, classes: 'note status-normal big',
    data: { id: `n${i}`, label: `N${i}`, type: 't', layer: 'world', color: '#3b6ea5', shape: 'ellipse', icon: '', iconUrl: '', size: 16 + (i % 3), placeholder: false, status: 'normal' as const, note: '', struck: '', importance: 0 },
  }));
  const edges = Array.from({ length: n - 1 }, (_, i) => ({
    group: 'edges' as const, classes: 'rel status-normal big',
    data: { id: `e${i}`, source: `n${i}`, target: `n${i + 1}`, type: 'KNOWS', label: '', symmetric: false, status: 'normal' as const },
  }));
  return { nodes, edges };
}

describe('preview', () => {
  it('starts nodes where apply() puts them on an empty canvas: a pin, a saved place, else the spiral numbered over the unplaced', () => {
    const at = startPlaces(els(5).nodes, { n1: { x: 1, y: 2 } }, { n1: { x: 9, y: 9 }, n3: { x: 3, y: 4 } });
    expect(at).toEqual([quickPlace(0), { x: 1, y: 2 }, quickPlace(1), { x: 3, y: 4 }, quickPlace(2)]);
  });

  it('fits like Cytoscape: padding, the tighter side, centred, the zoom clamped', () => {
    const v = fitView({ x1: -100, y1: -50, x2: 100, y2: 50 }, 460, 400, 30, 0.02, 4);
    expect(v.zoom).toBeCloseTo(2, 12);
    expect(v.pan).toEqual({ x: 230, y: 200 });
    expect(fitView({ x1: 0, y1: 0, x2: 1, y2: 1 }, 800, 600, 30, 0.02, 4).zoom).toBe(4);
  });

  it('a point is well in view only with the margin to spare on every side (a selection there is not centred)', () => {
    expect(wellInView({ x: 400, y: 300 }, 800, 600, 40)).toBe(true);
    expect(wellInView({ x: 40, y: 40 }, 800, 600, 40)).toBe(true);
    expect(wellInView({ x: 760, y: 560 }, 800, 600, 40)).toBe(true);
    for (const p of [{ x: 39, y: 300 }, { x: 761, y: 300 }, { x: 400, y: 39 }, { x: 400, y: 561 }, { x: -500, y: 300 }, { x: 400, y: 9000 }]) {
      expect(wellInView(p, 800, 600, 40)).toBe(false);
    }
  });

  it('paints a node as the stylesheet does by its timeline status', () => {
    expect(dotPaint('#123456', 'note status-normal big')).toEqual({ fill: '#123456', alpha: 1 });
    expect(dotPaint('#123456', 'note status-dead big')).toEqual({ fill: '#4b5563', alpha: 1 });
    expect(dotPaint('#123456', 'note status-destroyed big')).toEqual({ fill: '#7f1d1d', alpha: 0.55 });
    expect(dotPaint('#123456', 'note status-not-yet-created big')).toEqual({ fill: '#123456', alpha: 0.18 });
  });

  it('keeps an early layout only for the same input (nodes, places, sizes, edges, pins)', () => {
    const e = els(6), at = startPlaces(e.nodes, {}, {});
    const a = startLayoutInput(e, at, { n0: { x: 1, y: 1 } });
    const same = () => structuredClone(a);
    expect(sameLayoutInput(a, same())).toBe(true);
    const moved = same(); moved.nodes[2]!.x += 0.001;
    const resized = same(); resized.nodes[0]!.size = 40;
    const renamed = same(); renamed.nodes[5]!.id = 'other';
    const fewer = same(); fewer.nodes.pop();
    const rewired = same(); rewired.edges[1]!.target = 'n0';
    const pinned = same(); pinned.pins = { n0: { x: 1, y: 2 } };
    const unpinned = same(); unpinned.pins = {};
    for (const b of [moved, resized, renamed, fewer, rewired, pinned, unpinned]) expect(sameLayoutInput(a, b)).toBe(false);
  });
});
