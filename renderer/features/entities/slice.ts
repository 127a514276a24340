import type { StateCreator } from 'zustand';
import type { EntitySummary } from '../../../shared/types.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';

export interface EntitiesSlice {
  entities: EntitySummary[];
  entitiesTotal: number;
  loadEntities(): Promise<void>;
}

/** The sidebar lists every (non-placeholder) entity; large vaults show groups collapsed. */
export const createEntitiesSlice: StateCreator<AppState, [], [], EntitiesSlice> = (set, get) => ({
  entities: [],
  entitiesTotal: 0,
  async loadEntities() {
    const { items, total } = await api.call('entity-list', { limit: 100_000, audience: get().audience });
    set({ entities: items, entitiesTotal: total });
  },
});
