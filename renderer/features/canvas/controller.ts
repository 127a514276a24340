/**
 * The live Cytoscape instance behind the canvas, outside React: created once,
 * then fed element lists (diff-applied: add, remove, update data/classes —
 * never rebuilt), with the connect gesture (cytoscape-edgehandles plus a drag
 * handle shown on the hovered node), pin-on-drag, and timings for the bench.
 */
import cytoscape, { type Core as Cy, type EdgeSingular, type NodeSingular, type SingularElementReturnValue } from 'cytoscape';
import edgehandles from 'cytoscape-edgehandles';
import type { Positions } from '../../../shared/contract-canvas.js';
import { drawsDirect, type CanvasElements } from './elements.js';
import { deltaIds, overlaid, overlayPatch, stepDelta, type CanvasElement, type ElementIndex } from './overlaid.js';
import type { CanvasOverlay } from './overlay.js';
import { placeNew, quickPlace } from './layout.js';
import { addEdges } from './bulk-add.js';
import { LayoutRunner } from './layout-client.js';
import { CANVAS_STYLE } from './style.js';
import { drawPreview, fitView, sameLayoutInput, startLayoutInput, startPlaces, wellInView, type LayoutInput, type SizedView } from './preview.js';
import { EmphasisLayer } from './emphasis.js';
import { patchSorted, patchZLists, skipOpacityZOrder, zCompare, type ZLists, type ZOrdered } from './zsorted.js';
import { installHairlineBatch, pickLabelFont, placeLabels, textWidth, type LabelCandidate, type LabelSpot } from './lod.js';
import { hotWindow, ScrubCache, windowShort, windowSteps } from './scrubcache.js';
import { installLabelDimsMemo } from './labeldims.js';
import { installGestureHold, installHitFilter, type GestureHold } from './gesture.js';
import { installDirectStyleDirty, installFreshTextureSkip, type FreshSkipStats } from './fresh-calcs.js';

cytoscape.use(edgehandles);

/** Past this many nodes the first frame shows the quick placement (edges held back) before the layout worker starts. */
const DEFER_LAYOUT_AT = 400;
const TEMP = '.eh-handle, .eh-ghost, .eh-preview, .eh-ghost-edge, .eh-ghost-node';
/** px: a selected node nearer the view's edge than this is centred (reveal) */
const REVEAL_MARGIN = 40;
const HANDLE_ID = '__eh_handle__';
/**
 * The scrub cache's window: steps drawn one by one ahead of the scrubber (the way it moves) and behind it. Every element
 * of the window is drawn at every step (the largest part of a step's work): 4 + 1 steps draw about half of what 8 + 2
 * did, for a prebuild in idle time every ~3 steps instead of every ~6 (step19f).
 */
const SCRUB_AHEAD = 4, SCRUB_BEHIND = 1;
/** the scrub cache's next window is built ahead (in idle time) when fewer steps than this are left in its window */
const SCRUB_MARGIN = 2;
/** the first step's warm-up (scheduleWarm) waits until the scrubber has rested this long (ms), then for an idle period (at most the timeout) */
const WARM_AFTER_MS = 200, WARM_IDLE_TIMEOUT_MS = 300;
/** a pan/zoom gesture ends when the view has been still this long (ms): then labels are picked and everything drawn */
const GESTURE_IDLE_MS = 250;
/**
 * The next gesture's bitmap is built ahead (gesture.ts buildAhead) up to this many nodes: past it the build
 * (the node layer at 2x) is long enough that an input landing on it waits (a 10k graph's first focus).
 */
const AHEAD_MAX_NODES = 6000;

export interface CanvasMetrics {
  /** performance.now() when the first non-empty element list arrived / was first drawn / layout stopped (or saved positions were shown) */
  graphAt?: number; firstRenderAt?: number; layoutDoneAt?: number;
  /**
   * performance.now() of the frame that first showed the graph: a big first graph's dots (preview.ts), drawn
   * before Cytoscape's first frame; unset without a preview (then Cytoscape's first frame is the first picture)
   */
  firstPictureAt?: number;
  /** the view the preview was drawn in, and Cytoscape's view at its first frame (tests: the same picture) */
  previewView?: SizedView; firstView?: SizedView;
  /** layouts: full layouts run (tests: a reload with saved positions or a session step runs none); placed: nodes placed beside neighbours */
  nodes?: number; webgl: boolean; layouts: number; placed: number;
  /** bench: each timeline step that reached the canvas, with the frame that drew it (performance.now()) */
  steps: Array<{ session: number | null; paintedAt: number }>;
  /** elements kept on the scrub layer (prepareSteps); steps that redrew that layer alone / everything */
  scrubLayer?: number; quietSteps: number; fullSteps: number;
  /** additions / removals of scrub-layer edges put into the renderer's draw order by hand (zsorted.ts), not by a full sort */
  zPatches?: number;
  /** quiet steps whose frame was drawn in the step's own task (drawStepNow), not in the next animation frame */
  stepsDrawnInTask?: number;
  /** texture caches' dequeues left out of the frames that presented such a step (installPresentFrame) */
  presentDeferred?: number;
  /** each full layout: where it ran (the layout worker, or the main thread when no worker could start) and its time there */
  layoutRuns: Array<{ where: 'worker' | 'main'; ms: number; nodes: number; engine?: string; early?: boolean;
    /** performance.now() when the run was asked for, when its answer reached this thread, and when it was placed */
    askedAt?: number; receivedAt?: number; placedAt?: number;
    /** performance.now() on this page's clock when the worker got the request (its wait: startedAt − askedAt) */
    startedAt?: number }>;
  /** the zoom the shown labels were last picked for (declutter) and how many were kept */
  labelZoom?: number; labelsShown?: number;
  /** the font size (model units) the shown labels were given at that pick (lod.ts pickLabelFont) */
  labelFont?: number;
  /** label picks run at once for a view the program set (pickBeforeFrame) */
  picksAtOnce?: number;
  /** texture-cache invalidations of never-cached elements that took the short way (fresh-calcs.ts) */
  freshTextures?: FreshSkipStats;
  /** pan/zoom gestures (gesture.ts): holds ended by stillness / by a change of elements, gesture bitmaps rebuilt for coverage */
  gesture?: { settled: number; interrupted: number; rebuilt: number; ahead: number; aheadUsed: number; aheadDropped: number; pressDeferred: number; pressDrawn: number; boundsInDraw: number; copied: number; viewHeld: number; firstAheadAt?: number };
}

export interface ControllerEvents {
  select(id: string): void;
  open(id: string): void;
  createAt(rendered: { x: number; y: number }): void;
  connect(fromId: string, toId: string, rendered: { x: number; y: number }): void;
  pin(changes: Record<string, { x: number; y: number }>): void;
  edgeSelected(edge: { source: string; target: string; type: string } | null): void;
  /** right-click (or long press) on a node, at client coordinates */
  menu?(id: string, client: { x: number; y: number }): void;
  /** positions a layout or placement chose, to keep (replace: the whole picture, after a full layout) */
  laidOut(positions: Positions, replace: boolean): void;
  /** the first picture (laid out, or the saved positions) is placed: the first load's deferred work may start */
  firstPicture?(): void;
  /** the frame after that has been drawn (a big graph's edges styled and drawn): the first load's lists may come */
  firstPainted?(): void;
}

type EdgeDef = CanvasElements['edges'][number];

/**
 * Fit the view to `nodes` by their bodies only. cy.fit() measures every
 * element with its label, which on a first paint means computing 30k edge
 * projections and 6k label sizes (seconds at 5k nodes) just to place the camera.
 */
function fitNodes(cy: Cy, nodes: ReturnType<Cy['nodes']>, padding: number): void {
  if (nodes.empty()) return;
  const bb = nodes.boundingBox({ includeLabels: false, includeOverlays: false, includeEdges: false } as never);
  cy.viewport(fitView(bb, cy.width(), cy.height(), padding, cy.minZoom(), cy.maxZoom()));
}

interface Eh { start(n: NodeSingular): void; stop(): void; enableDrawMode(): void; disableDrawMode(): void; destroy(): void; active?: boolean }

