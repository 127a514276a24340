/**
 * The schema setup panel's state: the proposal from main, the GM's choices,
 * the preview after each change, and accept (with the reviewed diff of an
 * existing schema.yaml when there is one). Accept that writes makes main
 * reopen the vault; the `vault-opened` push then reloads everything, typed.
 */
import type { StateCreator } from 'zustand';
import type { FilePlanView, SetupViewData, TypeChoiceView } from '../../../shared/contract-schema-setup.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';
import { choiceList, initialChoices, type Choices } from './model.js';

export interface SchemaSetupSlice {
  setupOpen: boolean;
  /** the banner was closed for this vault */
  setupDismissed: boolean;
  setupView: SetupViewData | null;
  setupChoices: Choices;
  setupBusy: boolean;
  setupError: string | null;
  /** files whose diff the GM must confirm before they are replaced */
  setupPending: FilePlanView[];
  setupDone: string | null;
  openSetup(): Promise<void>;
  closeSetup(): void;
  dismissSetup(): void;
  setChoice(id: string, patch: Partial<TypeChoiceView>): Promise<void>;
  acceptSetup(confirmed?: boolean): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export const createSchemaSetupSlice: StateCreator<AppState, [], [], SchemaSetupSlice> = (set, get) => ({
  setupOpen: false,
  setupDismissed: false,
  setupView: null,
  setupChoices: {},
  setupBusy: false,
  setupError: null,
  setupPending: [],
  setupDone: null,

  async openSetup() {
    set({ setupOpen: true, setupBusy: true, setupError: null, setupPending: [], setupDone: null });
    try {
      const view = await api.call('schema-setup-propose', {});
      set({ setupView: view, setupChoices: initialChoices(view.candidates) });
    } catch (e) {
      set({ setupError: message(e) });
    } finally {
      set({ setupBusy: false });
    }
  },
  closeSetup: () => set({ setupOpen: false, setupPending: [] }),
  dismissSetup: () => set({ setupDismissed: true }),

  async setChoice(id, patch) {
    const cur = get().setupChoices[id];
    if (!cur) return;
    const choices = { ...get().setupChoices, [id]: { ...cur, ...patch } };
    set({ setupChoices: choices, setupPending: [], setupError: null });
    try {
      const view = await api.call('schema-setup-preview', { choices: choiceList(choices) });
      if (get().setupChoices === choices) set({ setupView: view });
    } catch (e) {
      set({ setupError: message(e) });
    }
  },

  async acceptSetup(confirmed = false) {
    const { setupChoices, setupPending } = get();
    const confirm = confirmed ? Object.fromEntries(setupPending.filter((f) => f.hash).map((f) => [f.file, f.hash!])) : undefined;
    set({ setupBusy: true, setupError: null });
    try {
      const res = await api.call('schema-setup-accept', { choices: choiceList(setupChoices), ...(confirm ? { confirm } : {}) });
      if (res.pending.length) set({ setupPending: res.pending });
      else {
        const written = res.files.filter((f) => f.status === 'written').map((f) => f.file);
        set({ setupOpen: false, setupPending: [], setupDone: written.length ? `wrote ${written.join(' and ')}` : 'nothing to write' });
      }
    } catch (e) {
      set({ setupError: message(e) });
    } finally {
      set({ setupBusy: false });
    }
  },
});
