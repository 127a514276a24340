/**
 * The timeline scrubber's state. `timelineSession === null` = the scrubber is
 * off and the canvas shows the notes as written (no overlay); a number = the
 * world as of that session of `timelineLayer`, fed to the canvas through
 * `setCanvasOverlay` and to the entity panel through `timelineState`.
 *
 * Loading a layer prefetches every session's `timeline-graph-at` overlay in
 * the background (overlays below), so a step is applied at once, in the same
 * task as its input: no round trip, no React render of the canvas
 * (canvas/useOverlaySteps.ts). A step not fetched yet asks the core; answers
 * that arrive after a newer step was asked for are dropped (`seq`). The
 * panel's "as of" state is fetched after the step's frame.
 */
import type { StateCreator } from 'zustand';
import type { EntityStateData, TimelineSessions } from '../../../shared/contract-timeline.js';
import { api } from '../../api/client.js';
import { laterRemember, recall } from './axis.js';
import type { AppState } from '../../store/index.js';
import type { CanvasOverlay } from '../canvas/overlay.js';
import { stopsOf, toOverlay } from './model.js';

export interface TimelineSlice {
  timelineLayer: string | null;
  timeline: TimelineSessions | null;
  timelineSession: number | null;
  timelinePlaying: boolean;
  /** the selected entity as of `timelineSession` (null when off / nothing selected / not in scope) */
  timelineState: EntityStateData | null;
  /** the session `timelineState` is of (it follows a step's frame, so it may lag `timelineSession` briefly) */
  timelineStateAt: number | null;
  timelineError: string | null;
  /** load the layer's sessions and events (keeps the session when still meaningful) */
  loadTimeline(layer: string): Promise<void>;
  /** the layer and session last shown for this vault (localStorage), else the first of `layers` */
  restoreTimeline(layers: string[]): Promise<void>;
  /** show the world as of `session` (null = off) */
  setTimelineSession(session: number | null): Promise<void>;
  setTimelinePlaying(on: boolean): void;
  /** refetch the selected entity's state for the current session */
  loadTimelineState(): Promise<void>;
  /** whether a step to `session` of the shown layer needs no round trip (its overlay is prefetched) */
  timelineCached(session: number): boolean;
}

let seq = 0;
let stateSeq = 0;

/** Overlays of one layer's sessions, by session; `of` = the layer and sessions answer they belong to. */
const overlays: { of: { layer: string; t: TimelineSessions } | null; at: Map<number, NonNullable<CanvasOverlay>> } = { of: null, at: new Map() };
/** prefetch at most this many steps at once (the web shell answers the scrubber meanwhile) */
const PREFETCH_PARALLEL = 4;

async function prefetchOverlays(layer: string, t: TimelineSessions, audience: AppState['audience'], done: (all: CanvasOverlay[]) => void): Promise<void> {
  overlays.of = { layer, t };
  overlays.at = new Map();
  const mine = overlays.of;
  const todo = stopsOf(t).map((st) => st.session);
  const worker = async () => {
    for (let s = todo.shift(); s !== undefined && overlays.of === mine; s = todo.shift()) {
      if (overlays.at.has(s)) continue;
      try {
        const g = await api.call('timeline-graph-at', { layer, session: s, audience });
        if (overlays.of === mine) overlays.at.set(s, toOverlay(g));
      } catch { return; } // the step asks again when it is shown
    }
  };
  await Promise.all(Array.from({ length: PREFETCH_PARALLEL }, worker));
  if (overlays.of === mine && overlays.at.size === stopsOf(t).length) done([...overlays.at.values()]);
}

/**
 * The layer and session shown, remembered per vault (restored after a reload) once the steps pause, not at every
 * step of a scrub (a synchronous localStorage write in the step's input task); written at once when the page is
 * hidden or unloaded, and before it is read back.
 */
const remembered = laterRemember(() => localStorage, 250);
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => remembered.flush());
  window.addEventListener('beforeunload', () => remembered.flush());
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') remembered.flush(); });
}

/** Run `fn` after the next frame is drawn (the latest call wins). */
let afterFrameId = 0;
function afterFrame(fn: () => void): void {
  const my = ++afterFrameId;
  const run = () => setTimeout(() => { if (my === afterFrameId) fn(); }, 0);
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run); else run();
}

