import type { StateCreator } from 'zustand';
import type { SchemaView, VaultInfo } from '../../../shared/contract.js';
import type { SyncStatus } from '../../../shared/types.js';
import { api, type ConnectionState } from '../../api/client.js';
import type { AppState } from '../../store/index.js';

export interface VaultSlice {
  vault: VaultInfo | null;
  schemaView: SchemaView | null;
  status: SyncStatus | null;
  connection: ConnectionState;
  /** last error from main, shown in the status bar */
  error: string | null;
  setConnection(c: ConnectionState): void;
  setStatus(s: SyncStatus): void;
  setError(message: string | null): void;
  /** (re)load everything shown: vault info, schema, lists, graph, the open entity */
  loadAll(): Promise<void>;
  /** refetch what the UI shows after the graph changed */
  refresh(): Promise<void>;
}

/** Coalesces refreshes: at most one running and one queued. */
let running: Promise<void> | null = null;
let queued = false;

export const createVaultSlice: StateCreator<AppState, [], [], VaultSlice> = (set, get) => ({
  vault: null,
  schemaView: null,
  status: null,
  connection: 'connecting',
  error: null,
  setConnection: (connection) => set({ connection }),
  setStatus: (status) => set({ status }),
  setError: (error) => set({ error }),

  async loadAll() {
    try {
      const [vault, schemaView] = await Promise.all([api.call('vault-status', {}), api.call('schema-get', {})]);
      set({ vault, schemaView, status: vault.status, error: null });
      await get().refresh();
    } catch (err) {
      set({ error: err instanceof Error ? err.message : String(err) });
    }
  },

  async refresh() {
    if (running) { queued = true; return running; }
    const once = async () => {
      const s = get();
      await Promise.all([
        api.call('vault-status', {}).then((v) => set({ vault: v, status: v.status })),
        s.loadEntities(),
        s.loadGraph(),
        s.reloadEntity(),
        s.query.trim() ? s.runSearch() : Promise.resolve(),
      ]);
    };
    running = (async () => {
      try {
        do { queued = false; await once(); } while (queued);
      } catch (err) {
        set({ error: err instanceof Error ? err.message : String(err) });
      } finally {
        running = null;
      }
    })();
    return running;
  },
});
