/**
 * The timeline scrubber's state. `timelineSession === null` = the scrubber is
 * off and the canvas shows the notes as written (no overlay); a number = the
 * world as of that session of `timelineLayer`, fed to the canvas through
 * `setCanvasOverlay` and to the entity panel through `timelineState`.
 *
 * Steps fetch `timeline-graph-at` (the engine memoises per session); answers
 * that arrive after a newer step was asked for are dropped (`seq`).
 */
import type { StateCreator } from 'zustand';
import type { EntityStateData, TimelineSessions } from '../../../shared/contract-timeline.js';
import { api } from '../../api/client.js';
import { recall, remember } from './axis.js';
import type { AppState } from '../../store/index.js';
import { stopsOf, toOverlay } from './model.js';

export interface TimelineSlice {
  timelineLayer: string | null;
  timeline: TimelineSessions | null;
  timelineSession: number | null;
  timelinePlaying: boolean;
  /** the selected entity as of `timelineSession` (null when off / nothing selected / not in scope) */
  timelineState: EntityStateData | null;
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
}

let seq = 0;
let stateSeq = 0;

export const createTimelineSlice: StateCreator<AppState, [], [], TimelineSlice> = (set, get) => ({
  timelineLayer: null,
  timeline: null,
  timelineSession: null,
  timelinePlaying: false,
  timelineState: null,
  timelineError: null,

  async loadTimeline(layer) {
    try {
      const t = await api.call('timeline-sessions', { layer, audience: get().audience });
      const changedLayer = get().timelineLayer !== layer;
      set({ timelineLayer: layer, timeline: t, timelineError: null });
      const at = get().timelineSession;
      if (changedLayer) await get().setTimelineSession(null);
      else if (at !== null) await get().setTimelineSession(at);
    } catch (err) {
      set({ timelineError: err instanceof Error ? err.message : String(err) });
    }
  },

  async restoreTimeline(layers) {
    const dir = get().vault?.vaultDir;
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
    set({ timelineSession: session });
    // the players' view shows what players know at this session: main hears of it first, then the views refetch
    if (moved && get().audience === 'players') await get().syncViewAt().catch((e: unknown) => get().toast(e instanceof Error ? e.message : String(e), 'error'));
    const layer = get().timelineLayer;
    const dir = get().vault?.vaultDir;
    if (dir && layer) remember(localStorage, dir, { layer, session });
    if (session === null || !layer) {
      get().setCanvasOverlay(null);
      set({ timelineState: null, timelinePlaying: false });
      return;
    }
    try {
      const [g] = await Promise.all([api.call('timeline-graph-at', { layer, session, audience: get().audience }), get().loadTimelineState()]);
      if (my !== seq) return; // a newer step was asked for meanwhile
      get().setCanvasOverlay(toOverlay(g));
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

  async loadTimelineState() {
    const my = ++stateSeq;
    const { timelineLayer: layer, timelineSession: session, selectedId } = get();
    if (!layer || session === null || !selectedId) { set({ timelineState: null }); return; }
    try {
      const st = await api.call('timeline-state', { nameOrId: selectedId, layer, session, audience: get().audience });
      if (my === stateSeq) set({ timelineState: st });
    } catch {
      // an entity outside the layer's scope has no timeline state
      if (my === stateSeq) set({ timelineState: null });
    }
  },
});
