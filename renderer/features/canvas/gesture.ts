/**
 * Pan and zoom over big graphs (issue 19.3): two changes to Cytoscape 3.34's canvas renderer, installed
 * by the controller on the software canvas (no WebGL).
 *
 * 1. The gesture's bitmap is held until the view is still (GestureHold). With `textureOnViewport`,
 *    Cytoscape draws the node layer into a bitmap when a drag or a wheel starts and only blits it while the
 *    view moves, but it draws everything again (edges, labels) as soon as one piece of the gesture ends: at
 *    each mouseup and 150 ms after the last wheel step, then builds a new bitmap when the next piece starts.
 *    A user's gesture is a run of such pieces (drag, wheel, drag): each boundary cost a full frame and a
 *    bitmap build (~100-200 ms at 2k nodes here). The hold keeps the blit going from the first user
 *    pan/zoom until the view has been still for `idleMs`, then draws the full frame once. The bitmap is
 *    built again only when it no longer covers most of the view or is magnified too much (textureUsable),
 *    and the hold ends at once when anything but the viewport changes (a selection, a step of the
 *    timeline), so a change is never left undrawn.
 *
 * 2. Hit tests see only the elements near the pointer (installHitFilter). Every mousedown, mouseup and
 *    hover move runs the renderer's findNearestElements over every interactive element (2k nodes and 8k
 *    edges: a bounding box and three label checks per edge, ~25-70 ms a call here). Elements that cannot
 *    be hit at the point (a node whose box, an edge whose points' box with its width, arrows and the
 *    hit tolerance, does not reach it) are left out of the list it scans; the renderer's own code decides
 *    among the rest, in the same order, so the answer is the same (e2e/canvas-gesture.spec.ts compares
 *    both on many points). Labels are only hit with `text-events: yes`, which this app's style never
 *    sets: if an element has it, the filter is skipped for that call.
 */
import type { Core as Cy } from 'cytoscape';

/** the texture Cytoscape keeps for a gesture: the view it was drawn at (canvas pixels, zoom, pan) */
export interface TextureView { zoom: number; pan: { x: number; y: number }; width: number; height: number }

/** rebuild the gesture's bitmap when it covers less than this share of the view … */
export const TEXTURE_MIN_COVER = 0.5;
/** … at most once in this many ms (a rebuild draws the whole node layer: a zoom out must not pay it every few steps) */
export const TEXTURE_REBUILD_MS = 400;
/** … or when the view is zoomed in this much (or more) past the zoom it was drawn at (it gets blurry) */
export const TEXTURE_MAX_MAGNIFY = 2.5;

/**
 * Whether a gesture bitmap drawn at `tex` still serves a view of `w` x `h` CSS pixels at `zoom` / `pan`:
 * it covers at least TEXTURE_MIN_COVER of the view and is magnified at most TEXTURE_MAX_MAGNIFY times.
 */
export function textureUsable(tex: TextureView, pixelRatio: number, zoom: number, pan: { x: number; y: number }, w: number, h: number): boolean {
  if (zoom / tex.zoom > TEXTURE_MAX_MAGNIFY) return false;
  return textureCover(tex, pixelRatio, zoom, pan, w, h) >= TEXTURE_MIN_COVER;
}

/** the share (0-1) of a view of `w` x `h` CSS pixels at `zoom` / `pan` that a bitmap drawn at `tex` covers */
export function textureCover(tex: TextureView, pixelRatio: number, zoom: number, pan: { x: number; y: number }, w: number, h: number): number {
  // both rectangles in model coordinates
  const tx1 = -tex.pan.x / tex.zoom, ty1 = -tex.pan.y / tex.zoom;
  const tx2 = tx1 + tex.width / pixelRatio / tex.zoom, ty2 = ty1 + tex.height / pixelRatio / tex.zoom;
  const vx1 = -pan.x / zoom, vy1 = -pan.y / zoom, vx2 = vx1 + w / zoom, vy2 = vy1 + h / zoom;
  const ix = Math.max(0, Math.min(tx2, vx2) - Math.max(tx1, vx1)), iy = Math.max(0, Math.min(ty2, vy2) - Math.max(ty1, vy1));
  const area = (vx2 - vx1) * (vy2 - vy1);
  return area > 0 ? (ix * iy) / area : 0;
}

