/**
 * The sync engine: keeps model and store equal to the files.
 *
 * - syncAll(): walk + read/parse + model build; then a bulk rebuild (COPY
 *   FROM) when the store is empty, stale (fingerprint) or `full`, else only
 *   the difference. Into a store as open() created it, the rebuild is a
 *   RebuildSession: opened while the files are read, the notes' records
 *   copied while the model resolves references. The FTS index is built after
 *   the graph is queryable (searchReady()).
 * - applyPaths(): targeted re-read (write-back, watcher).
 * - watcher (watcher.ts: one fs.watch per folder): events are coalesced into
 *   batches (quiet window, capped wait) and applied through the same path.
 * Every model/store mutation runs in one TaskQueue, so the store sees deltas
 * in model order; a ChangeEvent is emitted after the store applied the delta.
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import type { ChangeEvent, Problem, SyncProgress, SyncReport, SyncStatus } from '../../shared/types.js';
import type { VaultConfig } from '../config/types.js';
import type { LayerMap } from '../model/layers.js';
import { VaultModel } from '../model/model.js';
import type { SchemaView } from '../model/schema-view.js';
import type { ModelSnapshotFile } from '../model/snapshot.js';
import type { ParseOptions } from '../parse/parse.js';
import type { ParsedNote } from '../parse/types.js';
import type { GraphDelta, GraphStore, RebuildSession } from '../store/types.js';
import { deltaIsEmpty, diffAgainstStore } from './diff.js';
import { TaskQueue } from '../domain/queue.js';
import { CoreError, isCoreError } from '../domain/errors.js';
import type { ReadOutcome } from './read.js';
import type { NoteCache } from './stat-cache.js';
import { bodyInMemory, hugeBodyInMemory, makeBodyLazy } from './body.js';
import { nodeVaultFs, nodeWatcher, type VaultFs, type VaultWatcherLike, type WatcherFactory } from './ports.js';
import type { SyncEngine } from './types.js';
import { isNotePath, type WalkResult } from './walk.js';

/** batches up to this many files are read synchronously (see applyNow) */
const SYNC_READ_MAX = 32;

export interface EngineOptions {
  vaultDir: string;
  config: VaultConfig;
  schemaView: SchemaView;
  store: GraphStore;
  /** the store is empty or from another schema/format: the first sync rebuilds */
  storeStale?: boolean;
  /** problems of lorecraft.yaml / schema.yaml, shown with the notes' problems */
  configProblems?: Problem[];
  /** parser limits (title field comes from the schema) */
  maxBytes?: number;
  /** watcher: quiet time before a batch is applied, and the longest a batch waits */
  debounceMs?: number;
  maxWaitMs?: number;
  /**
   * watcher: write-finish guard, no event for a file for this long means its writer is done.
   * The watcher waits max(debounceMs, stabilityMs) of quiet (one window, as every write step is an event).
   */
  stabilityMs?: number;
  /**
   * The vault's read, started before the engine existed (openCore reads while the database opens): the
   * first syncAll takes it instead of reading again. Only for a sync that follows at once (the notes must not
   * go stale in between), read with this engine's layers and engineParseOptions().
   */
  prefetched?: Promise<VaultRead>;
  /** how notes are listed and read (default: node:fs, ports.ts) */
  fs?: VaultFs;
  /** how changes are watched (default: one fs.watch per folder, watcher.ts) */
  watcher?: WatcherFactory;
  /**
   * The note cache (stat-cache.ts): a whole-vault read takes the notes whose files' stat is unchanged from it,
   * and a successful syncAll saves the read's snapshot (off the critical path).
   */
  noteCache?: NoteCache;
  /**
   * The model snapshot (model/snapshot.ts): a first whole-vault sync whose notes are exactly those the snapshot
   * was built from restores the model from it instead of resolving every note; a sync that built the model
   * saves it (with the note cache, off the critical path).
   */
  modelSnapshot?: ModelSnapshotFile;
  /**
   * Where a whole-vault sync is (status().progress): files read of total, then 'loading' (the model holds the
   * vault, the store is being brought up to date), then 'indexing' (queryable, the search index builds), then
   * null. Called on every change of it; the read of `prefetched` reports through its own callback.
   */
  onProgress?: (p: SyncProgress | null) => void;
  /**
   * One full garbage collection (openCore hands in core/memory.ts's collectGarbage), run by a whole-vault sync
   * that read a huge body (over HUGE_BODY_CHARS) once the graph holds the note and its body left memory, after
   * the sync's timings and before the full-text build: the body's text, the parse's, the model's and the load's
   * garbage are then taken back and reused by the build instead of at V8's next major collection, which comes
   * after it (huge15g, issue 15 point 6: the open's peak lands in that build). Not after the read (tried: it
   * freed the file's buffer only, for a pause before the model, on the way to the first answers). Absent:
   * nothing is collected.
   */
  collectGarbage?: () => void;
}

