/**
 * Delete and the trash, from the UI: every entry point (panel button, context
 * menu on a node or a list item, Delete key on the selected node) calls
 * askDelete, which fetches the referrers for the confirmation; confirmDelete
 * runs edit-delete (the file goes to .lorecraft/trash, one undo step).
 * The trash dialog lists .lorecraft/trash and restores a file (edit-restore).
 */
import type { StateCreator } from 'zustand';
import type { Res } from '../../../shared/contract.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';
import { errorText } from '../editor/slice.js';

export type DeleteAsk = Res<'edit-delete-preview'>;
export type TrashItem = Res<'edit-trash'>[number];

export interface TrashSlice {
  deleteAsk: DeleteAsk | null;
  askDelete(nameOrId: string): Promise<void>;
  confirmDelete(): Promise<void>;
  cancelDelete(): void;
  /** the context menu of an entity (node or list item), at client coordinates */
  entityMenu: { id: string; x: number; y: number } | null;
  openEntityMenu(id: string, x: number, y: number): void;
  closeEntityMenu(): void;
  trashItems: TrashItem[] | null;
  openTrash(): Promise<void>;
  closeTrash(): void;
  restoreFromTrash(trashPath: string): Promise<void>;
}

export const createTrashSlice: StateCreator<AppState, [], [], TrashSlice> = (set, get) => ({
  deleteAsk: null,
  async askDelete(nameOrId) {
    set({ entityMenu: null });
    if (get().readOnly()) return;
    try {
      set({ deleteAsk: await api.call('edit-delete-preview', { nameOrId }) });
    } catch (e) {
      get().toast(errorText(e), 'error');
    }
  },
  async confirmDelete() {
    const ask = get().deleteAsk;
    if (!ask) return;
    set({ deleteAsk: null });
    try {
      const r = await api.call('edit-delete', { nameOrId: ask.id });
      if (get().editorId === ask.id) get().closeEditor();
      if (get().selectedId === ask.id) get().clearSelection();
      get().toast(`Deleted ${ask.name}: moved to ${r.trashPath} (Ctrl+Z to undo)`, 'info');
      if (get().trashItems) await get().openTrash();
    } catch (e) {
      get().toast(errorText(e), 'error');
    }
  },
  cancelDelete: () => set({ deleteAsk: null }),
  entityMenu: null,
  openEntityMenu: (id, x, y) => set({ entityMenu: { id, x, y } }),
  closeEntityMenu: () => set({ entityMenu: null }),
  trashItems: null,
  async openTrash() {
    try {
      set({ trashItems: await api.call('edit-trash', {}) });
    } catch (e) {
      get().toast(errorText(e), 'error');
    }
  },
  closeTrash: () => set({ trashItems: null }),
  async restoreFromTrash(trashPath) {
    try {
      const r = await api.call('edit-restore', { trashPath });
      get().toast(`Restored ${r.path} (Ctrl+Z to undo)`, 'info');
      set({ trashItems: await api.call('edit-trash', {}) });
    } catch (e) {
      get().toast(errorText(e), 'error');
    }
  },
});