/** a view the program sets is drawn from the copy of the element layer (holdView) only if that copy covers this share of it … */
export const VIEW_HOLD_MIN_COVER = 0.9;
/** … and is magnified at most this much (or shrunk at most as much) */
export const VIEW_HOLD_MAX_SCALE = 1.5;

/** an edge's press state (:active overlay) is drawn this long after the press, unless a pan or the release came first */
export const PRESS_DRAW_MS = 120;

/** a full frame's bitmap is built ahead (GestureHold.ahead) once the page has been idle this long after it */
export const AHEAD_DELAY_MS = 300;

/** the gesture bitmap Cytoscape keeps (3.34: drawing-redraw.mjs, the textureDraw branch) */
interface TextureCache { viewport?: TextureView & { mpan?: { x: number; y: number } }; bb?: unknown; texture?: unknown }

/** the view (and canvas size, in canvas pixels) at which the on-screen element layer was last drawn whole */
interface ShownView { zoom: number; pan: { x: number; y: number }; width: number; height: number }

/** what of Cytoscape's canvas renderer the hold uses */
interface HoldRenderer {
  data: {
    wheelZooming?: boolean; bufferCanvases?: unknown[]; bufferContexts?: Array<CanvasRenderingContext2D | undefined>; canvasNeedsRedraw?: boolean[];
    /** the on-screen layers' contexts (the element layer's is data.contexts[NODE]) */
    contexts?: Array<CanvasRenderingContext2D | undefined>;
  };
  /** the indices of the node and drag layers in data.canvasNeedsRedraw */
  NODE?: number; DRAG?: number;
  hoverData: { dragging?: boolean };
  pinching?: boolean; swipePanning?: boolean; textureOnViewport?: boolean;
  textureCache?: TextureCache | null;
  pixelRatio?: number;
  motionBlur?: boolean;
  /** for the bitmap built ahead (optional: without them nothing is built ahead) */
  TEXTURE_BUFFER?: number; textureMult?: number; canvasWidth?: number; canvasHeight?: number; getPixelRatio?(): number;
  render(o?: { forcedContext?: unknown }): void;
  notify(name: string, eles?: unknown): void;
  redrawHint(group: string, on: boolean): void;
  redraw(): void;
}

export interface GestureHoldOptions {
  /** the view must be still this long before the full frame is drawn */
  idleMs: number;
  /** called when the gesture has ended, just before the full frame is asked for (the label pick goes there) */
  onSettle?: () => void;
  /** elements whose changes do not end a hold (the connect handle, shown on hover and gone on the next pan) */
  ignore?: (id: string) => boolean;
  /**
   * Whether to build the next gesture's bitmap ahead now, in idle time after a full frame (the controller: not
   * while the focus layer covers this canvas, not past a size). Omitted: never.
   */
  ahead?: () => boolean;
  /**
   * Whether an element's bounds found stale while a frame draws it ask for no other frame (the controller: when it
   * draws without Cytoscape's texture caches, which is where a full frame is costly). Cytoscape computes an element's
   * bounds lazily, when the frame draws it, and announces that as a change, which asked for a second full frame
   * after every frame that followed a restyle (the label pick's, a fit's). That frame draws them already.
   */
  quietDrawBounds?: () => boolean;
  /**
   * Whether a gesture's first bitmap may be a copy of the element layer on screen, when nothing but the view has changed
   * since that layer was drawn whole (the controller: big graphs drawn directly, where Cytoscape's own first bitmap, all
   * nodes drawn again at 2x, is the gesture's longest frame). Omitted: never.
   */
  copyShown?: () => boolean;
  /**
   * Whether a view the program sets at once (a fit, the zoom buttons; not an animation) may be drawn like a gesture: the
   * element layer on screen, copied (copyShown) and scaled to the new view at once, the full frame when the view has been
   * still for idleMs (and so not at all while a gesture follows at once). Only when that copy serves the new view
   * (VIEW_HOLD_MIN_COVER, VIEW_HOLD_MAX_SCALE); otherwise the view's frame is a full one, as before. Omitted: never.
   */
  holdView?: () => boolean;
}

/**
 * Keeps the renderer's viewport texture from a user's first pan/zoom until the view has been still for
 * idleMs (see the header). Cytoscape's own `data.wheelZooming` flag is what turns its texture mode on;
 * it is read through an accessor that also answers true while held. Programmatic view changes (fit,
 * animate, the zoom buttons) do not start a hold.
 */
