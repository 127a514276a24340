/**
 * The scrub layer drawn from two kept bitmaps (issue 19 point 1). The scrub layer (controller.ts
 * syncScrubLayer) holds every element that any session changes (~1,000 on the bench's world) and was
 * drawn whole at every step, though a step changes ~15 of them. Here the layer is split in two:
 * - hot: the elements the steps around the scrubber's position change (hotWindow: a few steps behind,
 *   more ahead in the direction of travel);
 * - cold: the rest of the layer, drawn once into two bitmaps of the layer's size (its edges, its nodes),
 *   and blitted at each draw: cold edges, hot edges, cold nodes, hot nodes.
 * So a step draws a few dozen elements and two images. Nodes stay above edges; among the layer's nodes
 * (or edges) the hot ones are drawn above the cold ones (as the whole layer is drawn above the graph).
 *
 * The bitmaps are kept while the view (the context's transform and size) is the same, the layer holds
 * the same cold elements, and no cold element, nor a node at one end of a cold edge, has been notified as
 * changed (noteChanged: the renderer's notifications, which every style, data, position, add or remove goes
 * through). Anything else draws
 * the layer from scratch with a new window around the scrubber (build), as often as once per step
 * when the scrubber outruns the window. Needs the canvas renderer's drawCachedElements and drag context;
 * without them nothing is installed.
 */

/** the part of a Cytoscape element read here */
export interface LayerElement { isNode(): boolean; id(): string }

interface DragRenderer {
  getCachedZSortedEles(): { drag: readonly LayerElement[] };
  drawCachedElements(ctx: CanvasRenderingContext2D, eles: readonly LayerElement[], pxRatio: number, extent: unknown): void;
  data: { contexts: CanvasRenderingContext2D[]; canvasNeedsRedraw?: boolean[] };
  DRAG: number;
}

/**
 * The ids a window of steps changes: `pairs[k]` holds what changes between the overlays k and k + 1 (either
 * way); at overlay `at`, moving in `dir`, the window covers `ahead` steps that way and `behind` the other.
 */
export function hotWindow(pairs: ReadonlyArray<readonly string[]>, at: number, dir: 1 | -1, ahead: number, behind: number): Set<string> {
  const out = new Set<string>();
  const [lo, hi] = windowSteps(at, dir, ahead, behind);
  for (let k = Math.max(0, lo); k <= Math.min(pairs.length - 1, hi); k++) for (const id of pairs[k]!) out.add(id);
  return out;
}

/** the steps (k: overlay k -> k + 1) hotWindow covers: step k is ahead of overlay `at` moving forward if k >= at, moving back if k < at */
export function windowSteps(at: number, dir: 1 | -1, ahead: number, behind: number): [number, number] {
  return dir > 0 ? [at - behind, at + ahead - 1] : [at - ahead, at + behind - 1];
}

/**
 * After a step to overlay `at` moving `dir`: fewer than `margin` of the next steps that way are left in the window `w`
 * (windowSteps, at its last build), so the next window's bitmaps are due (built ahead in idle time). The next steps
 * are at, at + 1, ... forward; at - 1, at - 2, ... back.
 */
export function windowShort(at: number, dir: 1 | -1, w: readonly [number, number], margin: number): boolean {
  return dir > 0 ? at + margin - 1 > w[1] : at - margin < w[0];
}

export interface ScrubCacheMetrics {
  /** draws of the layer from the bitmaps / from scratch (a new window) / whole without bitmaps */
  blits: number; builds: number; whole: number;
  /** bitmaps built ahead in idle time (prebuild), not in a frame */
  prebuilds: number;
  /** how the layer was last drawn */
  last?: 'blit' | 'build' | 'whole';
  /** elements drawn from the bitmaps at the last build, and drawn one by one at the last draw */
  cold: number; hot: number;
}

/** the view a layer bitmap was drawn for: the context's transform and its size */
function viewKey(t: DOMMatrix, w: number, h: number): string {
  return `${t.a},${t.b},${t.c},${t.d},${t.e},${t.f},${w},${h}`;
}

export class ScrubCache {
  readonly metrics: ScrubCacheMetrics = { blits: 0, builds: 0, whole: 0, prebuilds: 0, cold: 0, hot: 0 };
  /** the elements in the bitmaps (null: no valid bitmaps) */
  private cold: Set<LayerElement> | null = null;
  /** the transform and size they were drawn for */
  private key = '';
  private readonly edges = document.createElement('canvas');
  private readonly nodes = document.createElement('canvas');
  private off = false;