/** A whole-vault read: walk, then read + parse (readVault). */
export interface VaultRead {
  walked: WalkResult;
  read: ReadOutcome;
  /** performance.now() when the walk started, and how long walk and read took (walkMs: with the note cache's file read, which overlaps the walk) */
  startedAt: number;
  walkMs: number;
  readMs: number;
}

/**
 * Walk the vault and read + parse every note (never throws for a file: see read.ts); with a note cache, files
 * whose stat is unchanged are not read (their cached notes are taken).
 */
export async function readVault(
  vaultDir: string, layers: LayerMap, parseOpts: ParseOptions, cache?: NoteCache, fs: VaultFs = nodeVaultFs,
  onProgress?: (p: SyncProgress) => void,
): Promise<VaultRead> {
  const startedAt = performance.now();
  // the walk first: its folder listings run on the thread pool while the note cache's file is read here
  // (NoteCache.open defers that read to begin()); begin() dates the next cache before any note is read
  const walking = fs.walk(vaultDir, layers);
  walking.catch(() => undefined); // awaited below (a failure of begin() must not leave it unhandled)
  cache?.begin();
  const walked = await walking;
  const t1 = performance.now();
  const total = walked.files.size;
  onProgress?.({ phase: 'reading', done: 0, total });
  const read = await fs.read(walked.files, parseOpts, cache, onProgress && ((done) => onProgress({ phase: 'reading', done: Math.min(done, total), total })));
  return { walked, read, startedAt, walkMs: t1 - startedAt, readMs: performance.now() - t1 };
}

/** The parser options an engine with this schema uses (openCore reads ahead with the same). */
export function engineParseOptions(schemaView: SchemaView, maxBytes?: number): ParseOptions {
  return { titleField: schemaView.schema.title_field, ...(maxBytes ? { maxBytes } : {}) };
}

export interface SyncTimings {
  /** ms from syncAll start (or the start of the read it took over: EngineOptions.prefetched) until the graph was queryable */
  queryableMs: number;
  /** ms from syncAll start until the search index was ready (null: not yet) */
  searchReadyMs: number | null;
  /**
   * where the queryable time went: walk, read+parse, model, store write. With a prefetched read, walk and
   * read ran before syncAll (overlapping whatever the caller did meanwhile, such as opening the database).
   */
  phases?: { walk: number; read: number; model: number; store: number };
  /** with a note cache: notes taken from it (file stat unchanged) and notes read */
  notesCached?: { hits: number; misses: number };
  /** with a model snapshot: the model was restored from it (not resolved from the notes) */
  modelRestored?: boolean;
  /** with a model snapshot: restored, and the store's write generation was the snapshot's, so storedHashes() was not read */
  storeHashesSkipped?: boolean;
}