/** Classes the controller owns (the labels' level of detail: hidden, shown, shown above the node), kept when elements.ts's classes are applied. */
const LABEL_OFF = 'lbl-off', LABEL_ON = 'lbl-on';
const SPOT_CLASS: Record<Exclude<LabelSpot, 'below'>, string> = { above: 'lbl-above', right: 'lbl-right', left: 'lbl-left' };
const OWN = new Set([LABEL_OFF, LABEL_ON, ...Object.values(SPOT_CLASS)]);

/** a parsed style property of an element (Cytoscape's pstyle, missing from its typings) */
function pstyle(el: SingularElementReturnValue, name: string): { strValue: string; pfValue: number } {
  return (el as unknown as { pstyle(k: string): { strValue: string; pfValue: number } }).pstyle(name);
}

/**
 * Set data/classes only where they differ: a refresh of 40k unchanged elements
 * (a timeline step) then restyles only what the step changed.
 */
function update(el: SingularElementReturnValue, want: { data: object; classes: string }): void {
  // an edge still held back for the first paint (pendingEdges) is not on the canvas yet
  if (el.empty()) return;
  const cur = el.data() as Record<string, unknown>;
  for (const [k, v] of Object.entries(want.data)) {
    if (cur[k] !== v) { el.data(want.data); break; }
  }
  const all = el.classes(), own = all.filter((c) => OWN.has(c));
  const have = own.length ? all.filter((c) => !OWN.has(c)).join(' ') : all.join(' ');
  if (have !== want.classes) el.classes(own.length ? `${want.classes} ${own.join(' ')}` : want.classes);
}

export class CanvasController {
  readonly cy: Cy;
  readonly metrics: CanvasMetrics;
  private readonly eh: Eh;
  private handleOwner: NodeSingular | null = null;
  private laidOut = false;
  private drawMode = false;
  private pins: Positions = {};
  /** positions before each explicit re-layout (undoRelayout restores the last) */
  private readonly relayoutUndo: Positions[] = [];
  /** elements filtered or focused away, kept with their positions */
  private readonly stash = new Map<string, SingularElementReturnValue>();
  /**
   * A big graph's edges held back until its grid has been drawn once: the
   * first frame then costs nodes only (a hairball over a grid shows nothing),
   * and layout() adds them with the worker's positions. null = none waiting.
   */
  private pendingEdges: EdgeDef[] | null = null;
  /** draw elements straight onto the canvas, bypassing Cytoscape's texture caches (big graphs: drawsDirect) */
  private direct = false;
  private wantDirect = false;
  /**
   * Tests: draw directly whatever the graph's size (drawsDirect decides otherwise), from now on and across reloads of
   * the graph (each decides again); once the first layout is done, as always.
   */
  setAlwaysDirect(on: boolean): void { this.alwaysDirect = on; this.wantDirect = on || this.wantDirect; this.syncDirect(); }
  private alwaysDirect = false;
  /** the first full layout has finished */
  private settled = false;
  private declutterTimer: ReturnType<typeof setTimeout> | null = null;
  /** the pan/zoom gesture's held bitmap (gesture.ts); null on WebGL */
  private hold: GestureHold | null = null;
  /** the renderer's unfiltered hit test (gesture.ts installHitFilter), for tests */
  private hitFull: ((x: number, y: number, interactiveOnly: boolean, isTouch: boolean) => unknown[]) | null = null;

  /** the selected node's neighbourhood drawn above the dimmed graph (emphasis.ts); null without its container */
  private readonly emphasis: EmphasisLayer | null;

  /**
   * opts.layer: a small instance laid over the big one (the focused neighbourhood): no layout worker
   * started ahead. opts.emphasis: the container of the selection's emphasis layer (emphasis.ts).
   */
  constructor(container: HTMLElement, private readonly on: ControllerEvents, opts: { webgl?: boolean; layer?: boolean; emphasis?: HTMLElement } = {}) {
    const webgl = !!opts.webgl;
    this.previewHost = opts.layer ? null : container;
    this.metrics = { webgl, layouts: 0, placed: 0, steps: [], quietSteps: 0, fullSteps: 0, layoutRuns: [] };
    this.cy = cytoscape({
      container, style: CANVAS_STYLE, minZoom: 0.02, maxZoom: 4, boxSelectionEnabled: false,
      // while the view moves, draw a cached bitmap of the last frame and leave edges out: pan/zoom stays fluid at thousands of nodes
      textureOnViewport: true, hideEdgesOnViewport: true,
      ...(webgl ? { renderer: { name: 'canvas', webgl: true } as never } : {}),
    });
    const cy = this.cy;
    if (!webgl) {
      this.installDirectDraw(); this.installQuietHint(); this.installCover(); skipOpacityZOrder(cy.style());
      // a style property's triggers without a collection each, no texture-cache lookups for never-cached elements (fresh-calcs.ts)
      installDirectStyleDirty(cy);
      const fresh = installFreshTextureSkip((cy as unknown as { renderer?(): unknown }).renderer?.());
      if (fresh) this.metrics.freshTextures = fresh;
      this.installPresentFrame();
      this.labelDims = installLabelDimsMemo((cy as unknown as { renderer?(): unknown }).renderer?.(), typeof document !== 'undefined' ? document.fonts : undefined);
      this.scrubCache = ScrubCache.install((cy as unknown as { renderer?(): unknown }).renderer?.(), () => this.hotIds());
      // a pan/zoom gesture keeps its bitmap until the view is still, then the label pick and one full frame (gesture.ts)
      this.hold = installGestureHold(cy, {
        idleMs: GESTURE_IDLE_MS, onSettle: () => this.settleDeclutter(), ignore: (id) => id === HANDLE_ID,
        // the next gesture's first bitmap, built in idle time after a full frame: not under the focus layer, not on the biggest
        // graphs, and not before the first layout is placed: a bitmap of the quick placement is dropped when the layout's
        // positions come, and building it (seconds at 5k nodes under load) held back the worker's answer (issue 19.2)
        ahead: () => !this.covered && this.settled && cy.nodes().length <= AHEAD_MAX_NODES,
        // a big graph's frame (drawn without texture caches) asks for no second one for the bounds it computed itself
        quietDrawBounds: () => this.direct,
        // a big graph's gesture starts from a copy of the element layer on screen when only the view changed since it was drawn
        copyShown: () => this.direct,
        // … and a view the program sets (a fit, the zoom buttons) is drawn from that copy at once, its full frame once still
        holdView: () => this.direct && !this.covered,
      });
      if (this.hold) this.metrics.gesture = this.hold.stats;
      this.hitFull = installHitFilter(cy);
    }
    if (!opts.layer) this.runner.warm();
    this.emphasis = opts.emphasis ? new EmphasisLayer(opts.emphasis, cy) : null;
    this.eh = (cy as unknown as { edgehandles(o: object): Eh }).edgehandles({
      canConnect: (a: NodeSingular, b: NodeSingular) => !a.same(b) && !b.is(TEMP),
      edgeParams: () => ({ data: { label: '' } }),
      hoverDelay: 50, snap: true, snapThreshold: 30, snapFrequency: 30,
      // no compound nodes here; and restyling every edge per gesture costs O(E) on big graphs
      noEdgeEventsInDraw: false,
    });
    cy.on('tap', 'node', (e) => { if (!e.target.is(TEMP)) on.select(e.target.id()); });
    cy.on('dbltap', 'node', (e) => { if (!e.target.is(TEMP)) on.open(e.target.id()); });
    cy.on('cxttap', 'node', (e) => {
      if (e.target.is(TEMP) || !on.menu) return;
      const box = container.getBoundingClientRect();
      on.menu(e.target.id(), { x: box.left + e.renderedPosition.x, y: box.top + e.renderedPosition.y });
    });
    cy.on('dbltap', (e) => { if (e.target === cy) on.createAt(e.renderedPosition); });
    cy.on('tap', (e) => { if (e.target === cy) { this.hideHandle(); on.edgeSelected(null); } });
    cy.on('select', 'edge', (e) => {
      const d = (e.target as EdgeSingular).data();
      on.edgeSelected({ source: d.source, target: d.target, type: d.type });
    });
    cy.on('unselect', 'edge', () => { if (cy.edges(':selected').empty()) on.edgeSelected(null); });
    // dragging a node pins it where it is dropped
    cy.on('dragfree', 'node', (e) => {
      const n = e.target as NodeSingular;
      if (n.is(TEMP)) return;
      n.addClass('pinned');
      on.pin({ [n.id()]: { ...n.position() } });
      // Cytoscape takes a dragged node and its edges off the drag layer on release: the scrub layer's members go back
      if (this.scrubIds.size) this.syncScrubLayer(true);
    });
    // the connect handle: a small node above the hovered node; press it and drag to a target
    cy.on('mouseover', 'node', (e) => {
      // not while a button is down (panning, dragging): adding the handle would force full redraws mid-gesture
      if ((e.originalEvent as MouseEvent | undefined)?.buttons) return;
      if (!e.target.is(TEMP)) this.showHandle(e.target as NodeSingular);
    });
    cy.on('tapstart', `#${HANDLE_ID}`, () => { if (this.handleOwner) this.eh.start(this.handleOwner); });
    cy.on('ehstart', () => cy.getElementById(HANDLE_ID).addClass('eh-ghost'));
    cy.on('ehstop', () => this.hideHandle());
    cy.on('pan zoom', () => this.hideHandle());
    // labels keep their on-screen size when zoomed out (lod.ts labelFont): a zoom, a move re-pick them
    cy.on('dragfree', 'node', () => this.scheduleDeclutter());
    // once the view has stopped moving: a pick (a restyle of the labels that change, a redraw of everything) in the
    // middle of a pan that follows a zoom broke the gesture's cached bitmap and cost a full frame there
    cy.on('viewport', () => {
      if (!this.settled || !(this.declutterTimer || cy.zoom() !== this.metrics.labelZoom)) return;
      // a view set at once by the program (fit, the zoom buttons), not by a gesture nor an animation: the pick runs before
      // the frame that view asks for, so that frame draws both (a pick 250 ms later cost a second full frame of the graph)
      if (this.hold && !this.hold.held && !cy.animated()) this.pickBeforeFrame();
      else this.scheduleDeclutter(250);
    });
    cy.on('ehcomplete', (e, source: NodeSingular, target: NodeSingular, added: EdgeSingular) => {
      added.remove();
      const p = target.renderedPosition();
      on.connect(source.id(), target.id(), { x: p.x, y: p.y });
    });
  }