  /**
   * hot(): the ids to draw one by one at the next build (null: no window known, the layer is drawn whole).
   */
  constructor(private readonly r: DragRenderer, private readonly hot: () => ReadonlySet<string> | null) {
    const orig = r.drawCachedElements;
    r.drawCachedElements = (ctx, eles, pxRatio, extent) => {
      if (this.off || ctx !== r.data.contexts[r.DRAG]) { orig.call(r, ctx, eles, pxRatio, extent); return; }
      const drawEles: DrawEles = (c, e) => orig.call(r, c, e, pxRatio, extent);
      this.last = { eles, drawEles, t: ctx.getTransform() };
      this.draw(ctx, eles, drawEles);
    };
  }

  /** the last draw of the layer (verify) */
  private last: { eles: readonly LayerElement[]; drawEles: DrawEles; t: DOMMatrix; cold?: ReadonlySet<LayerElement> } | null = null;

  /**
   * Tests (the oracle): the layer as last drawn against the same elements drawn one by one now, in the same
   * split and order (cold edges, hot edges, cold nodes, hot nodes), from bitmaps drawn now: the number of pixels
   * that differ by more than `tolerance` in a (premultiplied) channel. A kept bitmap that missed a change
   * differs. null: the layer was last drawn whole.
   */
  verify(tolerance = 2): { pixels: number; differ: number; max: number; box?: [number, number, number, number] } | null {
    const last = this.last, cold = last?.cold;
    if (!last || !cold) return null;
    const ctx = this.r.data.contexts[this.r.DRAG]!;
    const w = ctx.canvas.width, h = ctx.canvas.height;
    const scratch = document.createElement('canvas');
    scratch.width = w; scratch.height = h;
    const c = scratch.getContext('2d')!;
    c.setTransform(last.t);
    const part = (node: boolean, inCold: boolean) => last.eles.filter((e) => e.isNode() === node && cold.has(e) === inCold);
    // the same composition as draw(), from bitmaps drawn now: only what the kept ones missed differs
    const edges = document.createElement('canvas'), nodes = document.createElement('canvas');
    paint(edges, part(false, true), last.t, w, h, last.drawEles);
    paint(nodes, part(true, true), last.t, w, h, last.drawEles);
    compose(c, edges, nodes, part(false, false), part(true, false), last.drawEles);
    const a = ctx.getImageData(0, 0, w, h).data, b = c.getImageData(0, 0, w, h).data;
    let differ = 0, max = 0, x1 = w, y1 = h, x2 = -1, y2 = -1;
    // compared premultiplied (as drawn): a faint pixel's colour read back unpremultiplied swings with rounding
    for (let i = 0; i < a.length; i += 4) {
      const aa = a[i + 3]!, ba = b[i + 3]!;
      let d = Math.abs(aa - ba);
      for (let k = 0; k < 3 && d <= tolerance; k++) d = Math.max(d, Math.abs(a[i + k]! * aa - b[i + k]! * ba) / 255);
      if (d > tolerance) {
        differ++;
        const x = (i >> 2) % w, y = Math.floor((i >> 2) / w);
        if (x < x1) x1 = x; if (x > x2) x2 = x; if (y < y1) y1 = y; if (y > y2) y2 = y;
      }
      if (d > max) max = d;
    }
    // where they differ (canvas pixels), to name the elements drawn there
    return { pixels: w * h, differ, max: Math.round(max), ...(differ ? { box: [x1, y1, x2, y2] as [number, number, number, number] } : {}) };
  }

  static install(r: unknown, hot: () => ReadonlySet<string> | null): ScrubCache | null {
    const rr = r as Partial<DragRenderer> | null;
    if (!rr || typeof rr.drawCachedElements !== 'function' || typeof rr.getCachedZSortedEles !== 'function' || !rr.data?.contexts || typeof rr.DRAG !== 'number') return null;
    return new ScrubCache(rr as DragRenderer, hot);
  }

  /** the bitmaps are dropped: the next draw builds them again */
  invalidate(): void { this.cold = null; }

  /** tests: draw the layer whole, as Cytoscape does, while off */
  setOff(off: boolean): void { this.off = off; this.cold = null; }

  /**
   * The renderer was notified of `name` about `eles` (none: about anything): bitmaps holding one of them are
   * dropped. A viewport change (the bitmaps are kept per view), a collection of garbage or a plain request to
   * draw (an animation's frame, of the viewport here) changes no element's look.
   */
  noteChanged(name: string, eles: ArrayLike<unknown> | undefined): void {
    const cold = this.cold;
    if (!cold || name === 'viewport' || name === 'gc') return;
    if (!eles || !eles.length) { if (name !== 'draw') this.cold = null; return; }
    for (let i = 0; i < eles.length; i++) {
      const e = eles[i] as LayerElement & { connectedEdges?(): ArrayLike<unknown> };
      if (cold.has(e)) { this.cold = null; return; }
      // a node's restyle moves its edges' ends (size, border): Cytoscape recomputes them without a notification
      if (!e.isNode() || !e.connectedEdges) continue;
      const edges = e.connectedEdges();
      for (let k = 0; k < edges.length; k++) if (cold.has(edges[k] as LayerElement)) { this.cold = null; return; }
    }
  }