export class GestureHold {
  /** the view moved by the user's hand within idleMs */
  held = false;
  /** bench/tests: holds ended by stillness / by a change of elements, bitmaps dropped for coverage */
  /** firstAheadAt: performance.now() of the first bitmap built ahead (tests: none before the first layout is placed) */
  /** copied: gestures whose first bitmap was the element layer on screen, copied (copyShown) */
  /** viewHeld: views the program set that were drawn from the copy of the element layer, their full frame held (holdView) */
  readonly stats: { settled: number; interrupted: number; rebuilt: number; ahead: number; aheadUsed: number; aheadDropped: number; pressDeferred: number; pressDrawn: number; boundsInDraw: number; copied: number; viewHeld: number; firstAheadAt?: number } =
    { settled: 0, interrupted: 0, rebuilt: 0, ahead: 0, aheadUsed: 0, aheadDropped: 0, pressDeferred: 0, pressDrawn: 0, boundsInDraw: 0, copied: 0, viewHeld: 0 };
  private timer: ReturnType<typeof setTimeout> | null = null;
  private wheel = false;
  private rebuiltAt = -Infinity;
  /** the bitmap built ahead, while it is the renderer's (null once used by a gesture or dropped) */
  private aheadTex: TextureCache | null = null;
  /** building it: the renderer draws as in a gesture (node layer only, edges hidden) */
  private building = false;
  private aheadTimer: ReturnType<typeof setTimeout> | null = null;
  private aheadIdle: number | null = null;

  constructor(private readonly cy: Cy, private readonly r: HoldRenderer, private readonly opts: GestureHoldOptions) {
    this.wheel = !!r.data.wheelZooming;
    Object.defineProperty(r.data, 'wheelZooming', {
      configurable: true, enumerable: true,
      get: () => this.wheel || this.held || this.building,
      set: (v: boolean) => { this.wheel = v; },
    });
    cy.on('viewport', this.onViewport);
    const render = r.render, notify = r.notify;
    r.render = (o) => {
      this.drawing++;
      try { this.renderHeld(o); } finally { this.drawing--; }
    };
    const hint = r.redrawHint, redraw = r.redraw;
    r.redrawHint = (group, on) => {
      // the element layer is asked to be drawn again for another reason than the view: what it shows may be stale
      if (group === 'eles' && on && !this.inViewport) this.shown = null;
      if (!this.muted) hint.call(r, group, on);
    };
    r.redraw = () => { if (!this.muted) redraw.call(r); };
    this.render = render;
    this.notifyRenderer = (name, eles) => notify.call(r, name, eles);
    r.notify = (name, eles) => {
      // an element's bounds computed while it is drawn: this frame draws it with them, no other frame is needed
      if (name === 'bounds' && this.drawing > 0 && this.opts.quietDrawBounds?.()) {
        this.stats.boundsInDraw++;
        this.muted = true;
        try { notify.call(r, name, eles); } finally { this.muted = false; }
        return;
      }
      // a press state's overlay padding changes the edge's bounds, announced when they are next computed (a hit test, a
      // frame): part of the press state, drawn with it (deferPress), and no reason to end a hold
      const pressBounds = name === 'bounds' && this.pressBounds(eles);
      if (pressBounds && !this.held && this.pendingPress(eles)) return;
      // anything but the view changed: it must be drawn now, not after the gesture
      const activation = name === 'style' && this.activation(eles);
      if (this.held && name !== 'viewport' && !activation && !pressBounds && !this.ignored(eles)) this.release(false);
      // an edge pressed (or released) outside a hold: its press state is drawn a little later, or never if a pan follows
      if (activation && !this.held && this.deferPress(eles)) return;
      // any other frame draws the press state as it is now
      if (this.pressPending.size) this.dropPress();
      // a bitmap built ahead shows the node layer as it was: any change but of the view or of edges (not in it) drops it
      if (this.aheadTex && name !== 'viewport' && !this.onlyEdges(eles)) this.dropAhead();
      // the element layer on screen no longer shows the elements as they are (until the next full frame); a press state
      // not drawn (deferPress) and its bounds leave it as it was: it was drawn with no press state (see renderHeld)
      if (name !== 'viewport' && !pressBounds && !activation) this.shown = null;
      // (nor do the redraws it asks for: a press state's notification, drawn or not, is no change of the layer as last drawn)
      this.inViewport = name === 'viewport' || pressBounds || activation;
      try { notify.call(r, name, eles); } finally { this.inViewport = false; }
    };
  }