export class VaultSyncEngine implements SyncEngine {
  /** the model; after close() an empty one (see close()) */
  private current: VaultModel;
  private readonly opts: EngineOptions;
  private readonly queue = new TaskQueue();
  private readonly listeners = new Set<(e: ChangeEvent) => void>();
  private readonly expected = new Map<string, string>();
  private readonly parseOpts: ParseOptions;
  private watcher: VaultWatcherLike | null = null;
  private stale: boolean;
  private loaded = false;
  private searchP: Promise<void> = Promise.resolve();
  /** the whole-vault sync asked for last, until it ends (searchReady() answers for it) */
  private lastSyncAll: Promise<SyncReport> | null = null;
  private cacheP: Promise<void> = Promise.resolve();
  private state: SyncStatus['state'] = 'idle';
  /** the last sync's report; after an incremental change its counts are refreshed lazily (status()) */
  private last: SyncReport | null = null;
  private lastStale = false;
  private closed = false;
  private prefetched: Promise<VaultRead> | null;
  private progress: SyncProgress | null = null;
  /** why the last whole-vault sync or its search index failed (status().error); null once a sync succeeds */
  private failure: { code: string; message: string } | null = null;
  /** counts whole-vault syncs: a finished search index of an older one does not end a newer one's progress */
  private syncGen = 0;
  timings: SyncTimings = { queryableMs: 0, searchReadyMs: null };

  constructor(opts: EngineOptions) {
    // the read handed over is held until the first syncAll takes it, not for the engine's life (its notes, the walk)
    const { prefetched, ...kept } = opts;
    this.opts = kept;
    this.current = this.emptyModel();
    this.stale = opts.storeStale ?? false;
    this.parseOpts = engineParseOptions(opts.schemaView, opts.maxBytes);
    this.prefetched = prefetched ?? null;
  }

  get model(): VaultModel { return this.current; }

  /** a model of the engine's config and schema holding nothing yet (the first syncAll fills it) */
  private emptyModel(): VaultModel {
    return new VaultModel(this.opts.config, this.opts.schemaView, this.opts.configProblems ?? []);
  }

  get store(): GraphStore { return this.opts.store; }

  status(): SyncStatus {
    const c = this.model.counts();
    return {
      state: this.state, entities: c.entities, relationships: c.relationships, placeholders: c.placeholders,
      problems: this.model.problems().length, lastSync: this.lastReport(),
      ...(this.progress ? { progress: { ...this.progress } } : {}),
      ...(this.failure ? { error: { ...this.failure } } : {}),
    };
  }

  /**
   * A store failure that is about this vault's size (Kùzu's buffer pool too small for it) names the vault;
   * recorded for status().error either way.
   */
  private failed(err: unknown, gen: number): unknown {
    let e = err;
    if (isCoreError(err) && err.code === 'store-out-of-memory') {
      e = new CoreError(err.code, `vault ${this.opts.vaultDir}: ${err.message}`, { ...err.details, vaultDir: this.opts.vaultDir });
    }
    if (gen === this.syncGen && !this.closed) {
      this.failure = { code: isCoreError(e) ? e.code : 'internal', message: e instanceof Error ? e.message : String(e) };
    }
    return e;
  }

  private setProgress(p: SyncProgress | null, gen: number): void {
    if (gen !== this.syncGen || this.closed) return;
    this.progress = p;
    try { this.opts.onProgress?.(p); } catch { /* a listener's failure is its own */ }
  }

  /**
   * Resolves when the full-text index reflects the last full load, including a whole-vault sync already asked
   * for and not yet ended: an interactive open returns before its sync has begun its store load, and the index
   * of the sync before it (an open's: none) must not answer for it. Rejects when that index failed.
   */
  searchReady(): Promise<void> {
    const sync = this.lastSyncAll;
    return sync ? sync.then(() => this.searchP, () => this.searchP) : this.searchP;
  }

