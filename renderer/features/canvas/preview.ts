/**
 * A big graph's first picture before Cytoscape's (issue 19.2): the nodes as
 * dots on a plain canvas laid over Cytoscape's, drawn straight from the
 * element list the moment it reaches the controller, then the controller
 * yields a frame before Cytoscape adds and styles thousands of nodes (~2 s
 * of main thread at 6k nodes). It is the same view as Cytoscape's first
 * frame, which replaces it: the same start positions (a pin, a saved place,
 * else the quick spiral, in the same order as the controller's apply()), the
 * same colours by type and timeline status, the same fit (fitView, which
 * fitNodes uses too); edges are held back from that first frame anyway.
 * Shapes other than circles, squares, diamonds and triangles are drawn as circles.
 */
import type { Positions } from '../../../shared/contract-canvas.js';
import type { CanvasElements } from './elements.js';
import { quickPlace } from './layout.js';

export interface View { zoom: number; pan: { x: number; y: number } }
/** a view and the size (CSS pixels) it was fitted in */
export type SizedView = View & { w: number; h: number };
export interface Box { x1: number; y1: number; x2: number; y2: number }

/** Cytoscape's fit of `bb` (model units) in a w x h view, as the controller's fitNodes does it. */
export function fitView(bb: Box, w: number, h: number, padding: number, minZoom: number, maxZoom: number): View {
  const bw = bb.x2 - bb.x1, bh = bb.y2 - bb.y1;
  const zoom = Math.min(maxZoom, Math.max(minZoom, Math.min((w - 2 * padding) / Math.max(bw, 1), (h - 2 * padding) / Math.max(bh, 1))));
  return { zoom, pan: { x: (w - zoom * (bb.x1 + bb.x2)) / 2, y: (h - zoom * (bb.y1 + bb.y2)) / 2 } };
}

/**
 * Whether a point of the view (rendered coordinates) lies inside a w x h view with `margin` to spare on every side:
 * a selected node there is left where it is (CanvasController.reveal), elsewhere the view centres it.
 */
export function wellInView(p: { x: number; y: number }, w: number, h: number, margin: number): boolean {
  return p.x >= margin && p.x <= w - margin && p.y >= margin && p.y <= h - margin;
}

/**
 * Where the first graph's nodes start (pure): a pin, else a saved place, else the quick spiral, numbered
 * over the nodes without either in list order — what apply() gives an empty canvas.
 */
export function startPlaces(nodes: CanvasElements['nodes'], pins: Positions, saved: Positions): Array<{ x: number; y: number }> {
  let unplaced = 0;
  return nodes.map((n) => pins[n.data.id] ?? saved[n.data.id] ?? quickPlace(unplaced++));
}

/** The fill and opacity the stylesheet gives a node of these classes in a big graph's first frame (style.ts). */
export function dotPaint(color: string, classes: string): { fill: string; alpha: number } {
  const has = (c: string) => (` ${classes} `).includes(` ${c} `);
  if (has('status-dead')) return { fill: '#4b5563', alpha: 1 };
  if (has('status-destroyed')) return { fill: '#7f1d1d', alpha: 0.55 };
  if (has('status-not-yet-created')) return { fill: color, alpha: 0.18 };
  if (has('dim')) return { fill: color, alpha: 0.15 };
  return { fill: color, alpha: 1 };
}

function shapePath(p: Path2D, shape: string, x: number, y: number, r: number): void {
  if (shape.includes('rectangle') || shape === 'barrel') { p.rect(x - r, y - r, 2 * r, 2 * r); return; }
  if (shape.includes('diamond')) { p.moveTo(x, y - r); p.lineTo(x + r, y); p.lineTo(x, y + r); p.lineTo(x - r, y); p.closePath(); return; }
  if (shape.includes('triangle')) { p.moveTo(x, y - r); p.lineTo(x + r, y + r); p.lineTo(x - r, y + r); p.closePath(); return; }
  p.moveTo(x + r, y);
  p.arc(x, y, r, 0, 2 * Math.PI);
}

/**
 * Draw `els`'s nodes at `at` onto `canvas` (sized to w x h CSS pixels), fitted as Cytoscape will fit them.
 * Returns the view used. A few thousand dots cost milliseconds.
 */