  /** render() calls under way (a texture build runs one inside a frame) */
  private drawing = 0;
  /** the renderer's redraw requests are dropped (a notification raised by the frame being drawn) */
  private muted = false;
  /** a notification of the view or of a press state is being delivered (its redraw requests say nothing about the layer as drawn) */
  private inViewport = false;
  /**
   * The view at which the element layer on screen was last drawn whole, while it still shows every element below the
   * drag layer as it is: set by a full frame that drew that layer, cleared by any notification but the view's, any
   * other request to draw that layer again, and any gesture frame (which paints the bitmap over it). Only a frame drawn
   * with no element pressed sets it, so the press notifications that follow (deferPress) leave it: the layer shows no
   * press state, and a pan starts by undoing the press.
   */
  private shown: ShownView | null = null;
  /** the copy of the element layer a gesture starts from (copyShown), kept for the next one */
  private copyCanvas: HTMLCanvasElement | null = null;

  private renderHeld(o?: { forcedContext?: unknown }): void {
    const r = this.r, cy = this.cy, render = this.render;
    // a bitmap that no longer serves the view is drawn again at this view (in this frame)
    const tex = r.textureCache?.viewport;
    if (tex && !o?.forcedContext && this.moving() && Date.now() - this.rebuiltAt >= TEXTURE_REBUILD_MS && !textureUsable(tex, r.pixelRatio ?? 1, cy.zoom(), cy.pan(), cy.width(), cy.height())) {
      r.textureCache = null;
      this.rebuiltAt = Date.now();
      this.stats.rebuilt++;
    }
    if (o?.forcedContext) { render.call(r, o); return; }
    const moving = this.moving();
    if (this.aheadTex && r.textureCache === this.aheadTex && moving) { this.stats.aheadUsed++; this.aheadTex = null; }
    // a gesture's first frame with no bitmap: the element layer on screen, if nothing but the view changed since it was drawn
    if (moving && !r.textureCache) this.copyShownLayer();
    // a frame that leaves the node and drag layers as they are (the press's background circle, on the select layer)
    // keeps a bitmap built ahead: Cytoscape drops its bitmap on every frame outside a gesture
    const ahead = this.aheadTex;
    if (!moving && ahead && r.textureCache === ahead && this.layersClean()) {
      render.call(r, o);
      if (!r.textureCache) r.textureCache = ahead;
      return;
    }
    const need = r.data.canvasNeedsRedraw, node = r.NODE;
    const layerDue = !!need && node !== undefined && need[node] === true;
    render.call(r, o);
    // a gesture frame paints the bitmap over the element layer; a full frame that drew it leaves it showing the elements as they are
    if (moving) this.shown = null;
    else if (layerDue && need![node!] === false && !r.motionBlur && r.canvasWidth && r.canvasHeight && !this.pressed.size && !this.pressPending.size) {
      this.shown = { zoom: cy.zoom(), pan: { ...cy.pan() }, width: r.canvasWidth, height: r.canvasHeight };
    }
    // a full frame (Cytoscape drops its bitmap on it): build the next gesture's bitmap once the page is idle
    this.cancelAhead();
    if (!moving) { this.aheadTex = null; this.scheduleAhead(); this.pressTouched.clear(); }
  }

  private readonly render: (o?: { forcedContext?: unknown; drawOnlyNodeLayer?: boolean; forcedPxRatio?: number }) => void;
  /** the renderer's own notify (past this wrapper) */
  private readonly notifyRenderer: (name: string, eles?: unknown) => void;