  /**
   * Resolves once everything queued now has ended (whole-vault syncs and changes alike, where searchReady() waits
   * for a whole-vault sync only) and the last full load's full-text index is built (or failed). Never rejects.
   */
  async syncedAndIndexed(): Promise<void> {
    await this.queue.idle();
    await this.searchP.catch(() => undefined);
  }

  /**
   * Resolves when the work the last whole-vault sync left for the background is done: the search index built
   * (or failed), the note cache and model snapshot saved, the bodies dropped, every queued change applied (the
   * model's derived indexes are built by a queued task). Never rejects.
   */
  async backgroundDone(): Promise<void> {
    // a sync still running (an interactive open returns before its store load) sets searchP and cacheP first
    await this.queue.idle();
    await this.searchP.catch(() => undefined);
    await this.cacheP;
    await this.queue.idle();
  }

  /** Resolves when every queued change (including watcher batches already handed over) is applied. */
  async settled(): Promise<void> {
    await this.watcher?.flushNow();
    await this.queue.idle();
  }

  /**
   * onModel: called once the model holds the vault read (list, lookup, entity answer from it), while the
   * store may still be loading; store reads wait for the load in the store's own queues.
   */
  syncAll(opts: { full?: boolean; onModel?: () => void } = {}): Promise<SyncReport> {
    const prefetched = this.prefetched;
    this.prefetched = null;
    const run = this.queue.run(async () => {
      let t0 = performance.now();
      this.state = 'syncing';
      const gen = ++this.syncGen;
      // A rebuild known to be needed into an empty store: the store opens its load while the files are read,
      // and copies the notes' records while the model resolves references (RebuildSession).
      const early = (!!opts.full || this.stale) && !this.loaded ? this.opts.store.beginRebuild() : null;
      early?.catch(() => undefined);
      let finishing = false;
      /** onModel was called */
      let announced = false;
      try {
        const vault = await (prefetched ?? readVault(this.opts.vaultDir, this.model.layers, this.parseOpts, this.opts.noteCache, this.opts.fs, (p) => this.setProgress(p, gen)));
        const { walked, read } = vault;
        t0 = Math.min(t0, vault.startedAt);
        const t2 = performance.now();
        this.model.setExternalProblems('walk', [...walked.problems, ...read.problems]);
        const hadModel = this.loaded;
        const before = new Map<string, string>();
        for (const n of this.model.notes()) before.set(n.path, n.hash);
        // interactive (onModel): the session is not needed before the model answers, and may wait for it (a store
        // whose open was deferred until then, openCore): taken after onModel
        let session: RebuildSession | null = early && !opts.onModel ? await early.catch(() => null) : null;
        // Interactive (onModel): the model first, nothing serialised for the store before the UI can answer; the
        // session's finish() copies every record then. Otherwise the notes' records are copied while the model
        // resolves references (the graph is queryable sooner).
        // nothing loaded yet and no rebuild begun: the model snapshot of exactly these notes, when there is one
        const snapshot = this.opts.modelSnapshot;
        const restored = !hadModel && !early && !!snapshot && snapshot.restore(this.model, read.notes);
        // Interactive into an empty model: the first answers wait for neither the notes' edges and problems nor the
        // edge maps (model.loadEdgesLater);
        // they are built a slice per turn of the event loop right after onModel, so that the first requests (list,
        // lookup, an entity's panel: answered from the notes' edges meanwhile) are served between slices
        const edgesLater = !!opts.onModel && !hadModel && !restored;
        const copying = session;
        const delta = restored ? { removeEntities: [], upsertEntities: [], removeEdges: [], addEdges: [] }
          : copying && !opts.onModel
            ? await this.model.loadInSteps(read.notes, (records) => copying.copyEntities(records))
            : edgesLater ? this.model.loadEdgesLater(read.notes) : this.model.load(read.notes);
        const loadedVersion = this.model.version;
        const t3 = performance.now();
        this.setProgress({ phase: 'loading' }, gen);
        announced = true;
        opts.onModel?.();
        if (edgesLater) {
          do await new Promise<void>((r) => setImmediate(r));
          while (this.model.edgeStep());
        }
        if (early && opts.onModel) session = await early.catch(() => null);
        let full = !!opts.full || this.stale;
        let changed = 0;
        for (const n of read.notes) if (before.get(n.path) !== n.hash) changed++;
        for (const p of before.keys()) if (!this.model.note(p)) changed++;
        // the store was written by nothing since the snapshot was saved with it holding exactly these notes: the
        // stored hashes are the snapshot's, which are the notes' (restored): nothing to compare
        const storeGen = this.opts.store.generation();
        const storeAsSnapshot = restored && !full && storeGen !== null && snapshot.restoredStoreGen === storeGen;
        if (storeAsSnapshot) {
          changed = 0;
        } else if (!full && !hadModel) {
          const stored = await this.opts.store.storedHashes();
          const cnt = this.model.counts();
          if (stored.size === 0 && cnt.entities > 0) full = true;
          else {
            changed = 0;
            for (const n of read.notes) if (stored.get(n.path) !== n.hash) changed++;
            for (const p of stored.keys()) if (!this.model.note(p)) changed++;
            if (changed > 0) await this.writeDelta(await diffAgainstStore(this.model, this.opts.store));
          }
        } else if (!full && !deltaIsEmpty(delta)) {
          await this.writeDelta(delta);
        }
        if (full) {
          if (session) {
            finishing = true;
            await session.finish(this.model.entities(), [...this.model.edges()]);
          } else {
            await this.opts.store.rebuild([...this.model.entities()], [...this.model.edges()]);
          }
          this.stale = false;
          changed = read.notes.length;
        }
        this.loaded = true;
        // a huge body leaves memory as soon as the graph holds it (the graph stores it shortened: the file is the
        // one whole copy), not once search is ready: it would stay through the full-text build, the open's peak
        const huge = read.notes.filter(hugeBodyInMemory);
        this.dropBodies(huge);
        const t4 = performance.now();
        // the store's generation now that it holds the model's notes (null when a write failed or is unknown)
        const savedGen = this.opts.store.generation();
        const queryableMs = t4 - t0;
        const r = (x: number) => Math.round(x);
        const cache = this.opts.noteCache;
        this.timings = {
          queryableMs, searchReadyMs: null, phases: { walk: r(vault.walkMs), read: r(vault.readMs), model: r(t3 - t2), store: r(t4 - t3) },
          ...(cache ? { notesCached: { hits: cache.hits, misses: cache.misses } } : {}),
          ...(snapshot ? { modelRestored: restored, storeHashesSkipped: storeAsSnapshot } : {}),
        };
        const timings = this.timings;
        // off the critical path: the model's derived indexes, then the full-text index
        // (after a turn of the event loop: run from the queue's next microtask it ran before this sync's caller
        // resumed, ~0.3-0.5 s of a warm open on the real-shaped 7k vault)
        void this.queue.run(async () => { await new Promise<void>((r) => setImmediate(r)); if (!this.closed) this.model.warm(); });
        // a model restored from its snapshot then builds its edge maps a slice per turn (model.warmStep), each slice a
        // task of the queue: a change waits one slice at most (and finishes the rest itself)
        const step = () => void this.queue.run(async () => {
          await new Promise<void>((r) => setImmediate(r));
          if (!this.closed && this.model.warmStep()) step();
        });
        if (restored) step();
        // (after the timings: the graph is queryable already)
        if (huge.length > 0) this.collect();
        this.searchP = this.opts.store.ensureSearchIndex().then(
          () => { timings.searchReadyMs = performance.now() - t0; },
          (err: unknown) => { throw this.failed(err, gen); },
        );
        this.searchP.catch(() => undefined).finally(() => this.setProgress(null, gen));
        // the snapshot is saved once search is ready: serialising ~30 MB of notes costs the main thread ~0.1 s;
        // then the notes' bodies leave memory (the graph and the search index hold them, the files too: body.ts)
        // The model snapshot likewise, when this sync built the model and no change came after it.
        this.cacheP = this.searchP.catch(() => undefined).then(() => {
          cache?.save();
          // the generation only when the store was not written since this sync ended (then it holds these notes)
          if (snapshot && !restored && this.model.version === loadedVersion) {
            const gen = this.opts.store.generation();
            snapshot.save(this.model, read.notes, gen !== null && gen === savedGen ? gen : null);
          }
          if (!this.closed) this.dropBodies(this.model.notes());
        });
        const report = this.report(full, changed, queryableMs);
        this.last = report;
        this.lastStale = false;
        this.state = 'idle';
        this.failure = null;
        this.setProgress({ phase: 'indexing' }, gen);
        if (changed > 0 || full) {
          this.emit({ origin: 'sync', paths: [], upserted: [], removed: [] });
        }
        return report;
      } catch (caught) {
        const err = this.failed(caught, gen);
        this.state = 'error';
        this.setProgress(null, gen);
        this.opts.noteCache?.discard();
        // a session not handed its records holds the store: give it back (empty, no fingerprint). Before onModel,
        // an interactive sync's session may wait for the model (a deferred open, openCore): given back once it
        // comes, not awaited here (the caller's close() ends such an open)
        if (early && !finishing) {
          const giveBack = early.then((s) => s?.abort(), () => undefined).catch(() => undefined);
          if (!opts.onModel || announced) await giveBack;
        }
        throw err;
      }
    });
    this.lastSyncAll = run;
    run.catch(() => undefined).finally(() => { if (this.lastSyncAll === run) this.lastSyncAll = null; });
    return run;
  }

