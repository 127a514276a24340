/**
 * Canvas state: the graph snapshot, the filters, the focused neighbourhood,
 * the user-pinned positions (saved by canvas-positions-set under
 * `<vault>/.lorecraft/canvas.json`) and the timeline's overlay (overlay.ts).
 */
import type { StateCreator } from 'zustand';
import type { Positions } from '../../../shared/contract-canvas.js';
import { decodeGraph } from '../../../shared/graph-compact-decode.js';
import type { GraphSnapshot } from '../../../shared/types.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';
import type { CanvasFilters } from './elements.js';
import { sameGraph } from './graph-same.js';
import type { CanvasOverlay } from './overlay.js';

/** The neighbourhood shown: toElements computes its nodes from the graph (the canvas's own edges and filters). */
export interface CanvasFocus { root: string; depth: number }

export interface GraphSlice {
  graph: GraphSnapshot | null;
  /**
   * Counts the graph's refreshes, an unchanged one included: a refresh equal to the shown graph keeps the same
   * snapshot object (no element rebuild), but what it does not carry (a relationship's properties, read by the
   * edge panel and tip) may have changed with the write that caused it.
   */
  graphSeq: number;
  /** layer shown on the canvas; undefined = every layer */
  graphLayer: string | undefined;
  /**
   * Fetch the graph (and, once per vault, the pins). `vaultDir`: the vault's
   * folder as it will be known (loadAll asks for the graph before vault-status
   * has answered): the pins are then read whatever vault was shown before.
   */
  loadGraph(opts?: { vaultDir?: Promise<string> }): Promise<void>;
  /** the timeline's overlay (see overlay.ts); null = none */
  canvasOverlay: CanvasOverlay;
  setCanvasOverlay(o: CanvasOverlay): void;
  /** every session's overlay of the timeline shown (prefetched): the elements a scrub can change (controller prepareSteps) */
  canvasSteps: readonly CanvasOverlay[];
  canvasFilters: CanvasFilters;
  setCanvasFilters(patch: Partial<CanvasFilters>): void;
  /** the N-hop neighbourhood shown instead of the whole graph; null = everything */
  canvasFocus: CanvasFocus | null;
  focusOn(nameOrId: string, depth?: number): Promise<void>;
  clearFocus(): void;
  canvasPins: Positions;
  /** pin (position) or unpin (null) nodes; saved at once */
  setPins(changes: Record<string, { x: number; y: number } | null>): Promise<void>;
  /** where the last layout or placement put each node (canvas.json `layout`): a reload shows the same picture */
  canvasLayout: Positions;
  /** entity id -> PageRank (canvas-importance, computed by the core off the UI path); null until it arrives */
  canvasRank: ReadonlyMap<string, number> | null;
  /** keep layout positions (replace: the whole picture); saved at once, never re-rendered from */
  saveLayout(positions: Positions, replace: boolean): Promise<void>;
  /** the canvas placed its first picture (laid out or saved): the importance request, held until now, goes out */
  canvasFirstPicture(): void;
  /** the frame after the first picture has been drawn: the first load's lists (firstListsGate) go ahead */
  canvasFirstPainted(): void;
}

/** vault whose pins are loaded: pins are read once per vault, then only written */
let pinsVault: string | null = null;

/**
 * The canvas has placed its first picture (canvasFirstPicture): until then the importance request waits here.
 * Its answer restyles every node (sizes, label ranks); asked for beside the graph it was answered while the
 * layout worker ran and held the laid-out picture back behind a full restyle (5k nodes: seconds).
 */
let pictured = false;
let rankWaiting: (() => void) | null = null;

/** From this many nodes on (the preview's `big` graphs) the first load's lists wait for the canvas's first picture. */
export const LISTS_AFTER_PICTURE_AT = 1200;
/** the first load's lists go ahead at the latest this long after a big graph arrived (the canvas never placed it) */
const LISTS_WAIT_CAP_MS = 10_000;
let listsGo: (() => void) | null = null;
const listsGate = new Promise<void>((go) => { listsGo = go; });
function openListsGate(): void { const go = listsGo; listsGo = null; go?.(); }

/**
 * Resolves once the first load's lists (the entity list, ~0.9 MB at 5k entities; the problems, ~0.4 MB) may be
 * fetched: at once for a graph under LISTS_AFTER_PICTURE_AT nodes, else once the canvas has placed its first
 * picture and drawn the frame after it (canvasFirstPainted; at most LISTS_WAIT_CAP_MS after the graph). Their
 * answers' parsing and rendering used to land on the main thread between the first layout's request and its
 * placement (issue 19 point 2). Open for good after that.
 */
export function firstListsGate(): Promise<void> { return listsGate; }
/** the first load ended without a graph to wait for (an error): the lists go ahead */
export function releaseFirstLists(): void { openListsGate(); }
/** the snapshot whose importance was last asked for (or is waiting to be): the same graph again needs no second request */
let rankAsked: GraphSnapshot | null = null;


