import { describe, expect, it } from 'vitest';
import { installHairlineBatch, labelBox, LABEL_FONT_SLACK, LABEL_MODEL_FONT, LABEL_OUTLINE, LABEL_PX, labelFont, pickLabelFont, placeLabels, type LabelCandidate, type LabelSpot } from './lod.js';

/** the box placeLabels must keep free of other labels: Cytoscape's label bounds at `zoom` (without the gap), below or above the node */
function box(n: LabelCandidate, zoom: number, spot: LabelSpot = 'below'): [number, number, number, number] {
  const f = labelFont(zoom), w = Math.ceil(n.width * f), g = LABEL_OUTLINE + 2;
  const [x1, y1, x2, y2] = labelBox(n, w, f, spot);
  return [x1 - g, y1 - g, x2 + g, y2 + g];
}
const overlap = (a: number[], b: number[]) => a[0]! < b[2]! && b[0]! < a[2]! && a[1]! < b[3]! && b[1]! < a[3]!;

/** a deterministic scatter of `n` nodes over a square, with importances */
function scatter(n: number, side: number): LabelCandidate[] {
  let s = 7;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, (_, i) => ({ id: `n${i}`, x: rnd() * side, y: rnd() * side, size: 8 + rnd() * 16, width: 3 + rnd() * 5, rank: rnd() }));
}

describe('labelFont', () => {
  it('keeps shown labels LABEL_PX high on screen when zoomed out, the stylesheet size (9) once that is bigger', () => {
    expect(labelFont(0.25) * 0.25).toBeCloseTo(LABEL_PX);
    expect(labelFont(1)).toBe(LABEL_PX);
    expect(labelFont(3)).toBe(9);
  });
});

describe('pickLabelFont', () => {
  it('keeps the shown size over a small change of zoom, takes labelFont(zoom) past LABEL_FONT_SLACK or without one', () => {
    expect(pickLabelFont(0.5)).toBe(labelFont(0.5));
    const prev = labelFont(0.5);
    // a fit with less padding, a wheel step back: the same size, ~LABEL_PX on screen
    expect(pickLabelFont(0.5 * 1.07, prev)).toBe(prev);
    expect(pickLabelFont(0.5 / 1.07, prev)).toBe(prev);
    // a real zoom: the new size
    expect(pickLabelFont(0.5 * 1.2, prev)).toBe(labelFont(0.6));
    expect(pickLabelFont(0.5 / 1.2, prev)).toBe(labelFont(0.5 / 1.2));
    // on screen within the slack of LABEL_PX whatever the zoom, and the stylesheet size once zoomed in
    for (let z = 0.05; z < 4; z *= 1.03) {
      for (const p of [labelFont(z * 1.09), labelFont(z / 1.09), labelFont(z * 1.5), labelFont(z / 1.5)]) {
        const f = pickLabelFont(z, p);
        expect(f / labelFont(z)).toBeLessThanOrEqual(LABEL_FONT_SLACK + 1e-9);
        expect(f / labelFont(z)).toBeGreaterThanOrEqual(1 / LABEL_FONT_SLACK - 1e-9);
        expect(f).toBeGreaterThanOrEqual(LABEL_MODEL_FONT);
      }
    }
    expect(pickLabelFont(3, LABEL_MODEL_FONT)).toBe(LABEL_MODEL_FONT);
  });

  it('placeLabels with a kept size keeps its boxes apart at that size', () => {
    const nodes = scatter(1500, 2500);
    const zoom = 0.5, font = labelFont(zoom * 1.08);
    const kept = placeLabels(nodes, zoom, font);
    const boxes = nodes.filter((n) => kept.has(n.id)).map((n) => {
      const w = Math.ceil(n.width * font), g = LABEL_OUTLINE + 2;
      const [x1, y1, x2, y2] = labelBox(n, w, font, kept.get(n.id)!);
      return [x1 - g, y1 - g, x2 + g, y2 + g];
    });
    let clashes = 0;
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (overlap(boxes[i]!, boxes[j]!)) clashes++;
    expect(boxes.length).toBeGreaterThan(10);
    expect(clashes).toBe(0);
  });
});