  /**
   * Let a big graph bypass Cytoscape's texture caches (see drawsDirect). The
   * canvas renderer keeps a bitmap per element and per label for each zoom
   * level, and whole-graph layer bitmaps on top; there is no option to turn
   * them off, so their lookups are wrapped to answer "not cached" while
   * `direct` is on, which the renderer already handles by drawing the element
   * itself. A renderer without these internals (another Cytoscape version) is
   * left alone.
   */
  private installDirectDraw(): void {
    type Cache = Record<string, unknown>;
    const data = (this.cy as unknown as { renderer?(): { data?: Record<string, Cache | undefined> } }).renderer?.()?.data;
    const wrap = (cache: Cache | undefined, fn: string) => {
      const orig = cache?.[fn];
      if (!cache || typeof orig !== 'function') return;
      cache[fn] = (...args: unknown[]) => (this.direct ? null : (orig as (...a: unknown[]) => unknown).apply(cache, args));
    };
    wrap(data?.eleTxrCache, 'getElement');
    wrap(data?.lblTxrCache, 'getElement');
    wrap(data?.lyrTxrCache, 'getLayers');
    // and draws its plain hairline edges as one path (lod.ts)
    installHairlineBatch((this.cy as unknown as { renderer?(): unknown }).renderer?.(), () => this.direct);
  }

  /** the focus layer covers this canvas (setCovered): its frames are not drawn */
  private covered = false;
  /** a frame was asked for while covered: drawn whole when uncovered */
  private missedFrame = false;

  /**
   * While covered, the renderer's frames are dropped (an export's forced draw excepted); setCovered(false)
   * draws everything once. Needs the canvas renderer's render(); without it, nothing changes.
   */
  private installCover(): void {
    const r = (this.cy as unknown as { renderer?(): { render?(o?: { forcedContext?: unknown }): void } }).renderer?.();
    const render = r?.render;
    if (!r || typeof render !== 'function') return;
    r.render = (o) => { if (!this.covered || o?.forcedContext) render.call(r, o); else this.missedFrame = true; };
  }

  /**
   * The focus layer (opaque) is shown over this canvas (on) or hidden again (off). A 10k graph's full
   * redraw takes ~0.3-1 s on a software canvas; anything that asked for one while focusing (it happened on
   * every focus in the bench) drew it under the layer, in the same frames as the focus: the focus's outliers.
   * Uncovered, it draws whole only if a frame was asked for meanwhile (its pixels are otherwise as they were).
   */
  setCovered(on: boolean): void {
    if (on === this.covered) return;
    this.covered = on;
    const r = this.renderer();
    if (!on && r && this.missedFrame) { r.redrawHint('eles', true); r.redrawHint('drag', true); r.redraw(); }
    this.missedFrame = false;
  }

  /** the gesture has ended: a label pick waiting for it runs now, so it and the full frame are drawn as one */
  private settleDeclutter(): void {
    if (!this.declutterTimer) return;
    clearTimeout(this.declutterTimer);
    this.declutterTimer = null;
    this.declutter();
  }

  /**
   * Tests: the ids the renderer's hit test finds at model point (x, y) (what a click there would reach), through
   * the hit filter (gesture.ts) or, with `full`, over every element as Cytoscape does (the oracle).
   */
  hitTest(x: number, y: number, full = false, isTouch = false): string[] {
    const r = (this.cy as unknown as { renderer(): { findNearestElements(x: number, y: number, i: boolean, t: boolean): Array<{ id(): string }> } }).renderer();
    const found = (full && this.hitFull ? this.hitFull(x, y, true, isTouch) : r.findNearestElements(x, y, true, isTouch)) as Array<{ id(): string }>;
    return found.map((e) => e.id());
  }

  private pickQueued = false;

  /** the label pick for a view the program set, at the end of the current task (several view calls in a row pick once) */
  private pickBeforeFrame(): void {
    if (this.declutterTimer) { clearTimeout(this.declutterTimer); this.declutterTimer = null; }
    if (this.pickQueued) return;
    this.pickQueued = true;
    queueMicrotask(() => {
      this.pickQueued = false;
      // a gesture may have started meanwhile (it picks when it ends), or the pick may have run already
      if (this.cy.destroyed() || this.declutterTimer || this.hold?.held || this.cy.zoom() === this.metrics.labelZoom) return;
      this.metrics.picksAtOnce = (this.metrics.picksAtOnce ?? 0) + 1;
      this.declutter();
    });
  }

  private scheduleDeclutter(ms = 150): void {
    if (this.declutterTimer) clearTimeout(this.declutterTimer);
    this.declutterTimer = setTimeout(() => { this.declutterTimer = null; this.declutter(); }, ms);
  }

  /**
   * Level of detail for labels, at the end of a zoom (and after a layout, a
   * move, a change of selection): the labels that fit without overlapping at
   * this zoom, most important first (the selection, its neighbours and the
   * focus root before all, then importance), drawn LABEL_PX high on screen;
   * the rest hidden (class lbl-off, kept across element updates).
   */
  declutter(): void {
    const cy = this.cy;
    if (cy.destroyed()) return;
    const zoom = cy.zoom();
    const nodes = cy.nodes().not(TEMP);
    const input: LabelCandidate[] = [];
    nodes.forEach((n) => {
      const label = pstyle(n, 'label').strValue;
      if (!label) return;
      const p = n.position();
      const first = n.hasClass('selected') || n.hasClass('focus-root') ? 3 : n.hasClass('near') ? 2 : 0;
      const font = `${pstyle(n, 'font-style').strValue} ${pstyle(n, 'font-weight').strValue} ${pstyle(n, 'font-family').strValue}`;
      input.push({ id: n.id(), x: p.x, y: p.y, size: n.height(), width: textWidth(label, font), rank: first + Number(n.data('importance') || 0) });
    });
    // the size the shown labels have, while it is close enough to this zoom's (a small zoom change restyles only what comes or goes)
    const font = pickLabelFont(zoom, this.metrics.labelFont);
    const keep = placeLabels(input, zoom, font);
    cy.batch(() => nodes.forEach((n) => {
      const spot = keep.get(n.id());
      if (!spot !== n.hasClass(LABEL_OFF)) n.toggleClass(LABEL_OFF, !spot);
      if (!!spot !== n.hasClass(LABEL_ON)) n.toggleClass(LABEL_ON, !!spot);
      for (const [s, c] of Object.entries(SPOT_CLASS)) if ((spot === s) !== n.hasClass(c)) n.toggleClass(c, spot === s);
      // a shown label's size and, in a big graph, its right to be drawn below zoom 2 (style.ts BIG_LABEL_MIN_FONT)
      if (spot && pstyle(n, 'font-size').pfValue !== font) n.style({ 'font-size': font, 'min-zoomed-font-size': 0 });
    }));
    this.metrics.labelZoom = zoom;
    this.metrics.labelFont = font;
    this.metrics.labelsShown = keep.size;
  }

