/**
 * openCore(): the composition root. Loads lorecraft.yaml + schema.yaml, takes
 * the vault lock, opens the Kùzu store (a corrupt database is deleted: it is a
 * cache of the files), builds the sync engine, and by default brings the graph
 * up to date (incremental by hash; a rebuild when the schema or format changed).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compileSchema } from '../config/schema-index.js';
import { loadVaultConfig } from '../config/load.js';
import { fromSchemaIndex } from '../model/schema-adapter.js';
import { createKuzuStore } from '../store/kuzu-store.js';
import type { GraphStore } from '../store/types.js';
import type { SyncProgress } from '../../shared/types.js';
import { LayerMap } from '../model/layers.js';
import { VaultSyncEngine, engineParseOptions, readVault } from '../sync/engine.js';
import type { VaultFs, WatcherFactory } from '../sync/ports.js';
import { NoteCache, PARSE_FORMAT } from '../sync/stat-cache.js';
import { ModelSnapshotFile } from '../model/snapshot.js';
import { CoreError } from './api.js';
import { CoreImpl, type CoreHost } from './core.js';
import { VaultLock } from './lock.js';
import { collectGarbage, gcAfterOpenEnabled } from './memory.js';

export type { CoreHost } from './core.js';
export { nodeVaultFs, nodeWatcher, type VaultFs, type VaultWatcherLike, type WatcherFactory, type WatcherOptions } from '../sync/ports.js';
export { CoreError } from './api.js';
export * from './install.js';
export { SchemaSetup, schemaSetupFor, type SetupView, type AcceptResult, type FilePlan, type TypeChoice } from './schema-setup.js';
// What the shells and the app layer may use: they import nothing else of main/ but this index
// (and main/domain, shared/), enforced by eslint.config.js.
export type { ErrorCode } from '../domain/errors.js';
export type { Schema, VaultConfig } from '../config/types.js';
export type { Core, Direction, EntityQuery, ListFilter, LookupMatch, TrashItem } from './api.js';
export { CoreSession, NoVaultError, openWatchedCore, type CoreOpener } from './session.js';
export type { RecordEventArgs, RecordEventResult } from './events.js';
export { liveView, playersSchema, PLAYERS_READ_ONLY, type Audience, type PlayersTimeline, type ViewQuery } from './audience.js';
export { CANVAS_FILE, readCanvas, changeCanvas, type CanvasChange, type CanvasFile } from './canvas.js';
export type { Changed, EditOptions, EditResult, Editor, HistoryEntry } from '../edit/commands.js';
export type { EntityStateView, Provenance, TimelineEvent, TimelineQuery, TimelineService } from '../timeline/index.js';

/** Bump when the model's output changes meaning (ids, edges, properties): stored graphs rebuild. */
export const MODEL_VERSION = 'model-1';

export interface OpenCoreOptions {
  vaultDir: string;
  /** default <vault>/.lorecraft */
  dbDir?: string;
  configPath?: string;
  schemaPath?: string;
  /** start the watcher after the first sync */
  watch?: boolean;
  /** sync before returning (default true; the `sync` command passes false and syncs itself) */
  sync?: boolean;
  /** force a full rebuild on the first sync */
  full?: boolean;
  /** how the vault's notes are listed and read (default: node:fs; main/sync/ports.ts) */
  fs?: VaultFs;
  /** how changes are watched (default: one fs.watch per folder; main/sync/ports.ts) */
  watcher?: WatcherFactory;
  /**
   * Return once the first sync's model holds the vault (the core answers list, lookup and getEntity from it)
   * instead of when the graph is queryable: the store's load and the full-text index go on in the background
   * (store reads and every change wait for them in their queues; status() says 'syncing' until done; a
   * failure shows as state 'error'). The watcher starts after the sync.
   */
  interactive?: boolean;
  /**
   * Where the first sync is (files read / total, then 'loading', 'indexing', then null when search is ready):
   * the app's status bar and the CLI's TTY line. Also after openCore returned (interactive: the load goes on).
   */
  onProgress?: (p: SyncProgress | null) => void;
  /** the graph store over `dbDir` (default: Kùzu, main/store/kuzu-store.ts); tests hand in one they hold back */
  store?: (dbDir: string) => GraphStore;
}

