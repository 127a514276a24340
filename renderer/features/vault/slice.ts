import type { StateCreator } from 'zustand';
import type { SchemaView, VaultInfo } from '../../../shared/contract.js';
import type { SyncStatus } from '../../../shared/types.js';
import { api, type ConnectionState } from '../../api/client.js';
import type { AppState } from '../../store/index.js';
import { firstListsGate, releaseFirstLists } from '../canvas/slice.js';

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
  /** refetch what the UI shows after the graph changed (graph: false = all but the canvas's graph) */
  refresh(opts?: { graph?: boolean }): Promise<void>;
}

/** Coalesces refreshes: at most one running and one queued (which reloads the graph if any of its callers asked). */
let running: Promise<void> | null = null;
let queued = false;
let queuedGraph = false;

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
      const status = api.call('vault-status', {});
      // the canvas's graph is asked for at once, beside vault-status and schema-get (its pins with it):
      // on a big vault it is the longest answer, and the first frame waits for it
      const graph = get().loadGraph({ vaultDir: status.then((v) => v.vaultDir) });
      const [vault, schemaView] = await Promise.all([status, api.call('schema-get', {})]);
      set({ vault, schemaView, status: vault.status, error: null });
      // the rest (the entity list: ~0.9 MB at 5k) once the graph is in: asked for beside it, its answer
      // held the graph's pins back on the shell and its parse held the first frame back here
      await graph;
      // and, for a big graph, once the canvas has placed its first picture (firstListsGate)
      await firstListsGate();
      await get().refresh({ graph: false });
    } catch (err) {
      releaseFirstLists();
      set({ error: err instanceof Error ? err.message : String(err) });
    }
  },

  async refresh(opts) {
    const withGraph = opts?.graph ?? true;
    if (running) { queued = true; queuedGraph ||= withGraph; return running; }
    const once = async (graph: boolean) => {
      const s = get();
      await Promise.all([
        api.call('vault-status', {}).then((v) => set({ vault: v, status: v.status })),
        s.loadEntities(),
        graph ? s.loadGraph() : Promise.resolve(),
        s.reloadEntity(),
        s.query.trim() ? s.runSearch() : Promise.resolve(),
      ]);
    };
    running = (async () => {
      try {
        let graph = withGraph;
        do { queued = false; await once(graph); graph = queuedGraph; queuedGraph = false; } while (queued);
      } catch (err) {
        set({ error: err instanceof Error ? err.message : String(err) });
      } finally {
        running = null;
      }
    })();
    return running;
  },
});
