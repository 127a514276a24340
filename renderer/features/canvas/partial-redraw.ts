/**
 * Dirty-rectangle redraws of the scrub layer (Cytoscape's drag-layer canvas).
 * A scrubber step changes a handful of the ~1,000 elements on that layer, but
 * Cytoscape clears and redraws the whole canvas for any change on it. Here a
 * step's redraw clears only the boxes of what changed (before and after the
 * change, snapped out to whole pixels), clips to them and redraws only the
 * layer's elements that meet them, in their usual order: the same pixels,
 * for the cost of the few elements involved.
 *
 * Anything else that asks for a redraw (a viewport change, a drag, a
 * selection, a resize, an element outside the layer) makes the next draw of
 * the layer a full one, as Cytoscape would do it. Needs the canvas renderer's
 * internals (`data.contexts`, `DRAG`, `drawCachedElements`, `redrawHint`);
 * without them nothing is installed and every redraw is full.
 */
import type { Core as Cy, SingularElementArgument } from 'cytoscape';

export interface Box { x1: number; y1: number; x2: number; y2: number }

/** screen pixels added around each dirty box (antialiasing, outlines) */
const PAD_PX = 2;

/** Whether `a` meets any of `boxes` (model coordinates). */
export function meetsAny(a: Box, boxes: readonly Box[]): boolean {
  for (const b of boxes) if (a.x1 <= b.x2 && b.x1 <= a.x2 && a.y1 <= b.y2 && b.y1 <= a.y2) return true;
  return false;
}

/**
 * Boxes in screen pixels from model boxes under the transform (scale `k`,
 * offset `ox`, `oy`), snapped outward to whole pixels and padded; nearby
 * boxes are not merged (a step's changes are few and scattered).
 */
export function screenRects(boxes: readonly Box[], k: number, ox: number, oy: number, pad = PAD_PX): Array<[number, number, number, number]> {
  return boxes.map((b) => {
    const x1 = Math.floor(b.x1 * k + ox) - pad, y1 = Math.floor(b.y1 * k + oy) - pad;
    const x2 = Math.ceil(b.x2 * k + ox) + pad, y2 = Math.ceil(b.y2 * k + oy) + pad;
    return [x1, y1, x2 - x1, y2 - y1];
  });
}

type Ele = SingularElementArgument;
interface Renderer {
  notify(name: string, eles?: ArrayLike<Ele>): void;
  DRAG: number;
  data: { contexts: CanvasRenderingContext2D[] };
  canvasWidth: number; canvasHeight: number;
  redrawHint(group: string, on: boolean): void;
  drawCachedElements(ctx: CanvasRenderingContext2D, eles: Ele[], pxRatio: number, extent: unknown): void;
  drawCachedNodes(ctx: CanvasRenderingContext2D, eles: Ele[], pxRatio: number, extent: unknown): void;
}

export interface PartialRedraw {
  /**
   * Run `change` (one batch of element updates, all on the scrub layer) so
   * that the redraw it asks for repaints only what changed: `touched` are the
   * elements changed or about to be removed (their boxes are taken now),
   * `after()` the elements whose new boxes count once the change is drawn.
   */
  step(touched: Ele[], change: () => void, after: () => Ele[]): void;
  /** redraws of the layer done partially / fully, and the elements the partial ones drew */
  readonly stats: { partial: number; full: number; drawn: number; changed: number; boxes: number };
}

type Styled = { pstyle(k: string): { strValue?: string; pfValue?: number; value?: unknown } };

/**
 * Whether Cytoscape may draw `el`'s label at `zoom`: it skips labels smaller
 * on screen than min-zoomed-font-size, testing a zoom rounded up to a power
 * of two (so this says yes from half that zoom on: a label drawn is never missed).
 */
function labelMayShow(el: Ele, zoom: number): boolean {
  const ps = (k: string) => (el as unknown as Styled).pstyle(k);
  if (!String(ps('label').strValue ?? '')) return false;
  return Number(ps('font-size').pfValue) * zoom * 2 >= Number(ps('min-zoomed-font-size').pfValue ?? 0);
}

/** `el`'s box (model units), its label's only where it may be drawn; null when it covers nothing. */
function boxOf(el: Ele, zoom: number): Box | null {
  if (el.removed()) return null;
  const b = el.boundingBox({ includeLabels: labelMayShow(el, zoom) } as never);
  return b.w > 0 && b.h > 0 ? { x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2 } : null;
}