  /**
   * Make the gesture's first bitmap a copy of the element layer on screen (one blit of the canvas) instead of Cytoscape's
   * own (every node drawn again, at textureMult x the pixel ratio): only when nothing but the view has changed since that
   * layer was drawn whole (`shown`), at the same canvas size. The copy shows what that full frame showed (edges and labels
   * too, at 1x) where Cytoscape's shows the nodes alone; a view that leaves it is drawn as before (renderHeld's rebuild).
   * e2e/canvas-gesture.spec.ts checks it against a full draw at the moved view. Returns whether it was made.
   */
  private copyShownLayer(): boolean {
    const r = this.r, s = this.shown;
    if (!s || !this.opts.copyShown?.()) return false;
    const src = r.NODE === undefined ? undefined : r.data.contexts?.[r.NODE]?.canvas;
    if (!src || r.canvasWidth !== s.width || r.canvasHeight !== s.height || src.width !== s.width || src.height !== s.height) return false;
    let dst = this.copyCanvas;
    if (!dst || dst.width !== s.width || dst.height !== s.height) {
      dst = src.ownerDocument.createElement('canvas');
      dst.width = s.width;
      dst.height = s.height;
      this.copyCanvas = dst;
    }
    const cxt = dst.getContext('2d');
    if (!cxt) return false;
    cxt.setTransform(1, 0, 0, 1, 0, 0);
    cxt.clearRect(0, 0, s.width, s.height);
    cxt.drawImage(src, 0, 0);
    // (Cytoscape 3.34 keeps `bb` beside the bitmap but never reads it)
    r.textureCache = { texture: dst, viewport: { zoom: s.zoom, pan: { ...s.pan }, width: s.width, height: s.height, mpan: { x: -s.pan.x / s.zoom, y: -s.pan.y / s.zoom } } };
    this.shown = null;
    this.stats.copied++;
    return true;
  }

  /** the next frame draws neither the node layer nor the drag layer (e.g. only the select layer) */
  private layersClean(): boolean {
    const need = this.r.data.canvasNeedsRedraw, node = this.r.NODE, drag = this.r.DRAG;
    return !!need && node !== undefined && drag !== undefined && need[node] === false && need[drag] === false;
  }

  /** `eles` are all edges (a gesture's bitmap draws nodes only: hideEdgesOnViewport) */
  private onlyEdges(eles: unknown): boolean {
    const list = eles as ArrayLike<{ isEdge?(): boolean }> | undefined;
    if (!list || !list.length) return false;
    for (let i = 0; i < list.length; i++) if (!list[i]!.isEdge?.()) return false;
    return true;
  }

  private dropAhead(): void {
    if (this.r.textureCache === this.aheadTex && !this.moving()) this.r.textureCache = null;
    this.aheadTex = null;
    this.stats.aheadDropped++;
  }

  private cancelAhead(): void {
    if (this.aheadTimer) { clearTimeout(this.aheadTimer); this.aheadTimer = null; }
    const w = globalThis as unknown as { cancelIdleCallback?: (id: number) => void };
    if (this.aheadIdle !== null) { w.cancelIdleCallback?.(this.aheadIdle); this.aheadIdle = null; }
  }

  private scheduleAhead(): void {
    const w = globalThis as unknown as { requestIdleCallback?: (cb: () => void) => number };
    if (!this.opts.ahead || !w.requestIdleCallback) return;
    this.aheadTimer = setTimeout(() => {
      this.aheadTimer = null;
      this.aheadIdle = w.requestIdleCallback!(() => { this.aheadIdle = null; this.buildAhead(); });
    }, AHEAD_DELAY_MS);
  }

  /**
   * Build the bitmap a gesture starts with, as Cytoscape does on a gesture's first frame (the node layer at
   * textureMult x the pixel ratio, edges hidden, the view as it is), so that frame only blits it. Cytoscape's next
   * full frame drops it (as it drops its own); a change of nodes before that drops it here (notify).
   */
  buildAhead(): boolean {
    const r = this.r, cy = this.cy;
    if (cy.destroyed() || this.moving() || r.textureCache || !this.opts.ahead?.()) return false;
    const buf = r.TEXTURE_BUFFER, mult = r.textureMult, w = r.canvasWidth, h = r.canvasHeight;
    const cxt = buf === undefined ? undefined : r.data.bufferContexts?.[buf];
    const canvas = buf === undefined ? undefined : r.data.bufferCanvases?.[buf];
    if (!cxt || !canvas || !mult || !w || !h || typeof r.getPixelRatio !== 'function') return false;
    const pr = r.getPixelRatio();
    const cache: TextureCache = { bb: (cy as unknown as { mutableElements(): { boundingBox(): unknown } }).mutableElements().boundingBox(), texture: canvas };
    cxt.setTransform(1, 0, 0, 1, 0, 0);
    cxt.clearRect(0, 0, w * mult, h * mult);
    this.building = true;
    this.drawing++;
    try { this.render.call(r, { forcedContext: cxt, drawOnlyNodeLayer: true, forcedPxRatio: pr * mult }); } finally { this.building = false; this.drawing--; }
    const zoom = cy.zoom(), pan = { ...cy.pan() };
    cache.viewport = { zoom, pan, width: w, height: h, mpan: { x: -pan.x / zoom, y: -pan.y / zoom } };
    r.textureCache = cache;
    this.aheadTex = cache;
    this.stats.ahead++;
    this.stats.firstAheadAt ??= performance.now();
    return true;
  }