export const createTimelineSlice: StateCreator<AppState, [], [], TimelineSlice> = (set, get) => ({
  timelineLayer: null,
  timeline: null,
  timelineSession: null,
  timelinePlaying: false,
  timelineState: null,
  timelineStateAt: null,
  timelineError: null,

  async loadTimeline(layer) {
    try {
      overlays.of = null; // the files changed, another layer or another audience: no step from the old overlays
      const t = await api.call('timeline-sessions', { layer, audience: get().audience });
      const changedLayer = get().timelineLayer !== layer;
      set({ timelineLayer: layer, timeline: t, timelineError: null, canvasSteps: [] });
      const at = get().timelineSession;
      // the step shown first, then the other steps' overlays (their requests would queue ahead of it)
      if (changedLayer) await get().setTimelineSession(null);
      else if (at !== null) await get().setTimelineSession(at);
      void prefetchOverlays(layer, t, get().audience, (all) => set({ canvasSteps: all }));
    } catch (err) {
      set({ timelineError: err instanceof Error ? err.message : String(err) });
    }
  },

  async restoreTimeline(layers) {
    const dir = get().vault?.vaultDir;
    remembered.flush();
    const r = dir ? recall(localStorage, dir) : null;
    const layer = r && layers.includes(r.layer) ? r.layer : layers[0];
    if (!layer) return;
    await get().loadTimeline(layer);
    const t = get().timeline;
    // a session that no longer exists (its events were deleted) falls back to "as written"
    if (r && r.layer === layer && r.session !== null && t && stopsOf(t).some((st) => st.session === r.session)) await get().setTimelineSession(r.session);
  },

  async setTimelineSession(session) {
    const my = ++seq;
    const moved = get().timelineSession !== session;
    const layer = get().timelineLayer;
    const cached = layer && session !== null && overlays.of?.layer === layer ? overlays.at.get(session) : undefined;
    // a prefetched step: one store update, so the canvas restyles in this task and draws in the next frame
    set(cached ? { timelineSession: session, canvasOverlay: cached, timelineError: null } : { timelineSession: session });
    // the players' view shows what players know at this session: main hears of it first, then the views refetch
    if (moved && get().audience === 'players') await get().syncViewAt().catch((e: unknown) => get().toast(e instanceof Error ? e.message : String(e), 'error'));
    else if (moved) get().noteTimelineRest();
    const dir = get().vault?.vaultDir;
    if (dir && layer) remembered.note(dir, { layer, session });
    if (session === null || !layer) {
      get().setCanvasOverlay(null);
      set({ timelineState: null, timelinePlaying: false });
      return;
    }
    if (cached) {
      // the panel's "as of" state follows the frame
      afterFrame(() => void get().loadTimelineState());
      return;
    }
    try {
      const [g] = await Promise.all([api.call('timeline-graph-at', { layer, session, audience: get().audience }), get().loadTimelineState()]);
      if (my !== seq) return; // a newer step was asked for meanwhile
      const o = toOverlay(g);
      if (overlays.of?.layer === layer) overlays.at.set(session, o);
      get().setCanvasOverlay(o);
      set({ timelineError: null });
    } catch (err) {
      if (my === seq) set({ timelineError: err instanceof Error ? err.message : String(err) });
    }
  },

  setTimelinePlaying(on) {
    const t = get().timeline;
    if (on && t) {
      const stops = stopsOf(t);
      // play from the start when at the end (or off)
      const at = get().timelineSession;
      if (at === null || at >= stops[stops.length - 1]!.session) void get().setTimelineSession(stops[0]!.session);
    }
    set({ timelinePlaying: on && !!t });
  },

  timelineCached(session) {
    return overlays.of?.layer === get().timelineLayer && overlays.at.has(session);
  },

  async loadTimelineState() {
    const my = ++stateSeq;
    const { timelineLayer: layer, timelineSession: session, selectedId } = get();
    if (!layer || session === null || !selectedId) { set({ timelineState: null }); return; }
    try {
      const st = await api.call('timeline-state', { nameOrId: selectedId, layer, session, audience: get().audience });
      if (my === stateSeq) set({ timelineState: st, timelineStateAt: session });
    } catch {
      // an entity outside the layer's scope has no timeline state
      if (my === stateSeq) set({ timelineState: null });
    }
  },
});