/**
 * A straight segment from `a` to `b` as boxes of about `step` along it,
 * widened by `pad` on every side: a long diagonal edge dirties a thin band,
 * not the box of the whole graph it crosses.
 */
export function segmentBoxes(a: { x: number; y: number }, b: { x: number; y: number }, pad: number, step: number): Box[] {
  const n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / Math.max(step, 1e-6)));
  const out: Box[] = [];
  for (let i = 0; i < n; i++) {
    const x1 = a.x + ((b.x - a.x) * i) / n, y1 = a.y + ((b.y - a.y) * i) / n;
    const x2 = a.x + ((b.x - a.x) * (i + 1)) / n, y2 = a.y + ((b.y - a.y) * (i + 1)) / n;
    out.push({ x1: Math.min(x1, x2) - pad, y1: Math.min(y1, y2) - pad, x2: Math.max(x1, x2) + pad, y2: Math.max(y1, y2) + pad });
  }
  return out;
}

/** Whether the segment `a`-`b`, widened by `pad`, meets `box` (Liang-Barsky clipping against the grown box). */
export function segmentMeets(a: { x: number; y: number }, b: { x: number; y: number }, pad: number, box: Box): boolean {
  const x1 = box.x1 - pad, y1 = box.y1 - pad, x2 = box.x2 + pad, y2 = box.y2 + pad;
  const dx = b.x - a.x, dy = b.y - a.y;
  let t0 = 0, t1 = 1;
  const edge = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const t = q / p;
    if (p < 0) { if (t > t1) return false; if (t > t0) t0 = t; } else { if (t < t0) return false; if (t < t1) t1 = t; }
    return true;
  };
  return edge(-dx, a.x - x1) && edge(dx, x2 - a.x) && edge(-dy, a.y - y1) && edge(dy, y2 - a.y) && t0 <= t1;
}

/** screen pixels per box along a straight edge */
const SEGMENT_PX = 32;

/** An unlabelled straight edge as its segment (centre to centre) and a half-width that covers its line and arrow; else null. */
function lineOf(el: Ele): { a: { x: number; y: number }; b: { x: number; y: number }; pad: number } | null {
  if (!el.isEdge()) return null;
  // pstyle: the parsed style Cytoscape draws with (not in its typings)
  const ps = (k: string) => (el as unknown as Styled).pstyle(k);
  const curve = String(ps('curve-style').strValue);
  if ((curve !== 'haystack' && curve !== 'straight') || String(ps('label').strValue ?? '')) return null;
  const arrow = ps('target-arrow-shape').strValue !== 'none' || ps('source-arrow-shape').strValue !== 'none';
  return { a: el.source().position(), b: el.target().position(), pad: Number(ps('width').pfValue) + (arrow ? 12 : 2) };
}

/**
 * Model units around a changed node where its edges' ends change: an edge
 * ends at the node's border, and an arrowhead (Cytoscape: 12 x arrow-scale
 * 0.7 for the widths here) moves with it when the border's width changes.
 */
export const NODE_END_MARGIN = 12;

/** The boxes an element covers: its bounding box (a node's with its edges' ends), or a band of boxes along an unlabelled straight edge. */
function boxesOf(el: Ele, zoom: number): Box[] {
  if (el.removed()) return [];
  const line = lineOf(el);
  if (line) return segmentBoxes(line.a, line.b, line.pad, SEGMENT_PX / zoom);
  const b = boxOf(el, zoom);
  if (!b) return [];
  const m = el.isNode() ? NODE_END_MARGIN : 0;
  return [{ x1: b.x1 - m, y1: b.y1 - m, x2: b.x2 + m, y2: b.y2 + m }];
}

/** Whether `el` draws anything inside `boxes`. */
function meets(el: Ele, boxes: readonly Box[], zoom: number): boolean {
  const b = boxOf(el, zoom);
  if (!b || !meetsAny(b, boxes)) return false;
  const line = lineOf(el);
  if (!line) return true;
  for (const box of boxes) if (segmentMeets(line.a, line.b, line.pad, box)) return true;
  return false;
}