  /** elements seen pressed (Cytoscape's :active state, set on mousedown, cleared on release or when a pan starts) */
  private readonly pressed = new Set<unknown>();
  /** elements whose press state changed since the last full frame (their bounds, computed later, belong to it) */
  private readonly pressTouched = new Set<unknown>();

  /**
   * Whether a style notification is only the press state of its elements changing: a drag that pans often
   * starts on an edge, which Cytoscape activates on the press and unactivates when the pan starts. Its
   * overlay waits for the gesture's end like the rest; any other change of style ends the hold.
   */
  private activation(eles: unknown): boolean {
    const list = eles as ArrayLike<{ _private?: { active?: boolean } }> | undefined;
    if (!list || !list.length) return false;
    const changes: Array<[unknown, boolean]> = [];
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!, on = !!e._private?.active;
      if (on === this.pressed.has(e)) return false;
      changes.push([e, on]);
    }
    for (const [e, on] of changes) { if (on) this.pressed.add(e); else this.pressed.delete(e); this.pressTouched.add(e); }
    return true;
  }

  /** every element of `eles` is an edge that is pressed, or whose press state is changing or not drawn yet */
  private pressBounds(eles: unknown): boolean {
    const list = eles as ArrayLike<{ _private?: { active?: boolean }; isEdge?(): boolean }> | undefined;
    if (!list || !list.length) return false;
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (!e.isEdge?.()) return false;
      if (!this.pressPending.has(e) && !this.pressed.has(e) && !this.pressTouched.has(e) && !e._private?.active) return false;
    }
    return true;
  }

  /** every element of `eles` has a press state not drawn yet (deferPress), or one changing now */
  private pendingPress(eles: unknown): boolean {
    const list = eles as ArrayLike<{ _private?: { active?: boolean } }>;
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (!this.pressPending.has(e) && !!e._private?.active === this.pressed.has(e)) return false;
    }
    return true;
  }

  /** edges whose press state changed and has not been drawn yet (deferPress) */
  private readonly pressPending = new Set<unknown>();
  private pressTimer: ReturnType<typeof setTimeout> | null = null;

  /**
   * A press on an edge (Cytoscape's :active overlay, set on mousedown) costs a full frame of the whole graph. A drag
   * that pans often starts on an edge (at a big graph's fitted zoom, edges pass nearly everywhere), and Cytoscape clears
   * the press state as soon as the pan starts: the overlay was drawn for one frame and the pan's first frame waited for
   * it. The press state of edges is drawn PRESS_DRAW_MS later instead; if it has gone back by then (a pan started, or a
   * click ended, which then draws its selection), nothing is drawn for it. Nodes are left alone (a press on a node grabs
   * it, which draws anyway). Returns whether the notification was deferred.
   */
  private deferPress(eles: unknown): boolean {
    const list = eles as ArrayLike<{ isEdge?(): boolean }> | undefined;
    if (!list || !list.length) return false;
    for (let i = 0; i < list.length; i++) if (!list[i]!.isEdge?.()) return false;
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      // back to the state last drawn: nothing of it to draw
      if (this.pressPending.has(e)) this.pressPending.delete(e); else this.pressPending.add(e);
    }
    if (!this.pressPending.size) { this.dropPress(); return true; }
    this.stats.pressDeferred++;
    this.pressTimer ??= setTimeout(() => {
      this.pressTimer = null;
      const eles = [...this.pressPending];
      this.pressPending.clear();
      if (!eles.length || this.held || this.cy.destroyed()) return;
      this.shown = null;
      this.stats.pressDrawn++;
      this.notifyRenderer('style', eles);
    }, PRESS_DRAW_MS);
    return true;
  }

  /** the pending press state will be drawn by another frame (or was undone): no frame of its own */
  private dropPress(): void {
    this.pressPending.clear();
    if (this.pressTimer) { clearTimeout(this.pressTimer); this.pressTimer = null; }
  }

  private ignored(eles: unknown): boolean {
    const ignore = this.opts.ignore;
    const list = eles as ArrayLike<{ id(): string }> | undefined;
    if (!ignore || !list || !list.length) return false;
    for (let i = 0; i < list.length; i++) if (!ignore(list[i]!.id())) return false;
    return true;
  }

  /** a user gesture is moving the view (Cytoscape's own flags, not the hold) */
  private userMoving(): boolean {
    const r = this.r;
    return this.wheel || !!r.hoverData.dragging || !!r.pinching || !!r.swipePanning;
  }

  private moving(): boolean { return this.held || this.userMoving(); }

  /**
   * A view the program set (not a gesture, not an animation) may be drawn like a gesture's (holdView): when the element
   * layer on screen is current (`shown`, nothing but the view changed since it was drawn whole) and its copy serves the
   * new view: it covers VIEW_HOLD_MIN_COVER of it, scaled by at most VIEW_HOLD_MAX_SCALE either way. Cytoscape's bitmap
   * built ahead (nodes only) is not used for this: it is dropped, so the frame copies the layer.
   */
  private holdsView(): boolean {
    const r = this.r, cy = this.cy, s = this.shown;
    if (!s || !this.opts.holdView?.() || !this.opts.copyShown?.() || cy.animated()) return false;
    if (r.canvasWidth !== s.width || r.canvasHeight !== s.height) return false;
    if (r.textureCache && r.textureCache !== this.aheadTex) return false;
    const scale = cy.zoom() / s.zoom;
    if (scale > VIEW_HOLD_MAX_SCALE || scale < 1 / VIEW_HOLD_MAX_SCALE) return false;
    if (textureCover(s, r.pixelRatio ?? 1, cy.zoom(), cy.pan(), cy.width(), cy.height()) < VIEW_HOLD_MIN_COVER) return false;
    if (this.aheadTex) this.dropAhead();
    this.stats.viewHeld++;
    return true;
  }

  private readonly onViewport = (): void => {
    if (!this.held && !this.userMoving() && !this.holdsView()) return;
    // a press state not drawn yet waits for the gesture's end like the rest (the full frame then draws it as it is)
    if (!this.held) this.dropPress();
    this.held = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(this.onIdle, this.opts.idleMs);
  };

  private readonly onIdle = (): void => {
    this.timer = null;
    this.release(true);
  };

  /** End the hold: the next frame is a full one (Cytoscape drops its bitmap on a non-texture frame). */
  release(settled: boolean): void {
    if (!this.held) return;
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    this.held = false;
    if (settled) { this.stats.settled++; this.opts.onSettle?.(); } else this.stats.interrupted++;
    if (this.cy.destroyed()) return;
    this.r.redrawHint('eles', true);
    this.r.redrawHint('drag', true);
    this.r.redraw();
  }

  destroy(): void {
    this.cancelAhead();
    this.dropPress();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.held = false;
    if (!this.cy.destroyed()) this.cy.off('viewport', this.onViewport);
  }
}

