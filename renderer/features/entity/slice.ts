import type { StateCreator } from 'zustand';
import type { Res } from '../../../shared/contract.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';

/** The entity view as it arrives over the contract (properties are arbitrary JSON). */
export type EntityData = NonNullable<Res<'entity-get'>>;

export interface EntitySlice {
  /** id of the entity shown in the panel (and highlighted on the canvas) */
  selectedId: string | null;
  entity: EntityData | null;
  /** a name that was asked for and does not exist (a dangling [[link]]) */
  missing: string | null;
  /** the name of the entity the panel showed when its note went away (deleted or renamed outside) */
  gone: string | null;
  /** select by id or by name (a [[link]] target) */
  select(nameOrId: string): Promise<void>;
  clearSelection(): void;
  reloadEntity(): Promise<void>;
}

export const createEntitySlice: StateCreator<AppState, [], [], EntitySlice> = (set, get) => ({
  selectedId: null,
  entity: null,
  missing: null,
  gone: null,
  async select(nameOrId) {
    const entity = await api.call('entity-get', { nameOrId, audience: get().audience });
    if (entity) set({ selectedId: entity.id, entity, missing: null, gone: null });
    else set({ missing: nameOrId, gone: null });
  },
  clearSelection: () => set({ selectedId: null, entity: null, missing: null, gone: null }),
  async reloadEntity() {
    const id = get().selectedId;
    if (!id) return;
    const entity = await api.call('entity-get', { nameOrId: id, audience: get().audience });
    // the note may have been renamed or deleted: keep showing nothing rather than stale data
    // (by its name: the id is internal, e.g. "setting/marrow's chart")
    if (get().selectedId === id) set(entity ? { entity } : { entity: null, selectedId: null, missing: null, gone: get().entity?.name ?? null });
  },
});