  get handleVisible(): boolean { return this.cy.getElementById(HANDLE_ID).nonempty(); }

  private showHandle(node: NodeSingular): void {
    if (this.drawMode || this.eh.active) return;
    this.handleOwner = node;
    const bb = node.boundingBox({ includeLabels: false });
    const pos = { x: bb.x2 - 2, y: bb.y1 + 2 };
    const h = this.cy.getElementById(HANDLE_ID);
    if (h.nonempty()) h.position(pos);
    else this.cy.add({ group: 'nodes', data: { id: HANDLE_ID, label: '', icon: '' }, position: pos, classes: 'eh-handle', grabbable: false, selectable: false });
  }

  private hideHandle(): void {
    if (this.eh.active || !this.handleOwner) return;
    this.cy.getElementById(HANDLE_ID).remove();
    this.handleOwner = null;
  }

  setDrawMode(on: boolean): void {
    this.drawMode = on;
    this.hideHandle();
    if (on) this.eh.enableDrawMode(); else this.eh.disableDrawMode();
  }

  /**
   * Bring the live graph to `els`: add, remove, update. A new node goes where
   * it was pinned or last laid out (`saved`); the first graph is laid out only
   * when most of it has no saved place, later ones never: nodes without a
   * place are put beside a neighbour, nothing else moves.
   */
  /** apply() has seen a non-empty graph (its first frame is timed) */
  private firstWatched = false;

  apply(els: CanvasElements, pins: Positions, saved: Positions = {}): void {
    const cy = this.cy;
    this.pins = pins;
    const wanted = new Set<string>();
    for (const e of els.nodes) wanted.add(e.data.id);
    for (const e of els.edges) wanted.add(e.data.id);
    const added: string[] = [];
    /** added nodes with neither a pin nor a saved position */
    const unplaced: string[] = [];
    if (els.nodes.length && !this.firstWatched) {
      // graphAt is set already when a preview showed this graph first (startPreview)
      this.firstWatched = true;
      this.metrics.graphAt ??= performance.now();
      this.metrics.nodes ??= els.nodes.length;
      cy.one('render', () => { this.metrics.firstRenderAt = performance.now(); });
    }
    cy.batch(() => {
      // leaving elements are stashed, not dropped: a focus and back restores them where they were
      const leaving = cy.elements().not(TEMP).filter((el) => !wanted.has(el.id()));
      if (leaving.nonempty()) leaving.remove().forEach((el) => { this.stash.set(el.id(), el); });
      const newNodes = [];
      const back: SingularElementReturnValue[] = [];
      for (const n of els.nodes) {
        const el = cy.getElementById(n.data.id);
        if (el.nonempty()) { update(el, n); continue; }
        const old = this.stash.get(n.data.id);
        if (old) { this.stash.delete(n.data.id); back.push(old); continue; }
        const at = pins[n.data.id] ?? saved[n.data.id];
        // no place yet: a quick spiral, so no two nodes coincide (coincident ends made Cytoscape warn "invalid endpoints")
        newNodes.push({ ...n, position: at ?? quickPlace(unplaced.length) });
        added.push(n.data.id);
        if (!at) unplaced.push(n.data.id);
      }
      if (back.length) cy.collection(back as never).restore();
      if (newNodes.length) cy.add(newNodes);
      const newEdges = [];
      const backEdges: SingularElementReturnValue[] = [];
      for (const e of els.edges) {
        const el = cy.getElementById(e.data.id);
        if (el.nonempty()) { update(el, e); continue; }
        const old = this.stash.get(e.data.id);
        if (old) { this.stash.delete(e.data.id); backEdges.push(old); } else newEdges.push(e);
      }
      if (backEdges.length) cy.collection(backEdges as never).restore();
      // a big first load: nodes now, edges after the grid's first frame (layout() adds them)
      if (this.pendingEdges || (!this.laidOut && els.nodes.length >= DEFER_LAYOUT_AT)) this.pendingEdges = newEdges;
      else if (newEdges.length) cy.add(newEdges);
      // restored elements may have changed while away
      for (const list of [els.nodes, els.edges] as Array<Array<{ data: { id: string }; classes: string }>>) {
        if (!back.length && !backEdges.length) break;
        for (const d of list) update(cy.getElementById(d.data.id), d);
      }
      // a pin set from outside a drag (e.g. a new entity pinned where it was created) moves its node
      for (const [id, p] of Object.entries(pins)) {
        const n = cy.getElementById(id);
        if (n.nonempty() && !n.grabbed()) {
          const q = n.position();
          if (Math.abs(q.x - p.x) > 0.5 || Math.abs(q.y - p.y) > 0.5) n.position(p);
        }
      }
    });
    this.wantDirect = this.alwaysDirect || drawsDirect(els);
    this.syncDirect();
    const total = cy.nodes().not(TEMP).length;
    if (!total) return;
    if (!this.laidOut && unplaced.length > total / 2) {
      this.laidOut = true;
      void this.layout();
      return;
    }
    if (unplaced.length) {
      placeNew(cy, unplaced, pins);
      this.metrics.placed += unplaced.length;
      this.on.laidOut(this.positionsOf(cy.collection(unplaced.map((id) => cy.getElementById(id)) as never)), false);
    }
    if (!this.laidOut) { this.laidOut = true; void this.showSaved(); return; }
    // the selection, focus or filters may have changed which labels matter most
    if (this.settled) this.scheduleDeclutter();
  }

  /** every session's overlay of the shown timeline (prepareSteps): which elements a scrub can change */
  private stepOverlays: readonly CanvasOverlay[] = [];
  /** ids kept on the scrub layer */
  private scrubIds = new Set<string>();
  /**
   * The scrub layer drawn from kept bitmaps but for the elements the steps around the scrubber change
   * (scrubcache.ts); null without the canvas renderer's internals.
   */
  readonly scrubCache: ScrubCache | null = null;
  /** the overlays' sessions in order, and what each step between two neighbours changes (ids, either way) */
  private stepIndex = new Map<number, number>();
  private stepOrder: ReadonlyArray<NonNullable<CanvasOverlay> & { session: number }> = [];
  private stepPairs: string[][] = [];
  /** the shown overlay's place in that order (null: not one of them), and the way the scrubber last moved */
  private stepAt: number | null = null;
  private stepDir: 1 | -1 = 1;

  /** the ids the scrub cache draws one by one: the steps around the scrubber (SCRUB_AHEAD the way it moves, SCRUB_BEHIND back) */
  private hotIds(): ReadonlySet<string> | null {
    if (this.stepAt === null || !this.stepPairs.length) return null;
    const { ahead, behind } = this.scrubWindow;
    const hot = hotWindow(this.stepPairs, this.stepAt, this.stepDir, ahead, behind);
    this.hotSteps = windowSteps(this.stepAt, this.stepDir, ahead, behind);
    // a hot node's restyle moves the ends of its edges: they are drawn one by one too
    const cy = this.cy;
    for (const id of [...hot]) {
      const n = cy.getElementById(id);
      if (n.nonempty() && n.isNode()) n.connectedEdges().forEach((e) => { hot.add(e.id()); });
    }
    return hot;
  }

  private scrubWindow = { ahead: SCRUB_AHEAD, behind: SCRUB_BEHIND };
  /** the steps the scrub cache's bitmaps leave out (hotIds, at their last build) */
  private hotSteps: [number, number] | null = null;