/** Install the hold on `cy`'s canvas renderer; null when the renderer lacks what it needs (another version, WebGL). */
export function installGestureHold(cy: Cy, opts: GestureHoldOptions): GestureHold | null {
  const r = (cy as unknown as { renderer?(): Partial<HoldRenderer> }).renderer?.();
  if (!r || !r.data || !r.hoverData || !r.textureOnViewport || typeof r.render !== 'function' || typeof r.notify !== 'function'
    || typeof r.redraw !== 'function' || typeof r.redrawHint !== 'function') return null;
  return new GestureHold(cy, r as HoldRenderer, opts);
}

/** an element as the hit filter reads it (Cytoscape internals, 3.34) */
interface HitEle {
  _private: {
    group: 'nodes' | 'edges'; position: { x: number; y: number };
    rscratch: { allpts?: number[]; arrowStartX?: number; arrowStartY?: number; arrowEndX?: number; arrowEndY?: number; midX?: number; midY?: number };
  };
  isNode(): boolean;
  outerWidth(): number; outerHeight(): number;
  pstyle(name: string): { pfValue: number; value: unknown; strValue: string };
}
type Sorted = HitEle[] & { interactive?: HitEle[] };
interface HitRenderer {
  findNearestElements(x: number, y: number, interactiveOnly: boolean, isTouch: boolean): unknown[];
  getCachedZSortedEles(force?: boolean): Sorted;
  getArrowWidth(width: number, scale: number): number;
}