describe('placeLabels', () => {
  it('of two nodes whose labels collide below, the more important keeps that spot, the other goes above; all below when apart', () => {
    const a = { id: 'a', x: 0, y: 0, size: 10, width: 5, rank: 0.2 };
    const b = { id: 'b', x: 5, y: 2, size: 10, width: 4, rank: 0.9 };
    expect([...placeLabels([a, b], 1)]).toEqual([['b', 'below'], ['a', 'above']]);
    expect([...placeLabels([{ ...a, rank: 1 }, b], 1)]).toEqual([['a', 'below'], ['b', 'above']]);
    expect([...placeLabels([a, { ...b, y: 60 }], 1)].sort()).toEqual([['a', 'below'], ['b', 'below']]);
  });

  it('a label with no free spot is not drawn', () => {
    // three nodes on one spot: below and above taken by the first two, right and left meet those labels' boxes
    const at = (id: string, rank: number) => ({ id, x: 0, y: 0, size: 10, width: 1, rank });
    expect([...placeLabels([at('a', 3), at('b', 2), at('c', 1)], 1)]).toEqual([['a', 'below'], ['b', 'above']]);
    // a node alone left of a labelled pair of nodes: its spots below and above are taken, its right side is theirs, left is free
    const pair = [at('a', 3), at('b', 2)];
    const c = { id: 'c', x: -30, y: 0, size: 10, width: 1, rank: 1 };
    expect(placeLabels([...pair, c], 1).get('c')).toBe('left');
  });

  it('zoomed out, labels keep their screen size, so fewer fit: two labels apart at zoom 1 collide at zoom 0.3', () => {
    const a = { id: 'a', x: 0, y: 0, size: 10, width: 5, rank: 1 };
    const b = { id: 'b', x: 0, y: 40, size: 10, width: 5, rank: 0 };
    expect(placeLabels([a, b], 1).size).toBe(2);
    expect([...placeLabels([a, b], 0.3).keys()]).toEqual(['a']);
  });

  it('over thousands of nodes at several zooms: no two kept boxes overlap, the most important is always kept, and every dropped label collides with a more important kept one', () => {
    const nodes = scatter(2000, 2500);
    for (const zoom of [0.2, 0.5, 1, 2]) {
      const kept = placeLabels(nodes, zoom);
      const boxes = nodes.filter((n) => kept.has(n.id)).map((n) => box(n, zoom, kept.get(n.id)));
      let clashes = 0;
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (overlap(boxes[i]!, boxes[j]!)) clashes++;
      expect(clashes).toBe(0);
      const top = nodes.reduce((m, n) => (n.rank > m.rank ? n : m));
      expect(kept.has(top.id)).toBe(true);
      // greedy: a dropped label was blocked at every spot by ones ranked higher (the gap widens the box it needs)
      const pad = (b: number[]) => [b[0]! - 6 / zoom, b[1]! - 2 / zoom, b[2]! + 6 / zoom, b[3]! + 2 / zoom];
      const blocked = (n: LabelCandidate, spot: LabelSpot) => nodes.some((m) => kept.has(m.id) && m.rank > n.rank && overlap(pad(box(n, zoom, spot)), pad(box(m, zoom, kept.get(m.id)))));
      const unblocked = nodes.filter((n) => !kept.has(n.id)).filter((n) => (['below', 'above', 'right', 'left'] as const).some((spot) => !blocked(n, spot)));
      expect(unblocked).toEqual([]);
      expect(kept.size).toBeGreaterThan(0);
    }
    // every spot is used somewhere
    expect(new Set(placeLabels(nodes, 0.5).values())).toEqual(new Set(['below', 'above', 'right', 'left']));
    // zooming in makes room: more labels fit
    expect(placeLabels(nodes, 2).size).toBeGreaterThan(placeLabels(nodes, 0.5).size);
  });
});