  applyPaths(paths: string[], origin: ChangeEvent['origin']): Promise<ChangeEvent> {
    return this.queue.run(async () => {
      const ev = await this.applyNow(paths, origin, false);
      return ev ?? { origin, paths: [], upserted: [], removed: [] };
    });
  }

  expectWrite(path: string, hash: string): void {
    this.expected.set(path, hash);
  }

  async startWatching(): Promise<void> {
    if (this.watcher || this.closed) return;
    this.watcher = (this.opts.watcher ?? nodeWatcher)({
      root: this.opts.vaultDir,
      isNote: (rel) => isNotePath(rel, this.model.layers),
      isIgnoredDir: (rel) => this.model.layers.isExcluded(rel),
      knownUnder: (dir) => [...this.model.notes()].map((n) => n.path).filter((p) => p.startsWith(dir + '/')),
      onBatch: (paths) => this.queue.run(() => this.applyNow(paths, 'disk', true)).then(() => undefined),
      // one quiet window serves as debounce and write-finish guard (see watcher.ts)
      quietMs: Math.max(this.opts.debounceMs ?? 3, this.opts.stabilityMs ?? 8),
      maxWaitMs: this.opts.maxWaitMs ?? 100,
    });
    await this.watcher.start();
  }

  onChange(fn: (e: ChangeEvent) => void): () => void {
    this.listeners.add(fn);
    return () => { this.listeners.delete(fn); };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watcher) { await this.watcher.close(); this.watcher = null; }
    await this.queue.idle();
    await this.searchP.catch(() => undefined);
    await this.cacheP;
    // a closed engine lets go of the vault: whoever still holds the engine (or its core) holds an empty model,
    // not every note, record and edge of the last sync (a process that opens the vault again would otherwise
    // carry the old model's heap into that open, whose garbage collections then mark it: warm15h)
    this.current = this.emptyModel();
    this.listeners.clear();
    this.expected.clear();
    this.prefetched = null;
  }

  // ---- internals ------------------------------------------------------------

  /**
   * Re-read `paths` and apply what changed. fromWatcher: a file whose bytes
   * are the ones the app announced with expectWrite (or that the model already
   * has) changes nothing and emits nothing.
   */
  private async applyNow(paths: string[], origin: ChangeEvent['origin'], fromWatcher: boolean): Promise<ChangeEvent | null> {
    const uniq = [...new Set(paths)];
    const files: Array<[string, string]> = [];
    const changed = new Map<string, ParsedNote | null>();
    for (const p of uniq) {
      if (isNotePath(p, this.model.layers)) files.push([p, join(this.opts.vaultDir, p)]);
      else if (this.model.note(p)) changed.set(p, null);
    }
    // a few files (an edit, a watcher batch): read on the event loop, no thread-pool round trips
    const read = files.length <= SYNC_READ_MAX ? (this.opts.fs ?? nodeVaultFs).readSync(files, this.parseOpts) : await (this.opts.fs ?? nodeVaultFs).read(files, this.parseOpts);
    for (const p of read.gone) if (this.model.note(p)) changed.set(p, null);
    for (const n of read.notes) {
      const exp = this.expected.get(n.path);
      if (exp !== undefined && (exp === n.hash || !fromWatcher)) this.expected.delete(n.path);
      if (fromWatcher && exp === n.hash) continue;
      if (this.model.note(n.path)?.hash === n.hash) continue;
      changed.set(n.path, n);
    }
    if (changed.size === 0) return null;
    const delta = this.model.applyChanges(changed);
    await this.writeDelta(delta);
    this.dropBodies(read.notes);
    const ev = eventOf(origin, [...changed.keys()], delta);
    // counts are refreshed on demand: computing problems here would cost every change a full scan
    this.last = { ...(this.last ?? this.report(false, 0, 0)), full: false, changedFiles: changed.size, ms: 0 };
    this.lastStale = true;
    this.emit(ev);
    return ev;
  }

  /**
   * The bodies of these notes are read from their files from now on (body.ts); notes taken from the note cache
   * already are. Only over the node file system: notes listed and read through another VaultFs keep theirs.
   */
  private collect(): void {
    try { this.opts.collectGarbage?.(); } catch { /* only memory is at stake */ }
  }

  private dropBodies(notes: Iterable<ParsedNote>): void {
    if (this.opts.fs && this.opts.fs !== nodeVaultFs) return;
    for (const n of notes) if (bodyInMemory(n)) makeBodyLazy(n, join(this.opts.vaultDir, n.path), this.parseOpts);
  }

  private lastReport(): SyncReport | null {
    if (this.last && this.lastStale) {
      this.last = this.report(this.last.full, this.last.changedFiles, this.last.ms);
      this.lastStale = false;
    }
    return this.last;
  }

  private async writeDelta(delta: GraphDelta): Promise<void> {
    if (!deltaIsEmpty(delta)) await this.opts.store.applyDelta(delta);
  }

  private report(full: boolean, changedFiles: number, ms: number): SyncReport {
    const c = this.model.counts();
    const problems = this.model.problems();
    return {
      entities: c.entities, relationships: c.relationships, placeholders: c.placeholders,
      problems: problems.length, errors: problems.filter((p) => p.severity === 'error').length,
      ms: Math.round(ms), full, changedFiles,
    };
  }

  private emit(e: ChangeEvent): void {
    for (const fn of this.listeners) {
      try { fn(e); } catch { /* a listener's failure is its own */ }
    }
  }
}

function eventOf(origin: ChangeEvent['origin'], paths: string[], d: GraphDelta): ChangeEvent {
  const up = new Set<string>(d.upsertEntities.map((e) => e.id));
  const removed = new Set(d.removeEntities);
  for (const e of [...d.addEdges, ...d.removeEdges]) {
    if (!removed.has(e.from)) up.add(e.from);
    if (!removed.has(e.to)) up.add(e.to);
  }
  return { origin, paths: paths.sort(), upserted: [...up].sort(), removed: [...removed].sort() };
}