export const createGraphSlice: StateCreator<AppState, [], [], GraphSlice> = (set, get) => ({
  graph: null,
  graphSeq: 0,
  graphLayer: undefined,
  canvasOverlay: null,
  canvasSteps: [],
  setCanvasOverlay(o) {
    set({ canvasOverlay: o });
  },
  canvasFilters: {},
  setCanvasFilters(patch) {
    set({ canvasFilters: { ...get().canvasFilters, ...patch } });
  },
  canvasFocus: null,
  async focusOn(nameOrId, depth) {
    const d = depth ?? get().canvasFocus?.depth ?? 1;
    try {
      // an id on the canvas needs no round trip; a name or alias is resolved by the core
      const root = get().graph?.nodes.some((n) => n.id === nameOrId) ? nameOrId
        : (await api.call('relations-get', { nameOrId, depth: 1, audience: get().audience })).root.id;
      set({ canvasFocus: { root, depth: d } });
    } catch (e) {
      get().toast(e instanceof Error ? e.message : String(e), 'error');
    }
  },
  clearFocus() {
    set({ canvasFocus: null });
  },
  canvasPins: {},
  canvasLayout: {},
  canvasRank: null,
  canvasFirstPainted() {
    openListsGate();
  },
  canvasFirstPicture() {
    pictured = true;
    const r = rankWaiting;
    rankWaiting = null;
    r?.();
  },
  async saveLayout(positions, replace) {
    // kept for the next graph's new elements (the canvas reads it on apply, it does not subscribe: no re-render)
    set({ canvasLayout: replace ? positions : { ...get().canvasLayout, ...positions } });
    try {
      await api.call('canvas-positions-set', { positions: {}, layout: positions, replaceLayout: replace });
    } catch (e) {
      get().toast(`layout not saved: ${e instanceof Error ? e.message : String(e)}`, 'error');
    }
  },
  async setPins(changes) {
    const next = { ...get().canvasPins };
    for (const [id, p] of Object.entries(changes)) if (p) next[id] = p; else delete next[id];
    set({ canvasPins: next });
    try {
      await api.call('canvas-positions-set', { positions: changes });
    } catch (e) {
      get().toast(`pins not saved: ${e instanceof Error ? e.message : String(e)}`, 'error');
    }
  },
  async loadGraph(opts) {
    const layer = get().graphLayer;
    const vaultDir = get().vault?.vaultDir ?? null;
    // pins are read once per vault; later they only change here (setPins), so a refresh never
    // overwrites a pin made while the graph was loading
    const pins = opts?.vaultDir || vaultDir !== pinsVault
      ? api.call('canvas-positions-get', { audience: get().audience }).then(async (r) => {
        pinsVault = opts?.vaultDir ? await opts.vaultDir : vaultDir;
        if (r.problem) get().toast(r.problem, 'error');
        return r;
      })
      : null;
    // the compact form (shared/graph-compact.ts): a third of graph-snapshot's JSON, the same snapshot decoded
    const [fresh, loaded] = await Promise.all([
      api.call('graph-compact', { ...(layer ? { layer } : {}), audience: get().audience }).then(decodeGraph), pins]);
    // a refresh that changed nothing (e.g. the end of an opening's sync) keeps the shown graph: no element rebuild
    const same = sameGraph(get().graph, fresh);
    const graph = same ? get().graph! : fresh;
    if (listsGo) {
      if (graph.nodes.length < LISTS_AFTER_PICTURE_AT) openListsGate(); else setTimeout(openListsGate, LISTS_WAIT_CAP_MS);
    }
    const graphSeq = get().graphSeq + 1;
    if (!same) set(loaded ? { graph, graphSeq, canvasPins: loaded.positions, canvasLayout: loaded.layout } : { graph, graphSeq });
    else set(loaded ? { graphSeq, canvasPins: loaded.positions, canvasLayout: loaded.layout } : { graphSeq });
    // importance follows (sizes and label priority; degree stands in until it arrives), once the canvas shows its first picture
    const rank = () => {
      api.call('canvas-importance', { audience: get().audience }).then((r) => {
        if (get().graph === graph) set({ canvasRank: new Map(Object.entries(r.ranks)) });
      }).catch(() => { if (rankAsked === graph) rankAsked = null; });
    };
    if (same && rankAsked === graph) { /* the same graph: the same ranks, asked for already */ } else {
      rankAsked = graph;
      if (pictured) rank(); else rankWaiting = rank;
    }
    // a focused neighbourhood follows the graph (an edit may add or remove neighbours)
    const focus = get().canvasFocus;
    if (focus && graph.nodes.some((n) => n.id === focus.root)) void get().focusOn(focus.root, focus.depth);
    else if (focus) set({ canvasFocus: null });
  },
});