export function installPartialRedraw(cy: Cy): PartialRedraw | null {
  const r = (cy as unknown as { renderer?(): Renderer }).renderer?.();
  const ctx = r?.data?.contexts?.[r.DRAG];
  if (!r || !ctx || typeof r.drawCachedElements !== 'function' || typeof r.drawCachedNodes !== 'function' || typeof r.redrawHint !== 'function') return null;
  const stats = { partial: 0, full: 0, drawn: 0, changed: 0, boxes: 0 };
  /** the layer as last drawn is still right apart from `dirty` (false: the next draw is full) */
  let valid = false;
  let stepping = false;
  const dirty: Box[] = [];
  /** what the steps not yet drawn change, with the edges of changed nodes (their ends follow a node's border): their notifications are the step's */
  const pending = new Set<Ele>();
  const pendingAfter: Array<() => Ele[]> = [];
  /** the viewport the layer was last drawn at: any change draws it whole */
  let drawnAt = '';
  /** set by the clear of a partial draw, read by the draw that follows it */
  let partialNow = false;
  const viewKey = () => { const p = cy.pan(); return `${cy.zoom()} ${p.x} ${p.y} ${r.canvasWidth} ${r.canvasHeight}`; };

  // the notifications a step's change sends later (Cytoscape applies styles lazily, at the next frame,
  // and reports the changed bounds then) are the step's own
  const notify = r.notify;
  r.notify = function (name: string, eles?: ArrayLike<Ele>) {
    let ours = !stepping && pending.size > 0 && name !== 'viewport' && !!eles && eles.length > 0;
    for (let i = 0; ours && i < eles!.length; i++) ours = pending.has(eles![i]!);
    if (!ours) return notify.call(r, name, eles);
    stepping = true;
    try { notify.call(r, name, eles); } finally { stepping = false; }
  };
  const hint = r.redrawHint;
  r.redrawHint = function (group: string, on: boolean) {
    if (on && !stepping && group !== 'select') valid = false;
    hint.call(r, group, on);
  };
  const clear = ctx.clearRect;
  ctx.clearRect = function (x: number, y: number, w: number, h: number) {
    // Cytoscape clears the whole layer (identity transform) right before drawing it
    const whole = x === 0 && y === 0 && w === r.canvasWidth && h === r.canvasHeight;
    if (whole && valid && viewKey() === drawnAt) { partialNow = true; return; }
    partialNow = false;
    clear.call(ctx, x, y, w, h);
  };
  const draw = (orig: Renderer['drawCachedElements']) => function (this: Renderer, c: CanvasRenderingContext2D, eles: Ele[], pxRatio: number, extent: unknown) {
    if (c !== ctx) return orig.call(this, c, eles, pxRatio, extent);
    const partial = partialNow;
    partialNow = false;
    if (!partial) {
      orig.call(this, c, eles, pxRatio, extent);
      stats.full++;
    } else {
      const z = cy.zoom();
      for (const f of pendingAfter) for (const el of f()) dirty.push(...boxesOf(el, z));
      const t = c.getTransform();
      const rects = screenRects(dirty, t.a, t.e, t.f);
      const inv = 1 / t.a;
      const model = rects.map(([x, y, w, h]) => ({ x1: (x - t.e) * inv, y1: (y - t.f) * inv, x2: (x + w - t.e) * inv, y2: (y + h - t.f) * inv }));
      const some = eles.filter((el) => meets(el, model, z));
      c.save();
      c.setTransform(1, 0, 0, 1, 0, 0);
      c.beginPath();
      for (const [x, y, w, h] of rects) { clear.call(c, x, y, w, h); c.rect(x, y, w, h); }
      c.clip();
      c.setTransform(t);
      if (rects.length) orig.call(this, c, some, pxRatio, extent);
      c.restore();
      stats.partial++;
      stats.drawn += some.length;
      stats.boxes += rects.length;
    }
    dirty.length = 0;
    pendingAfter.length = 0;
    pending.clear();
    drawnAt = viewKey();
    valid = true;
  };
  r.drawCachedElements = draw(r.drawCachedElements);
  r.drawCachedNodes = draw(r.drawCachedNodes);

  return {
    stats,
    step(touched, change, after) {
      stats.changed += touched.length;
      const withEdges = new Set<Ele>(touched);
      for (const el of touched) if (el.isNode()) el.connectedEdges().forEach((e) => { withEdges.add(e); });
      // a node's edges end at its border: what of them changes lies within the node's own box
      if (valid) { const z = cy.zoom(); for (const el of touched) dirty.push(...boxesOf(el, z)); }
      stepping = true;
      try { change(); } finally { stepping = false; }
      if (!valid) return;
      const now = after();
      for (const el of withEdges) pending.add(el);
      for (const el of now) pending.add(el);
      pendingAfter.push(() => now.filter((el) => !el.removed()));
    },
  };
}