export function drawPreview(canvas: HTMLCanvasElement, els: CanvasElements, at: ReadonlyArray<{ x: number; y: number }>,
  w: number, h: number, zoomRange: { min: number; max: number }): SizedView | null {
  const nodes = els.nodes;
  if (!nodes.length) return null;
  const bb = { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity };
  nodes.forEach((n, i) => {
    // Cytoscape widens each body's box by 1 ("browser dimension inaccuracies"); a big graph's nodes have no border
    const p = at[i]!, r = n.data.size / 2 + 1;
    bb.x1 = Math.min(bb.x1, p.x - r); bb.x2 = Math.max(bb.x2, p.x + r);
    bb.y1 = Math.min(bb.y1, p.y - r); bb.y2 = Math.max(bb.y2, p.y + r);
  });
  const view = fitView(bb, w, h, 30, zoomRange.min, zoomRange.max);
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(w * ratio));
  canvas.height = Math.max(1, Math.round(h * ratio));
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx) return { ...view, w, h };
  ctx.setTransform(ratio * view.zoom, 0, 0, ratio * view.zoom, ratio * view.pan.x, ratio * view.pan.y);
  // in list order (Cytoscape's draw order for nodes of one z-index), one path per run of the same paint:
  // where start places overlap, the same dot lies on top
  const pinned = new Path2D();
  let anyPinned = false;
  let run: { path: Path2D; key: string; fill: string; alpha: number } | null = null;
  const flush = () => {
    if (!run) return;
    ctx.globalAlpha = run.alpha;
    ctx.fillStyle = run.fill;
    ctx.fill(run.path);
  };
  nodes.forEach((n, i) => {
    const p = at[i]!, r = n.data.size / 2;
    const { fill, alpha } = dotPaint(n.data.color, n.classes);
    const key = `${fill}|${alpha}`;
    if (run?.key !== key) { flush(); run = { path: new Path2D(), key, fill, alpha }; }
    shapePath(run.path, n.data.shape, p.x, p.y, r);
    if ((` ${n.classes} `).includes(' pinned ')) { anyPinned = true; shapePath(pinned, n.data.shape, p.x, p.y, r); }
  });
  flush();
  if (anyPinned) {
    ctx.globalAlpha = 1;
    ctx.strokeStyle = '#111827';
    ctx.lineWidth = 3;
    ctx.stroke(pinned);
  }
  return { ...view, w, h };
}

/** What a full layout starts from (the controller's layoutNodes, layoutEdges and pins). */
export interface LayoutInput {
  nodes: Array<{ id: string; x: number; y: number; size: number }>;
  edges: Array<{ source: string; target: string }>;
  pins: Positions;
}

/** The layout input of a first graph at its start places, as the controller will read it back from Cytoscape. */
export function startLayoutInput(els: CanvasElements, at: ReadonlyArray<{ x: number; y: number }>, pins: Positions): LayoutInput {
  return {
    nodes: els.nodes.map((n, i) => ({ id: n.data.id, x: at[i]!.x, y: at[i]!.y, size: Number(n.data.size) || 20 })),
    edges: els.edges.map((e) => ({ source: e.data.source, target: e.data.target })),
    pins,
  };
}

/** Whether two layout inputs are the same (so the same deterministic layout): a layout started early may be kept. */
export function sameLayoutInput(a: LayoutInput, b: LayoutInput): boolean {
  if (a.nodes.length !== b.nodes.length || a.edges.length !== b.edges.length) return false;
  for (let i = 0; i < a.nodes.length; i++) {
    const p = a.nodes[i]!, q = b.nodes[i]!;
    if (p.id !== q.id || p.x !== q.x || p.y !== q.y || p.size !== q.size) return false;
  }
  for (let i = 0; i < a.edges.length; i++) {
    const p = a.edges[i]!, q = b.edges[i]!;
    if (p.source !== q.source || p.target !== q.target) return false;
  }
  if (a.pins === b.pins) return true;
  const ka = Object.keys(a.pins), kb = Object.keys(b.pins);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => b.pins[k] !== undefined && b.pins[k]!.x === a.pins[k]!.x && b.pins[k]!.y === a.pins[k]!.y);
}