  /**
   * After a step: when fewer than SCRUB_MARGIN steps the way the scrubber moves are left in the cache's window,
   * it builds the next window's bitmaps in idle time, so the step that leaves the window does not draw them.
   */
  private prebuildScrub(): void {
    const at = this.stepAt, w = this.hotSteps, cache = this.scrubCache;
    if (at === null || !w || !cache) return;
    if (windowShort(at, this.stepDir, w, SCRUB_MARGIN)) cache.prebuild();
  }
  /** tests and the bench: the scrub cache's window (steps ahead, behind); the bitmaps are drawn again */
  setScrubWindow(ahead: number, behind: number): void {
    this.scrubWindow = { ahead, behind };
    this.scrubCache?.invalidate();
  }
  /** while set, Cytoscape's requests to redraw the element layer are dropped (installQuietHint) */
  private quietEles = false;

  /**
   * The scrub layer: the elements any session of the timeline changes are
   * drawn on Cytoscape's drag layer (its own canvas, above the rest), so a
   * step that changes only them redraws that canvas alone instead of the
   * thousands of elements that stay as they are. Needs the canvas renderer's
   * internals (element `rscratch.inDragLayer`, `redrawHint`); without them
   * every step redraws everything, as before.
   */
  prepareSteps(overlays: readonly CanvasOverlay[]): void {
    this.stepOverlays = overlays;
    this.syncScrubLayer(true);
    // new steps: their first one is warmed up ahead (scheduleWarm)
    this.warm.done = false;
    this.scheduleWarm();
  }

  private renderer(): { redrawHint(g: string, b: boolean): void; redraw(): void; invalidateCachedZSortedEles(): void } | null {
    const r = (this.cy as unknown as { renderer?(): unknown }).renderer?.() as Record<string, unknown> | undefined;
    return r && typeof r.redrawHint === 'function' && typeof r.invalidateCachedZSortedEles === 'function' && typeof r.redraw === 'function' ? r as never : null;
  }

  private static layerFlag(el: SingularElementReturnValue | undefined, on?: boolean): boolean {
    const rs = (el as unknown as { _private?: { rscratch?: { inDragLayer?: boolean } } } | undefined)?._private?.rscratch;
    if (!rs) return false;
    if (on !== undefined) rs.inDragLayer = on;
    return !!rs.inDragLayer;
  }

  private syncScrubLayer(redraw: boolean): void {
    const r = this.renderer(), cur = this.shown;
    if (!r || !cur) return;
    const ids = new Set<string>();
    const ordered = this.stepOverlays.filter((o): o is NonNullable<CanvasOverlay> & { session: number } => o?.session != null)
      .sort((a, b) => a.session - b.session);
    const patches = ordered.map((o) => this.patchOf(cur.ix, o));
    for (const p of patches) for (const id of p.keys()) ids.add(id);
    this.stepIndex = new Map(ordered.map((o, i) => [o.session, i]));
    this.stepOrder = ordered;
    this.stepPairs = patches.slice(1).map((p, k) => deltaIds(stepDelta(cur.ix, patches[k]!, p)));
    this.stepAt = cur.session == null ? null : this.stepIndex.get(cur.session) ?? null;
    this.scrubCache?.invalidate();
    const cy = this.cy;
    for (const id of this.scrubIds) if (!ids.has(id)) CanvasController.layerFlag(cy.getElementById(id)[0], false);
    let n = 0;
    for (const id of ids) {
      const el = cy.getElementById(id)[0];
      if (el && !el.grabbed()) { CanvasController.layerFlag(el, true); n++; }
    }
    this.scrubIds = ids;
    this.metrics.scrubLayer = n;
    r.invalidateCachedZSortedEles();
    if (redraw) { r.redrawHint('eles', true); r.redrawHint('drag', true); r.redraw(); }
  }

  /**
   * A change to elements that are all on the drag layer (the scrub layer, or
   * a node being dragged with its edges) redraws that layer alone: the
   * renderer's notification asks for both layers, the element layer's
   * request is dropped. Anything else (a viewport change, any element below)
   * redraws everything, as Cytoscape does.
   */
  private installQuietHint(): void {
    type Sorted = ZLists<ZOrdered>;
    const r = this.renderer() as unknown as {
      redrawHint(g: string, b: boolean): void; notify?(name: string, eles?: ArrayLike<unknown>): void;
      invalidateCachedZSortedEles(): void; updateCachedGrabbedEles?(): void; cachedZSortedEles?: Sorted | null;
    } | null;
    if (!r || typeof r.notify !== 'function') return;
    const hint = r.redrawHint, notify = r.notify, invalidate = r.invalidateCachedZSortedEles;
    r.redrawHint = (g: string, b: boolean) => { if (!(this.quietEles && g === 'eles')) hint.call(r, g, b); };
    r.notify = (name: string, eles?: ArrayLike<unknown>) => {
      this.scrubCache?.noteChanged(name, eles);
      let quiet = !!eles && eles.length > 0 && name !== 'viewport';
      for (let i = 0; quiet && i < eles!.length; i++) quiet = CanvasController.layerFlag(eles![i] as SingularElementReturnValue);
      this.quietEles = quiet;
      // a step's edges added to or removed from the scrub layer: the draw order is patched (zsorted.ts), not sorted again
      const sorted = r.cachedZSortedEles;
      const patch = quiet && (name === 'add' || name === 'remove') && !!sorted && typeof r.updateCachedGrabbedEles === 'function'
        && !(this.cy as unknown as { hasCompoundNodes(): boolean }).hasCompoundNodes();
      if (patch) r.invalidateCachedZSortedEles = () => undefined;
      try { notify.call(r, name, eles); } finally {
        this.quietEles = false;
        r.invalidateCachedZSortedEles = invalidate;
      }
      if (patch && r.cachedZSortedEles === sorted) {
        type El = ZOrdered & { removed(): boolean; interactive(): boolean; grabbed(): boolean };
        const list = Array.from(eles as ArrayLike<El>);
        const add = name === 'add' ? list.filter((e) => !e.removed()) : [], remove = new Set(name === 'remove' ? list : []);
        // the order, its interactive list and its layer split patched in place (all of them are on the drag layer)
        if (!patchZLists(sorted as ZLists<El>, add, remove, zCompare, (e) => e.interactive(), (e) => e.grabbed())) {
          patchSorted(sorted!, add, remove, zCompare);
          sorted!.interactive = sorted!.filter((e) => (e as unknown as El).interactive());
          r.updateCachedGrabbedEles!();
        }
        this.metrics.zPatches = (this.metrics.zPatches ?? 0) + 1;
      }
    };
  }

  /** each prefetched overlay's patch on the index it was made for (syncScrubLayer makes them all): a step reuses it */
  private patches = new WeakMap<NonNullable<CanvasOverlay>, { ix: ElementIndex; patch: Map<string, CanvasElement> }>();

  /** overlayPatch(ix, overlay), kept per overlay object while the index is the same (both are never changed in place) */
  private patchOf(ix: ElementIndex, overlay: CanvasOverlay): Map<string, CanvasElement> {
    if (!overlay) return overlayPatch(ix, overlay);
    const kept = this.patches.get(overlay);
    if (kept && kept.ix === ix) return kept.patch;
    const patch = overlayPatch(ix, overlay);
    this.patches.set(overlay, { ix, patch });
    return patch;
  }

  /** the overlay-free elements last shown (show()) and the overlay's patch on them: what step() starts from */
  private shown: { ix: ElementIndex; patch: Map<string, CanvasElement>; session: number | null | undefined } | null = null;

  /**
   * Show `ix`'s elements with `overlay` laid on them (a full diff-apply, as
   * apply()); a later step() restyles only what the next overlay changes.
   */
  show(ix: ElementIndex, overlay: CanvasOverlay, pins: Positions, saved: Positions = {}): void {
    const patch = overlayPatch(ix, overlay);
    const session = overlay?.session ?? null;
    const before = this.shown?.session;
    if (this.deferred || this.previewFirst(ix)) {
      // a big first graph: its dots are (being) shown; Cytoscape gets the elements shown last, a frame later
      if (!this.deferred) this.startPreview(overlaid(ix, patch), pins, saved);
      else this.deferred = { pins, saved };
      this.shown = { ix, patch, session };
      if (before !== undefined && before !== session) this.markStep(session);
      return;
    }
    this.apply(overlaid(ix, patch), pins, saved);
    this.shown = { ix, patch, session };
    // elements shown anew (a filter, a focus) join the scrub layer; apply() has asked for the full redraw
    if (this.stepOverlays.length) this.syncScrubLayer(false);
    this.emphasis?.refresh();
    if (before !== undefined && before !== session) this.markStep(session);
  }