  /** the bitmaps of `eles` but the `hot` ids, for the transform `t` and a w x h layer; the hot ones go to hotEdges / hotNodes */
  private build(eles: readonly LayerElement[], hot: ReadonlySet<string>, t: DOMMatrix, w: number, h: number, drawEles: DrawEles,
    hotEdges: LayerElement[] = [], hotNodes: LayerElement[] = []): void {
    const cold = new Set<LayerElement>();
    const coldEdges: LayerElement[] = [], coldNodes: LayerElement[] = [];
    for (const e of eles) {
      const node = e.isNode();
      if (hot.has(e.id())) (node ? hotNodes : hotEdges).push(e);
      else { cold.add(e); (node ? coldNodes : coldEdges).push(e); }
    }
    paint(this.edges, coldEdges, t, w, h, drawEles);
    paint(this.nodes, coldNodes, t, w, h, drawEles);
    this.cold = cold;
    this.metrics.cold = cold.size;
  }

  private pending = 0;

  /**
   * New bitmaps (a new window: hot() asked again) in idle time, ahead of the step that would need them, so that
   * step's frame does not draw the cold part; the layer is not drawn. Skipped while a draw is due (it builds
   * what it needs itself) or when the view changed since the last draw.
   */
  prebuild(): void {
    if (this.pending || this.off || !this.last) return;
    const ric = typeof requestIdleCallback === 'function'
      ? (f: () => void) => requestIdleCallback(f, { timeout: 300 }) : (f: () => void) => setTimeout(f, 0) as unknown as number;
    this.pending = ric(() => {
      this.pending = 0;
      const last = this.last, r = this.r;
      if (!last || this.off || !this.cold) return;
      if (r.data.canvasNeedsRedraw?.[r.DRAG]) { this.prebuild(); return; }
      const canvas = r.data.contexts[r.DRAG]!.canvas, t = last.t, w = canvas.width, h = canvas.height;
      if (viewKey(t, w, h) !== this.key) return;
      const hot = this.hot();
      if (!hot) return;
      this.build(r.getCachedZSortedEles().drag, hot, last.t, w, h, last.drawEles);
      this.metrics.prebuilds++;
    });
  }

  private draw(ctx: CanvasRenderingContext2D, eles: readonly LayerElement[], drawEles: DrawEles): void {
    const t = ctx.getTransform(), w = ctx.canvas.width, h = ctx.canvas.height;
    const key = viewKey(t, w, h);
    let cold = this.cold;
    const hotEdges: LayerElement[] = [], hotNodes: LayerElement[] = [];
    if (cold && key === this.key) {
      let seen = 0;
      for (const e of eles) {
        if (cold.has(e)) seen++;
        else (e.isNode() ? hotNodes : hotEdges).push(e);
      }
      // a cold element left the layer (or was removed): the bitmaps show it still
      if (seen !== cold.size) cold = null;
    } else cold = null;
    if (!cold) {
      const hot = this.hot();
      if (!hot) { this.cold = null; this.metrics.whole++; this.metrics.last = 'whole'; drawEles(ctx, eles); return; }
      hotEdges.length = 0; hotNodes.length = 0;
      this.build(eles, hot, t, w, h, drawEles, hotEdges, hotNodes);
      this.key = key;
      this.metrics.builds++;
      this.metrics.last = 'build';
    } else { this.metrics.blits++; this.metrics.last = 'blit'; }
    this.metrics.hot = hotEdges.length + hotNodes.length;
    compose(ctx, this.edges, this.nodes, hotEdges, hotNodes, drawEles);
    if (this.last) this.last.cold = this.cold ?? undefined;
  }
}

type DrawEles = (c: CanvasRenderingContext2D, e: readonly LayerElement[]) => void;

/** `list` drawn alone into `canvas` (sized w x h) with the layer's transform */
function paint(canvas: HTMLCanvasElement, list: readonly LayerElement[], t: DOMMatrix, w: number, h: number, drawEles: DrawEles): void {
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  const c = canvas.getContext('2d')!;
  c.setTransform(1, 0, 0, 1, 0, 0);
  c.clearRect(0, 0, w, h);
  c.setTransform(t);
  if (list.length) drawEles(c, list);
}

/** the layer: cold edges, hot edges, cold nodes, hot nodes */
function compose(ctx: CanvasRenderingContext2D, edges: HTMLCanvasElement, nodes: HTMLCanvasElement,
  hotEdges: readonly LayerElement[], hotNodes: readonly LayerElement[], drawEles: DrawEles): void {
  const blit = (canvas: HTMLCanvasElement) => {
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(canvas, 0, 0);
    ctx.restore();
  };
  blit(edges);
  if (hotEdges.length) drawEles(ctx, hotEdges);
  blit(nodes);
  if (hotNodes.length) drawEles(ctx, hotNodes);
}
