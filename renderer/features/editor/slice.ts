/**
 * Entity editor state: which entity the editor drawer shows (its form, read
 * from the file by `edit-form`), toasts, and app-level undo/redo through
 * edit-undo / edit-redo (the write-back history in main; refusals become toasts).
 */
import type { StateCreator } from 'zustand';
import type { EditForm } from '../../../shared/contract-edit.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';

export interface Toast { id: number; text: string; kind: 'info' | 'error' }

export interface EditorSlice {
  editorId: string | null;
  editorForm: EditForm | null;
  editorError: string | null;
  /** bumps on every (re)load, so the prose editor knows when its baseline changed underneath */
  editorSeq: number;
  toasts: Toast[];
  openEditor(nameOrId: string): Promise<void>;
  closeEditor(): void;
  reloadEditor(): Promise<void>;
  toast(text: string, kind?: Toast['kind']): void;
  dismissToast(id: number): void;
  undo(): Promise<void>;
  redo(): Promise<void>;
}

let toastSeq = 0;

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = (set, get) => ({
  editorId: null,
  editorForm: null,
  editorError: null,
  editorSeq: 0,
  toasts: [],
  async openEditor(nameOrId) {
    if (get().readOnly()) return;
    try {
      const form = await api.call('edit-form', { nameOrId });
      set({ editorId: form.entity.id, editorForm: form, editorError: null, editorSeq: get().editorSeq + 1 });
      // the panel shows what is being edited (opening from the canvas or a dialog selects it too)
      if (get().selectedId !== form.entity.id) await get().select(form.entity.id);
    } catch (e) {
      get().toast(errorText(e), 'error');
    }
  },
  closeEditor: () => set({ editorId: null, editorForm: null, editorError: null }),
  async reloadEditor() {
    const id = get().editorId;
    if (!id) return;
    try {
      const form = await api.call('edit-form', { nameOrId: id });
      if (get().editorId !== id) return;
      // same bytes: keep the objects, so nothing re-renders and no input loses what is being typed
      if (form.hash === get().editorForm?.hash) return;
      set({ editorForm: form, editorError: null, editorSeq: get().editorSeq + 1 });
    } catch (e) {
      if (get().editorId === id) set({ editorError: errorText(e) });
    }
  },
  toast(text, kind = 'info') {
    const id = ++toastSeq;
    set({ toasts: [...get().toasts, { id, text, kind }].slice(-4) });
    setTimeout(() => get().dismissToast(id), kind === 'error' ? 8000 : 4000);
  },
  dismissToast: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
  async undo() {
    try {
      const r = await api.call('edit-undo', {});
      get().toast(`Undid: ${r.label}`);
    } catch (e) {
      get().toast(errorText(e), 'error');
    }
  },
  async redo() {
    try {
      const r = await api.call('edit-redo', {});
      get().toast(`Redid: ${r.label}`);
    } catch (e) {
      get().toast(errorText(e), 'error');
    }
  },
});