export async function openCore(opts: OpenCoreOptions): Promise<CoreHost> {
  const vaultDir = resolve(opts.vaultDir);
  if (!existsSync(vaultDir) || !statSync(vaultDir).isDirectory()) {
    throw new CoreError('vault-missing', `${opts.vaultDir}: no such folder`, { vaultDir });
  }
  const defaultDb = join(vaultDir, '.lorecraft');
  const dbDir = opts.dbDir ? resolve(opts.dbDir) : defaultDb;
  mkdirSync(dbDir, { recursive: true });
  if (dbDir === defaultDb && !existsSync(join(dbDir, '.gitignore'))) writeFileSync(join(dbDir, '.gitignore'), '*\n');
  const lock = VaultLock.acquire(dbDir);
  let store: GraphStore | null = null;
  try {
    const loaded = loadVaultConfig(vaultDir, { ...(opts.configPath ? { configPath: opts.configPath } : {}), ...(opts.schemaPath ? { schemaPath: opts.schemaPath } : {}) });
    const index = compileSchema(loaded.schema, loaded.config.calendar ?? null);
    const fingerprint = createHash('sha256')
      .update(`${MODEL_VERSION}\n${index.fingerprint}\n${JSON.stringify({ layers: loaded.config.layers, exclude: loaded.config.exclude, templates: [loaded.config.exclude_templates, loaded.config.template_folders], vaultFiles: loaded.config.vault_files, title: loaded.schema.title_field })}`)
      .digest('hex').slice(0, 32);
    const schemaView = fromSchemaIndex(index);
    const syncNow = opts.sync !== false || !!opts.watch;
    // The first sync's notes are read while an existing database opens (Kùzu opens on a thread-pool thread; opening
    // a 10k vault's database with its full-text index takes 0.1-0.3 s here), and the database starts opening
    // before the note cache is deserialised on this thread. Only when this call runs that sync at once: notes
    // read ahead for a later sync could be stale by then.
    const parseOpts = engineParseOptions(schemaView);
    const layers = syncNow ? new LayerMap(loaded.config) : null;
    const makeStore = opts.store ?? createKuzuStore;
    store = makeStore(dbDir);
    // An interactive open of a vault with no database yet (its first open): the database opens once the model
    // answers, not while the notes are read. Creating it and beginning its load competed with the read for the
    // CPU (paired interactive opens of the 10k vault here: ~10 ms less to interactive; without any store work at
    // all, 25-60 ms less). It can only be new and empty; whatever the store is asked meanwhile waits for it.
    const deferOpen = !!opts.interactive && syncNow && !existsSync(join(dbDir, 'graph.kuzu')) && !existsSync(join(dbDir, 'graph.kuzu.wal'));
    let modelReady: () => void = () => undefined;
    const gate = deferOpen ? new Promise<void>((res) => { modelReady = res; }) : null;
    const opening = store.open(loaded.schema, fingerprint, gate ? { after: gate } : {});
    opening.catch(() => undefined);
    // notes whose file's stat is unchanged since the last read come from <dbDir>/notes.cache (stat-cache.ts); its
    // file is read by readVault once the walk has started (a sync later than this call reads it at its own begin())
    const noteCache = NoteCache.open(join(dbDir, 'notes.cache'), parseOpts);
    const prefetched = layers ? readVault(vaultDir, layers, parseOpts, noteCache, opts.fs, opts.onProgress) : undefined;
    prefetched?.catch(() => undefined);
    let fresh: boolean;
    try {
      // deferred: a database that does not exist yet is fresh (the open's own failure is the sync's)
      fresh = gate ? true : !(await opening);
    } catch {
      // the store could not open its database even after its own retry: wipe the cache and start over
      await store.close().catch(() => undefined);
      for (const f of ['graph.kuzu', 'graph.kuzu.wal', 'graph.kuzu.shadow', 'graph.kuzu.tmp']) await rm(join(dbDir, f), { recursive: true, force: true });
      store = makeStore(dbDir);
      fresh = !(await store.open(loaded.schema, fingerprint));
    }
    const engine = new VaultSyncEngine({
      vaultDir, config: loaded.config, schemaView, store,
      storeStale: fresh, configProblems: loaded.problems, noteCache, ...(prefetched ? { prefetched } : {}),
      // the resolved model of the last sync (model/snapshot.ts), for the same model version, schema, config and parser
      modelSnapshot: new ModelSnapshotFile(join(dbDir, 'model.snap'), createHash('sha256')
        .update(JSON.stringify([fingerprint, PARSE_FORMAT, parseOpts, loaded.config, loaded.schema])).digest('hex')),
      ...(opts.fs ? { fs: opts.fs } : {}), ...(opts.watcher ? { watcher: opts.watcher } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(gcAfterOpenEnabled() ? { collectGarbage: () => void collectGarbage() } : {}),
    });
    const core = new CoreImpl(vaultDir, dbDir, engine, store, index, lock);
    try {
      if (opts.interactive && syncNow) {
        // watching from now on: the UI answers while the graph loads, and a file changed meanwhile must be
        // seen (its batch waits in the engine's queue behind this sync)
        const watching = opts.watch ? core.watch() : Promise.resolve();
        watching.catch(() => undefined);
        await new Promise<void>((answered, failed) => {
          engine.syncAll({ full: !!opts.full, onModel: () => { modelReady(); answered(); } }).catch(failed);
        });
        await watching;
      } else {
        if (syncNow) await core.sync({ full: !!opts.full });
        if (opts.watch) await core.watch();
      }
    } catch (err) {
      await core.close().catch(() => undefined);
      throw err;
    }
    return core;
  } catch (err) {
    if (store) await store.close().catch(() => undefined);
    lock.release();
    throw err;
  }
}
export * from './offline.js';

export { DEFAULT_STATUS_FIELDS } from '../timeline/compile.js';