/**
 * Whether `e` may be hit at model point (x, y) by findNearestElements (same tolerances: 8 px rendered for
 * an edge, 24 for touch; 2 / 8 for a node). Errs on the side of yes: an edge whose points are not known
 * is a candidate.
 */
export function mayHit(r: Pick<HitRenderer, 'getArrowWidth'>, e: HitEle, x: number, y: number, zoom: number, isTouch: boolean): boolean {
  const p = e._private;
  if (p.group === 'nodes') {
    const t = (isTouch ? 8 : 2) / zoom;
    const hw = e.outerWidth() / 2 + t, hh = e.outerHeight() / 2 + t;
    return Math.abs(p.position.x - x) <= hw && Math.abs(p.position.y - y) <= hh;
  }
  const rs = p.rscratch, pts = rs.allpts;
  if (!pts || pts.length < 4) return true;
  const w = e.pstyle('width').pfValue, thr = (isTouch ? 24 : 8) / zoom;
  // the line: within width/2 + tolerance of its points' box
  const lm = w / 2 + thr;
  let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
  for (let i = 0; i + 1 < pts.length; i += 2) {
    const px = pts[i]!, py = pts[i + 1]!;
    if (Number.isNaN(px) || Number.isNaN(py)) return true;
    if (px < x1) x1 = px; if (px > x2) x2 = px; if (py < y1) y1 = py; if (py > y2) y2 = py;
  }
  if (x >= x1 - lm && x <= x2 + lm && y >= y1 - lm && y <= y2 + lm) return true;
  // an arrow (source, target, mid): within half its size + tolerance of its anchor (roughCollide), with slack
  const am = r.getArrowWidth(w, Number(e.pstyle('arrow-scale').value) || 1) / 2 + thr + w + 1;
  // (an anchor not set or NaN never collides there either)
  const near = (ax: number | undefined, ay: number | undefined) => ax !== undefined && ay !== undefined
    && Math.abs(ax - x) <= am && Math.abs(ay - y) <= am;
  return near(rs.arrowStartX, rs.arrowStartY) || near(rs.arrowEndX, rs.arrowEndY) || near(rs.midX, rs.midY);
}

/**
 * Let the renderer's hit test scan only the elements that may be hit at the point (see the header).
 * Returns the unfiltered test (the oracle) or null when the renderer lacks what it needs.
 */
export function installHitFilter(cy: Cy): ((x: number, y: number, interactiveOnly: boolean, isTouch: boolean) => unknown[]) | null {
  const r = (cy as unknown as { renderer?(): Partial<HitRenderer> }).renderer?.();
  if (!r || typeof r.findNearestElements !== 'function' || typeof r.getCachedZSortedEles !== 'function' || typeof r.getArrowWidth !== 'function') return null;
  const hr = r as HitRenderer;
  const find = hr.findNearestElements, sorted = hr.getCachedZSortedEles;
  const full = (x: number, y: number, i: boolean, t: boolean) => find.call(hr, x, y, i, t);
  hr.findNearestElements = function (x, y, interactiveOnly, isTouch) {
    if ((cy as unknown as { hasCompoundNodes(): boolean }).hasCompoundNodes()) return full(x, y, interactiveOnly, isTouch);
    const all = sorted.call(hr);
    const list = interactiveOnly ? all.interactive ?? all : all;
    const zoom = cy.zoom();
    const near: Sorted = [];
    for (const e of list) {
      // a hittable label: let the renderer's own test see everything
      if (e.pstyle('text-events').strValue === 'yes') return full(x, y, interactiveOnly, isTouch);
      if (mayHit(hr, e, x, y, zoom, isTouch)) near.push(e);
    }
    near.interactive = near;
    hr.getCachedZSortedEles = () => near;
    try { return full(x, y, interactiveOnly, isTouch); } finally { hr.getCachedZSortedEles = sorted; }
  };
  return full;
}
