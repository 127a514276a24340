/**
 * The players' view (issue 17): which audience the app shows. Switching tells main (`view-set`: from then
 * on the core answers every read as the players see the world at the timeline's layer and session, and
 * refuses every write), then refetches what is shown. Every read passes `audience` (the core enforces it
 * anyway while the view is the players'). Editing actions check `readOnly()` first.
 */
import type { StateCreator } from 'zustand';
import type { AudienceName } from '../../../shared/contract-view.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';

export const READ_ONLY_TEXT = "The players' view is read-only: switch to the GM view (v) to edit.";

export interface ViewSlice {
  audience: AudienceName;
  /** true while switching (the header shows it) */
  switching: boolean;
  setAudience(a: AudienceName): Promise<void>;
  toggleAudience(): Promise<void>;
  /** in the players' view: says so (a toast) and returns true; callers then do nothing */
  readOnly(): boolean;
  /** tell main the layer and session the players' view shows (the timeline moved) */
  syncViewAt(): Promise<void>;
  /** in the GM view: tell main where the timeline came to rest, so it builds the players' view there ahead of a switch */
  noteTimelineRest(): void;
  exportOpen: boolean;
  setExportOpen(open: boolean): void;
}

/** the GM's timeline is told to main once it rests this long (not at every step of a scrub) */
const REST_MS = 250;
let restTimer: ReturnType<typeof setTimeout> | null = null;

export const createViewSlice: StateCreator<AppState, [], [], ViewSlice> = (set, get) => ({
  audience: 'gm',
  switching: false,
  async setAudience(audience) {
    if (audience === get().audience) return;
    if (restTimer) { clearTimeout(restTimer); restTimer = null; }
    set({ switching: true });
    try {
      const { timelineLayer: layer, timelineSession: session } = get();
      await api.call('view-set', { audience, layer, session });
      // the editor and any open dialog are for the GM only
      if (audience === 'players') set({ editorId: null, editorForm: null, editorError: null });
      set({ audience });
      await Promise.all([get().refresh(), get().loadProblems(), layer ? get().loadTimeline(layer) : Promise.resolve()]);
    } catch (e) {
      get().toast(e instanceof Error ? e.message : String(e), 'error');
    } finally {
      set({ switching: false });
    }
  },
  toggleAudience() {
    return get().setAudience(get().audience === 'gm' ? 'players' : 'gm');
  },
  readOnly() {
    if (get().audience !== 'players') return false;
    get().toast(READ_ONLY_TEXT, 'error');
    return true;
  },
  async syncViewAt() {
    if (get().audience !== 'players') return;
    const { timelineLayer: layer, timelineSession: session } = get();
    await api.call('view-set', { audience: 'players', layer, session });
    await Promise.all([get().refresh(), get().loadProblems()]);
  },
  noteTimelineRest() {
    if (get().audience !== 'gm') return;
    if (restTimer) clearTimeout(restTimer);
    restTimer = setTimeout(() => {
      restTimer = null;
      // a switch under way says where the view is itself (and must not be overtaken by a GM view-set)
      if (get().audience !== 'gm' || get().switching) return;
      const { timelineLayer: layer, timelineSession: session } = get();
      api.call('view-set', { audience: 'gm', layer, session }).catch(() => undefined);
    }, REST_MS);
  },
  exportOpen: false,
  setExportOpen: (exportOpen) => set({ exportOpen }),
});