describe('installHairlineBatch', () => {
  /** a recording 2D context and fake elements shaped like Cytoscape's */
  function setup() {
    const calls: string[] = [];
    const ctx = new Proxy({}, {
      get: (_t, k: string) => (k === 'setLineDash' || k === 'beginPath' || k === 'stroke' || k === 'moveTo' || k === 'lineTo')
        ? (...a: unknown[]) => { calls.push(`${k}(${a.join(',')})`); } : undefined,
      set: (_t, k: string, v) => { calls.push(`${k}=${String(v)}`); return true; },
    }) as unknown as CanvasRenderingContext2D;
    const styles = (over: Record<string, unknown> = {}) => ({
      'line-style': 'solid', 'line-fill': 'solid', 'target-arrow-shape': 'none', 'source-arrow-shape': 'none', 'mid-target-arrow-shape': 'none',
      'mid-source-arrow-shape': 'none', label: '', 'source-label': '', 'target-label': '', 'overlay-opacity': 0, 'underlay-opacity': 0,
      'line-outline-width': 0, 'line-color': [154, 163, 173], opacity: 1, 'line-opacity': 1, width: 0.6, 'line-cap': 'butt', ...over,
    });
    const edge = (id: string, pts: number[], over?: Record<string, unknown>) => {
      const st = styles(over);
      return {
        id, isEdge: () => true, visible: () => true,
        boundingBox: () => ({ x1: Math.min(pts[0]!, pts[2]!), y1: Math.min(pts[1]!, pts[3]!), x2: Math.max(pts[0]!, pts[2]!), y2: Math.max(pts[1]!, pts[3]!), w: 1, h: 1 }),
        pstyle: (k: string) => ({ value: st[k as keyof typeof st], pfValue: st[k as keyof typeof st], strValue: st[k as keyof typeof st] }),
        _private: { rscratch: { edgeType: 'haystack', allpts: pts } },
      };
    };
    const node = (id: string) => ({ id, isEdge: () => false });
    let direct = true;
    const drawn: string[] = [];
    const r: { drawCachedElements(c: unknown, eles: ArrayLike<{ id: string }>, px: number, extent: object): void; drawCachedElement(c: unknown, e: { id: string }): void } = {
      drawCachedElements(_c: unknown, eles: ArrayLike<{ id: string }>) { for (let i = 0; i < eles.length; i++) drawn.push(`own:${eles[i]!.id}`); },
      drawCachedElement(_c: unknown, e: { id: string }) { drawn.push(e.id); },
    };
    expect(installHairlineBatch(r, () => direct)).toBe(true);
    return { r, ctx, calls, drawn, edge, node, off: () => { direct = false; } };
  }
  const extent = { x1: -100, y1: -100, x2: 100, y2: 100 };

  it('one path and one stroke for a run of plain hairlines; anything else drawn by Cytoscape, in paint order', () => {
    const { r, ctx, calls, drawn, edge, node } = setup();
    const eles = [edge('e1', [0, 0, 10, 10]), edge('e2', [5, 5, 20, 0]), edge('arrow', [1, 1, 2, 2], { 'target-arrow-shape': 'triangle' }),
      edge('e3', [0, 0, 1, 1]), edge('far', [500, 500, 600, 600]), node('n1')];
    r.drawCachedElements(ctx, eles as never, 1, extent);
    expect(drawn).toEqual(['arrow', 'n1']);
    expect(calls.filter((c) => c === 'stroke()')).toHaveLength(2);
    expect(calls).toContain('moveTo(5,5)');
    expect(calls.some((c) => c.startsWith('moveTo(500'))).toBe(false);
    // the first run (e1, e2) is stroked before the arrowed edge is drawn: order kept
    expect(calls.join(' ')).toMatch(/moveTo\(0,0\) lineTo\(10,10\) moveTo\(5,5\) lineTo\(20,0\) lineWidth=0.6 .*strokeStyle=rgba\(154,163,173,1\) setLineDash\(\) stroke\(\)/);
  });

  it('edges of another colour or width start a new run; off, Cytoscape draws everything itself', () => {
    const { r, ctx, calls, drawn, edge, off } = setup();
    r.drawCachedElements(ctx, [edge('a', [0, 0, 1, 1]), edge('b', [0, 0, 2, 2], { 'line-color': [0, 0, 0] }), edge('c', [0, 0, 3, 3])] as never, 1, extent);
    expect(calls.filter((c) => c === 'stroke()')).toHaveLength(3);
    expect(drawn).toEqual([]);
    off();
    r.drawCachedElements(ctx, [edge('a', [0, 0, 1, 1])] as never, 1, extent);
    expect(drawn).toEqual(['own:a']);
  });
});