  /**
   * A scrubber step: the elements whose status differs between the shown
   * overlay and `overlay` restyled in one batch; edges only an overlay has
   * added or removed. No element rebuild, no layout, no label re-pick.
   */
  step(overlay: CanvasOverlay): void {
    const cur = this.shown;
    if (!cur) return;
    const patch = this.patchOf(cur.ix, overlay);
    const session = overlay?.session ?? null;
    const at = session === null ? null : this.stepIndex.get(session) ?? null;
    // a step from one of the timeline's sessions to another has paid the first-time work itself: no warm-up after it
    if (at !== null && this.stepAt !== null && at !== this.stepAt) this.stepDir = at > this.stepAt ? 1 : -1;
    if (at !== null && this.stepAt !== null) this.warm.done = true;
    this.lastStepAt = performance.now();
    this.stepAt = at;
    const { d, quiet } = this.restyle(patch, session);
    if (quiet) this.metrics.quietSteps++; else this.metrics.fullSteps++;
    if (quiet) this.drawStepNow();
    this.prebuildScrub();
    if (this.emphasis?.touches(deltaIds(d))) this.emphasis.refresh();
    if (session !== cur.session) this.markStep(session);
    this.scheduleWarm();
  }

  /**
   * The shown elements brought from the shown patch to `patch` (session `session`): what differs restyled in one
   * batch, edges only an overlay has removed or added taken out or put in. quiet: every change is on the scrub layer.
   */
  private restyle(patch: Map<string, CanvasElement>, session: number | null): { d: ReturnType<typeof stepDelta>; quiet: boolean } {
    const cur = this.shown!;
    const d = stepDelta(cur.ix, cur.patch, patch);
    this.shown = { ix: cur.ix, patch, session };
    const cy = this.cy;
    if (this.pendingEdges) {
      // a big first load still holds its edges back: they go in as of this step
      const by = new Map<string, EdgeDef>(d.set.filter((e): e is EdgeDef => e.group === 'edges').map((e) => [e.data.id, e]));
      const gone = new Set(d.remove);
      this.pendingEdges = [...this.pendingEdges.filter((e) => !gone.has(e.data.id)).map((e) => by.get(e.data.id) ?? e), ...d.add];
    }
    const inLayer = (id: string) => CanvasController.layerFlag(cy.getElementById(id)[0]);
    // only scrub-layer elements change (an added edge joins it): the element layer below stays as drawn
    // the renderer redraws only the scrub layer when every changed element is on it (installQuietHint); an added edge joins it
    const quiet = this.scrubIds.size > 0 && d.set.every((e) => inLayer(e.data.id) || cy.getElementById(e.data.id).empty())
      && d.remove.every(inLayer) && d.add.every((e) => this.scrubIds.has(e.data.id));
    cy.batch(() => {
      for (const el of d.set) update(cy.getElementById(el.data.id), el);
      for (const id of d.remove) cy.getElementById(id).remove();
      if (!this.pendingEdges) {
        const add = d.add.filter((e) => cy.getElementById(e.data.id).empty()
          && cy.getElementById(e.data.source).nonempty() && cy.getElementById(e.data.target).nonempty());
        if (add.length) cy.add(add).forEach((el) => { CanvasController.layerFlag(el, this.scrubIds.has(el.id())); });
      }
    });
    return { d, quiet };
  }

  /** performance.now() of the last step (a warm-up waits until the scrubber has rested WARM_AFTER_MS) */
  private lastStepAt = 0;
  /**
   * The first scrub step's first-time work done ahead, in idle time (issue 19 point 1): `done` once warmed (or once a
   * step between two of the timeline's sessions has paid it), until the next prepareSteps; `idle` the idle callback asked.
   */
  private readonly warm: { done: boolean; idle: number | null } = { done: false, idle: null };

