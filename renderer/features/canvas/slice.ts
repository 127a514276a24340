import type { StateCreator } from 'zustand';
import type { GraphSnapshot } from '../../../shared/types.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';
import type { CanvasOverlay } from './overlay.js';

export interface GraphSlice {
  graph: GraphSnapshot | null;
  /** layer shown on the canvas; undefined = every layer */
  graphLayer: string | undefined;
  loadGraph(): Promise<void>;
  /** the timeline's overlay (see overlay.ts); null = none */
  canvasOverlay: CanvasOverlay;
  setCanvasOverlay(o: CanvasOverlay): void;
}

export const createGraphSlice: StateCreator<AppState, [], [], GraphSlice> = (set, get) => ({
  graph: null,
  graphLayer: undefined,
  canvasOverlay: null,
  setCanvasOverlay(o) {
    set({ canvasOverlay: o });
  },
  async loadGraph() {
    const layer = get().graphLayer;
    const graph = await api.call('graph-snapshot', layer ? { layer } : {});
    set({ graph });
  },
});
