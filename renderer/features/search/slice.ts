import type { StateCreator } from 'zustand';
import type { SearchHit } from '../../../shared/types.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';

export interface SearchSlice {
  query: string;
  hits: SearchHit[];
  /** the query the hits answer (results of an older query arriving late are dropped) */
  hitsFor: string;
  setQuery(q: string): void;
  runSearch(): Promise<void>;
}

export const createSearchSlice: StateCreator<AppState, [], [], SearchSlice> = (set, get) => ({
  query: '',
  hits: [],
  hitsFor: '',
  setQuery(query) {
    set({ query });
    if (!query.trim()) set({ hits: [], hitsFor: '' });
  },
  async runSearch() {
    const text = get().query.trim();
    if (!text) return;
    const hits = await api.call('search-query', { text, limit: 50, audience: get().audience });
    if (get().query.trim() === text) set({ hits, hitsFor: text });
  },
});