  /**
   * The first step of a scrub did, besides its own work, work no later step does (16–30 ms against 5–10: Cytoscape's
   * style contexts and property diffs for the class sets it brings, the textures and label sizes of the restyled
   * elements, code run for the first time; pan19g, layout19j): it missed its frame. Once the timeline's steps are
   * known and a session of it is shown, that work is done in idle time: the steps to the next and the previous
   * session are applied and drawn, each undone and drawn again at once, in one task (nothing of it is presented:
   * the frame after the task shows what was shown before). Not while the scrubber moves, not on a big first
   * graph whose edges are still held back, not under the focus layer.
   */
  private scheduleWarm(): void {
    const w = globalThis as unknown as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number };
    if (this.warm.done || this.warm.idle !== null || this.stepAt === null || this.stepPairs.length === 0 || !w.requestIdleCallback) return;
    this.warm.idle = w.requestIdleCallback(() => {
      this.warm.idle = null;
      if (this.warm.done || this.cy.destroyed()) return;
      // the scrubber moved a moment ago (or moves now): later, when it rests
      const rest = WARM_AFTER_MS - (performance.now() - this.lastStepAt);
      if (rest > 0 || this.pendingEdges || this.covered || this.hold?.held) {
        setTimeout(() => this.scheduleWarm(), Math.max(rest, 50));
        return;
      }
      this.warmSteps();
    }, { timeout: WARM_IDLE_TIMEOUT_MS });
  }

  /** warm-ups done (tests, bench): the steps applied and undone ahead of the first step (scheduleWarm) */
  warmedSteps = 0;

  /** the steps to the sessions either side of the shown one, applied, drawn, undone and drawn again (scheduleWarm) */
  private warmSteps(): void {
    const cur = this.shown, at = this.stepAt;
    if (!cur || at === null || this.warm.done) return;
    this.warm.done = true;
    for (const k of [at + 1, at - 1]) {
      const o = this.stepOrder[k];
      if (!o) continue;
      const there = this.restyle(this.patchOf(cur.ix, o), o.session);
      if (there.quiet) this.renderInTask();
      const back = this.restyle(cur.patch, cur.session ?? null);
      if (back.quiet) this.renderInTask();
      this.warmedSteps++;
    }
  }

  /** a step's frame was drawn in its own task since the last animation frame (drawStepNow) */
  private drewInTask = false;
  /** label sizes kept per font and text (labeldims.ts); null without the canvas renderer */
  readonly labelDims: ReturnType<typeof installLabelDimsMemo> = null;
  /** tests and the bench (an in-page A/B): false lets the texture caches' work run in the frame that presents a step drawn in its task */
  deferPresentWork = true;

  /**
   * The frame that presents a step drawn in its own task (drawStepNow) does nothing else of Cytoscape's: its
   * texture caches' work (their before-render dequeues, which may take up to 90 % of a frame when nothing is
   * drawn: the restyled elements' textures, queued by that draw) waits for the next frame, two before the next
   * 50 ms step. That frame draws nothing (the step was drawn), so nothing in it needs those textures. A frame
   * that draws (a second step in the same frame, left to the loop) runs them as before.
   */
  private installPresentFrame(): void {
    const r = (this.cy as unknown as { renderer?(): unknown }).renderer?.() as {
      beforeRenderCallbacks?: Array<{ fn(willDraw: boolean, t: number): void; priority: number }>;
      beforeRenderPriorities?: Record<string, number>;
    } | undefined;
    const cbs = r?.beforeRenderCallbacks, prio = r?.beforeRenderPriorities;
    if (!Array.isArray(cbs) || !prio || typeof prio.eleTxrDeq !== 'number' || typeof prio.lyrTxrDeq !== 'number') return;
    for (const cb of cbs) {
      if (cb.priority !== prio.eleTxrDeq && cb.priority !== prio.lyrTxrDeq) continue;
      const fn = cb.fn;
      cb.fn = (willDraw, t) => {
        if (!willDraw && this.drewInTask && this.deferPresentWork) { this.metrics.presentDeferred = (this.metrics.presentDeferred ?? 0) + 1; return; }
        fn(willDraw, t);
      };
    }
  }
  /** tests and the bench (an in-page A/B): false leaves every step's frame to Cytoscape's render loop, as before */
  drawStepsInTask = true;

  /**
   * A quiet step's frame (the scrub layer, a few dozen elements and two kept bitmaps) drawn at once, in the step's
   * own task (its key press or drag event), exactly as Cytoscape's render loop would draw it at the next animation
   * frame (its before-render calculations, then render()); that frame then only presents it, so the step shows in
   * the first frame after its input instead of in that frame plus the draw. At most one such draw per frame (a
   * second step before the next frame is left to the loop), none while Cytoscape batches, while the focus layer
   * covers this canvas, or when the renderer is not the canvas renderer this expects.
   */
  private drawStepNow(): void {
    if (!this.drawStepsInTask || this.drewInTask || !this.renderInTask()) return;
    this.drewInTask = true;
    requestAnimationFrame(() => { this.drewInTask = false; });
    this.metrics.stepsDrawnInTask = (this.metrics.stepsDrawnInTask ?? 0) + 1;
  }

  /**
   * The frame Cytoscape's render loop would draw next, drawn now, in this task (its before-render calculations, then
   * render(), and the loop's own bookkeeping); false when no frame is asked for or it cannot be drawn here.
   */
  private renderInTask(): boolean {
    const r = (this.cy as unknown as { renderer?(): unknown }).renderer?.() as {
      requestedFrame?: boolean; skipFrame?: boolean; renderOptions?: unknown; render?(o?: unknown): void;
      beforeRenderCallbacks?: Array<{ fn(willDraw: boolean, t: number): void }>;
      lastDrawTime?: number; lastRedrawTime?: number; averageRedrawTime?: number; redrawCount?: number; redrawTotalTime?: number;
    } | undefined;
    if (!r || this.covered || !r.requestedFrame || r.skipFrame || typeof r.render !== 'function'
      || !Array.isArray(r.beforeRenderCallbacks) || (this.cy as unknown as { batching(): boolean }).batching()) return false;
    const t0 = performance.now();
    for (const cb of r.beforeRenderCallbacks) cb.fn(true, t0);
    r.render(r.renderOptions);
    // the loop's own bookkeeping of a drawn frame (startRenderLoop)
    const t1 = r.lastDrawTime = performance.now(), ms = t1 - t0;
    r.redrawCount = (r.redrawCount ?? 0) + 1;
    r.redrawTotalTime = (r.redrawTotalTime ?? 0) + ms;
    r.lastRedrawTime = ms;
    r.averageRedrawTime = r.averageRedrawTime === undefined ? ms : r.averageRedrawTime / 2 + ms / 2;
    r.requestedFrame = false;
    return true;
  }

  /** the container the preview's canvas goes into (null: a layer over the big graph, no preview) */
  private readonly previewHost: HTMLElement | null;
  /** the preview's canvas while shown */
  private previewCanvas: HTMLCanvasElement | null = null;
  /** set while a big first graph is shown as dots only: the pins and saved places apply() gets a frame later */
  private deferred: { pins: Positions; saved: Positions } | null = null;
  private deferTimer: ReturnType<typeof setTimeout> | null = null;
  /** the first layout, started with the preview on the same input (startPreview), until layout() takes it */
  private early: { input: LayoutInput; job: ReturnType<LayoutRunner['run']>; askedAt: number } | null = null;
  private deferFrame = 0;

  /**
   * A big first graph (class `big`: no borders, no labels below zoom 2, edges held back: Cytoscape's first frame
   * is coloured dots) on an empty canvas gets a preview (preview.ts).
   */
  private previewFirst(ix: ElementIndex): boolean {
    return !!this.previewHost && !this.laidOut && this.metrics.graphAt === undefined && ix.els.nodes.length >= DEFER_LAYOUT_AT
      && drawsDirect(ix.els) && this.cy.nodes().empty() && this.previewHost.clientWidth > 0 && this.previewHost.clientHeight > 0;
  }

  /**
   * Draw `els`'s nodes as dots at once (the same places, colours and fit as Cytoscape's first frame), note the
   * frame that shows them, and only after it hand the elements to Cytoscape (apply()), whose adding and styling
   * of thousands of nodes would otherwise hold every frame back. Cytoscape's first frame removes the dots.
   */
  private startPreview(els: CanvasElements, pins: Positions, saved: Positions): void {
    const host = this.previewHost!;
    this.metrics.graphAt = performance.now();
    this.metrics.nodes = els.nodes.length;
    this.deferred = { pins, saved };
    const canvas = document.createElement('canvas');
    canvas.className = 'canvas-preview';
    canvas.setAttribute('data-testid', 'canvas-preview');
    canvas.style.cssText = 'position:absolute;left:0;top:0;pointer-events:none;z-index:10';
    const at = startPlaces(els.nodes, pins, saved);
    // a first graph mostly without places is laid out (apply): the worker starts now, on what Cytoscape will be
    // given; layout() keeps this run only if what it reads back from Cytoscape is the same input
    const unplaced = els.nodes.filter((n) => !pins[n.data.id] && !saved[n.data.id]).length;
    if (unplaced > els.nodes.length / 2) {
      const input = startLayoutInput(els, at, pins);
      this.early = { input, job: this.runner.run(input.nodes, input.edges, input.pins), askedAt: performance.now() };
    }
    const draw = () => {
      const view = drawPreview(canvas, els, at, host.clientWidth, host.clientHeight, { min: this.cy.minZoom(), max: this.cy.maxZoom() });
      if (view) this.metrics.previewView = view;
    };
    draw();
    host.appendChild(canvas);
    this.previewCanvas = canvas;
    // the view's size may change before Cytoscape's first frame (the panes settling): fitted again, as Cytoscape will
    if (typeof ResizeObserver !== 'undefined') {
      let w = host.clientWidth, h = host.clientHeight;
      this.previewResize = new ResizeObserver(() => {
        if (!this.previewCanvas || (host.clientWidth === w && host.clientHeight === h)) return;
        w = host.clientWidth; h = host.clientHeight;
        draw();
      });
      this.previewResize.observe(host);
    }
    this.deferFrame = requestAnimationFrame(() => {
      this.deferFrame = 0;
      this.metrics.firstPictureAt = performance.now();
      this.deferTimer = setTimeout(() => { this.deferTimer = null; this.runDeferred(); }, 0);
    });
  }

  /** The big first graph goes to Cytoscape: the elements shown last, as show() would have applied them. */
  private runDeferred(): void {
    const d = this.deferred, cur = this.shown;
    this.deferred = null;
    if (!d || !cur || this.cy.destroyed()) return;
    this.cy.one('render', () => {
      const cy = this.cy;
      this.metrics.firstView = { zoom: cy.zoom(), pan: { ...cy.pan() }, w: cy.width(), h: cy.height() };
      this.removePreview();
    });
    this.apply(overlaid(cur.ix, cur.patch), d.pins, d.saved);
    // no full layout after all (the graph changed meanwhile): the early run is dropped
    if (this.early) { this.early = null; this.runner.cancel(); }
    if (this.stepOverlays.length) this.syncScrubLayer(false);
    this.emphasis?.refresh();
  }

  private previewResize: ResizeObserver | null = null;

  private removePreview(): void {
    this.previewResize?.disconnect();
    this.previewResize = null;
    this.previewCanvas?.remove();
    this.previewCanvas = null;
  }

  /** The first graph shown at its saved positions: no layout; edges held back for the first frame follow it. */
  private async showSaved(): Promise<void> {
    const cy = this.cy;
    fitNodes(cy, cy.nodes().not(TEMP), 30);
    if (this.pendingEdges) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    this.addPendingEdges();
    this.markLaidOut();
    this.settled = true;
    this.syncDirect();
    this.declutter();
  }

  /** The first picture is placed (laid out or saved): layoutDoneAt, and the first load's deferred work may start. */
  private markLaidOut(): void {
    if (this.metrics.layoutDoneAt !== undefined) return;
    this.metrics.layoutDoneAt = performance.now();
    this.on.firstPicture?.();
    if (this.on.firstPainted) this.cy.one('render', () => { setTimeout(() => this.on.firstPainted?.(), 0); });
  }

  /** Model positions of `nodes` (default: every node, the ones focused or filtered away included). */
  private positionsOf(nodes?: ReturnType<Cy['nodes']>): Positions {
    const out: Positions = {};
    const put = (n: SingularElementReturnValue | NodeSingular) => {
      if (n.isNode() && !n.is(TEMP)) { const p = n.position(); out[n.id()] = { x: p.x, y: p.y }; }
    };
    if (nodes) { nodes.forEach((n) => put(n)); return out; }
    for (const el of this.stash.values()) put(el);
    this.cy.nodes().forEach((n) => put(n));
    return out;
  }

  /** The explicit re-layout (toolbar, `l`): pins stay, everything else moves; undoRelayout() puts it back. */
  async relayout(): Promise<void> {
    this.relayoutUndo.push(this.positionsOf());
    await this.layout();
  }

  /** Note the frame that draws a timeline step (Cytoscape draws changed elements in its next animation frame). */
  markStep(session: number | null): void {
    requestAnimationFrame(() => { this.metrics.steps.push({ session, paintedAt: performance.now() }); });
  }

  /**
   * Make `id`'s neighbourhood stand out (issue 19.4): it is drawn again on the
   * emphasis layer above the graph, which that layer's background dims; null
   * clears it. O(the neighbourhood): the graph itself is not restyled.
   */
  emphasise(id: string | null): void { this.emphasis?.show(id); }

  /** the node whose neighbourhood stands out (tests) */
  get emphasised(): string | null { return this.emphasis?.shown ?? null; }
  /** the emphasis layer's own instance (tests: what it draws, and that it follows the viewport) */
  get emphasisCy(): Cy | null { return this.emphasis?.cy ?? null; }

  get canUndoRelayout(): boolean { return this.relayoutUndo.length > 0; }

  /** Put every node back where it was before the last re-layout, and save that picture. */
  undoRelayout(): boolean {
    const before = this.relayoutUndo.pop();
    if (!before) return false;
    const cy = this.cy;
    cy.batch(() => {
      for (const [id, p] of Object.entries(before)) {
        const n = cy.getElementById(id);
        if (n.nonempty()) n.position(p); else this.stash.get(id)?.position(p);
      }
    });
    this.on.laidOut(this.positionsOf(), true);
    return true;
  }

  /**
   * Full layout (pins fixed). The worker starts at once (it needs ids, sizes and edges, not styles), so on a
   * big graph it computes while this thread styles and draws the quick placement; the edges held back for
   * that first frame go in with the laid-out positions, so they are styled and projected once, where they end.
   */
  async layout(): Promise<void> {
    const cy = this.cy;
    const n = cy.nodes().not(TEMP).length;
    // the nodes are already at a quick placement (apply: quickPlace) or where they were
    const input: LayoutInput = { nodes: this.layoutNodes(), edges: this.layoutEdges(), pins: this.pins };
    const early = this.early;
    this.early = null;
    const kept = !!early && sameLayoutInput(early.input, input);
    const askedAt = kept ? early.askedAt : performance.now();
    const job = kept ? early.job : this.runner.run(input.nodes, input.edges, input.pins);
    if (n >= DEFER_LAYOUT_AT) {
      fitNodes(cy, cy.nodes().not(TEMP), 30);
      // let that be drawn first
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    } else this.addPendingEdges();
    const r = await job;
    if (!r || cy.destroyed()) return; // a newer layout took over (it adds the held-back edges)
    cy.batch(() => {
      this.placeAll(r.ids, r.positions);
      this.addPendingEdges();
    });
    fitNodes(cy, cy.nodes().not(TEMP), 30);
    this.metrics.layouts++;
    this.metrics.layoutRuns.push({ where: r.where, ms: Math.round(r.ms), nodes: r.ids.length, ...(r.engine ? { engine: r.engine } : {}), ...(kept ? { early: true } : {}),
      askedAt, ...(r.receivedAt !== undefined ? { receivedAt: r.receivedAt } : {}), placedAt: performance.now(),
      ...(r.receivedAtEpoch !== undefined ? { startedAt: r.receivedAtEpoch - performance.timeOrigin } : {}) });
    this.markLaidOut();
    this.settled = true;
    this.syncDirect();
    this.declutter();
    // kept: a reload or a session step shows this picture without laying out again
    this.on.laidOut(this.positionsOf(), true);
  }

  private readonly runner = new LayoutRunner();

  /** every node of the canvas with where it is now (the layout's start) and its size */
  private layoutNodes(): Array<{ id: string; x: number; y: number; size: number }> {
    return this.cy.nodes().not(TEMP).map((el) => {
      const p = (el as NodeSingular).position();
      return { id: el.id(), x: p.x, y: p.y, size: Number(el.data('size')) || 20 };
    });
  }

  /** the canvas's edges, the ones still held back for the first paint included */
  private layoutEdges(): Array<{ source: string; target: string }> {
    const out: Array<{ source: string; target: string }> = [];
    this.cy.edges().not(TEMP).forEach((e) => { out.push({ source: e.data('source') as string, target: e.data('target') as string }); });
    for (const e of this.pendingEdges ?? []) out.push({ source: e.data.source, target: e.data.target });
    return out;
  }

  /** Move nodes to a layout's positions in one batch (nodes focused or filtered away since included; gone ones skipped). */
  private placeAll(ids: readonly string[], pos: Float32Array): void {
    const cy = this.cy;
    cy.batch(() => {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!, p = { x: pos[2 * i]!, y: pos[2 * i + 1]! };
        const el = cy.getElementById(id);
        if (el.nonempty()) { if (!el.grabbed()) el.position(p); } else this.stash.get(id)?.position(p);
      }
    });
  }

  /**
   * Direct drawing pays off from the first pan or zoom on: until the first
   * layout is done the caches stay on (measured at 5k nodes: the first frames
   * and the layout took ~0.5 s longer drawn directly).
   */
  private syncDirect(): void {
    const direct = this.wantDirect && this.settled;
    if (direct === this.direct) return;
    this.direct = direct;
    // what was drawn from (or into) the caches is redrawn the other way
    (this.cy as unknown as { renderer?(): { redrawHint?(g: string, on: boolean): void } | null }).renderer?.()?.redrawHint?.('eles', true);
  }

  /** The edges held back for the first paint, minus any whose ends have gone (or that arrived since). */
  private addPendingEdges(): void {
    const cy = this.cy, edges = this.pendingEdges;
    this.pendingEdges = null;
    if (!edges?.length) return;
    // one add, without Cytoscape's per-edge parallel-edge traversal (bulk-add.ts: half of this add at 20k edges)
    addEdges(cy, edges.filter((e) => cy.getElementById(e.data.id).empty()
      && cy.getElementById(e.data.source).nonempty() && cy.getElementById(e.data.target).nonempty()));
  }

  fit(): void { this.cy.fit(this.cy.elements().not(TEMP), 30); }
  zoomBy(f: number): void {
    const cy = this.cy;
    cy.zoom({ level: cy.zoom() * f, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
  }
  /**
   * Bring node `id` into view: centred with a short pan when it is off screen or near an edge, left where it is
   * when it is already well inside the view (a click on a visible node, or a focus's root once the focus has fitted
   * its neighbourhood, does not move the camera). False when the canvas has no such node.
   */
  reveal(id: string): boolean {
    const cy = this.cy;
    const n = cy.getElementById(id);
    if (n.empty()) return false;
    if (!wellInView(n.renderedPosition(), cy.width(), cy.height(), REVEAL_MARGIN)) cy.animate({ center: { eles: n } }, { duration: 200 });
    return true;
  }
  selectedEdge(): { source: string; target: string; type: string } | null {
    const e = this.cy.edges(':selected').not(TEMP)[0];
    return e ? { source: e.data('source'), target: e.data('target'), type: e.data('type') } : null;
  }
  destroy(): void {
    if (this.declutterTimer) clearTimeout(this.declutterTimer);
    this.hold?.destroy();
    if (this.deferTimer) clearTimeout(this.deferTimer);
    if (this.deferFrame) cancelAnimationFrame(this.deferFrame);
    this.deferred = null;
    this.removePreview();
    this.runner.destroy();
    this.emphasis?.destroy();
    this.eh.destroy(); this.cy.destroy();
  }
}
