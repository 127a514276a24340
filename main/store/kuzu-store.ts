/**
 * The Kùzu implementation of GraphStore — the only code that imports 'kuzu'
 * (through ./kuzu/db.ts). Database file: <dbDir>/graph.kuzu.
 *
 * Concurrency: every write (rebuild, applyDelta, ensureSearchIndex) runs in
 * one serial write queue on the writer connection; reads run in a read queue
 * on a second connection. rebuild() holds both queues (it closes, deletes and
 * recreates the database). close() drains both queues, then closes the
 * connections, then the database.
 */
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EntityRecord, RelationshipRecord } from '../../shared/types.js';
import type { Schema } from '../config/types.js';
import { CoreError, isCoreError } from '../domain/errors.js';
import type { CypherOptions, GraphDelta, GraphStore, RebuildSession } from './types.js';
import { BulkLoad, createTables, validateBulk } from './kuzu/bulk.js';
import { readMeta, setMeta } from './kuzu/meta.js';
import { guardCypher } from './kuzu/cypher-guard.js';
import { type Conn, type OpenedDb, type Params, SerialQueue, bufferSetting, closeDatabase, openDatabase } from './kuzu/db.js';
import { applyDeltaTx } from './kuzu/delta.js';
import { type FtsTokens, tokenize } from './kuzu/fts-bulk.js';
import { openInLoadProcess } from './kuzu/load-process.js';
import * as Q from './kuzu/queries.js';
import { pageRank } from './kuzu/rank.js';
import { RelRegistry } from './kuzu/rels.js';
import { toPlain } from './kuzu/rows.js';
import { FTS_COLUMNS, SearchIndex } from './kuzu/search.js';
import { SummaryCache } from './kuzu/summaries.js';
import { neighbours, shortestPath } from './kuzu/traverse.js';

/**
 * Bump when the stored layout changes: a stored graph of another format is rebuilt (2: REL tables hold props +
 * declared property columns; 3: names_text/tags_text joined by ' ', were newlines)
 */
export const STORE_FORMAT = 'kuzu-store-5'; // 4: Meta 'generation', replaced by every write (generation()); 5: the record in Entity's comment, no Meta table (meta.ts)

/**
 * A load of at least this many entities runs in a load process ('auto'). Not decided by the prose's size: one
 * 9 MB note in a small vault cost more in two processes (the load process's own ~100 MB) than the load leaves here.
 */
export const LOAD_PROCESS_MIN_ENTITIES = 2000;

export interface KuzuStoreOptions {
  /**
   * Where a rebuild's bulk load and the full-text index's bulk build run: 'always' in a process of their own
   * (kuzu/load-process.ts: what the load leaves resident, ~200 MB at 10k notes, leaves with it), 'never' here,
   * 'auto' (default) in one when the load is large (LOAD_PROCESS_MIN_ENTITIES entities; a small load is not worth
   * a process's start: ~0.2 s quiet, seconds under load). LORECRAFT_KUZU_LOAD_PROCESS=always|never overrides the default.
   */
  loadProcess?: 'auto' | 'always' | 'never';
  /** called with the load process's pid when one starts (tests) */
  onLoadProcess?: (pid: number) => void;
}

export function createKuzuStore(dbDir: string, opts: KuzuStoreOptions = {}): GraphStore {
  return new KuzuStore(dbDir, opts);
}

class KuzuStore implements GraphStore {
  private o: OpenedDb | null = null;
  private reg = new RelRegistry();
  private fingerprint = '';
  private readonly writeQ = new SerialQueue();
  private readonly readQ = new SerialQueue();
  private readonly searchIdx = new SearchIndex();
  /** traversal/path summaries; every write clears it (see summaries.ts) */
  private readonly summaries = new SummaryCache();
  private closed = false;
  private searchBuild: Promise<void> | null = null;
  /** an open given `after` that has not ended yet (settles, never rejects, when it has) */
  private pending: Promise<void> | null = null;
  /** a pending open's cancellation (close() before it began) */
  private cancelPending: (() => void) | null = null;
  /** beginRebuild() while an open is pending: its session, begun by the open in the queues it holds */
  private wantSession: { resolve: (s: Promise<RebuildSession> | null) => void; reject: (err: unknown) => void } | null = null;
  /** open() created the database empty and nothing has written to it since: rebuild() loads into it as it is */
  private pristine = false;
  /**
   * Full-text tokens of the last rebuild(), counted while Kùzu loaded it; the next index build uses
   * them (fts-bulk.ts) unless anything was written since (every write clears this).
   */
  private tokens: Promise<FtsTokens | null> | null = null;
  /** the store record's 'generation' (meta.ts) as committed (generation()); null while a write runs or after one failed */
  private gen: string | null = null;
  /**
   * generation() was asked since the generation was last replaced: the next delta replaces it (in its
   * transaction). A delta nobody could have seen the generation before need not: it differs from any recorded
   * one already. So a session of edits pays the extra statement once, not per edit (~1-2 ms a delta).
   */
  private genSeen = true;

  private readonly loadProcess: 'auto' | 'always' | 'never';

  constructor(private readonly dbDir: string, private readonly opts: KuzuStoreOptions = {}) {
    // a bad LORECRAFT_KUZU_BUFFER_MB is refused before anything opens (CoreError 'bad-config' naming it)
    bufferSetting(process.env);
    const env = process.env.LORECRAFT_KUZU_LOAD_PROCESS;
    this.loadProcess = opts.loadProcess ?? (env === 'always' || env === 'never' ? env : 'auto');
  }

  private get file(): string {
    return join(this.dbDir, 'graph.kuzu');
  }

  private db(): OpenedDb {
    if (!this.o) throw new CoreError('store-closed', this.closed ? 'the graph store is closed' : 'the graph store is not open (call open() first)');
    return this.o;
  }

  private read<T>(fn: (c: Conn) => Promise<T>): Promise<T> {
    return this.readQ.run(() => fn(this.db().reader));
  }

  private write<T>(fn: (c: Conn) => Promise<T>): Promise<T> {
    return this.writeQ.run(() => { this.pristine = false; this.tokens = null; return this.writing(() => fn(this.db().writer)); });
  }

  /** Brackets a write for the summary cache: cleared before and after, reads in between keep nothing. */
  private async writing<T>(fn: () => Promise<T>): Promise<T> {
    this.summaries.beginWrite();
    try {
      return await fn();
    } finally {
      this.summaries.endWrite();
    }
  }

  async open(schema: Schema, fingerprint: string, opts: { after?: PromiseLike<unknown> } = {}): Promise<boolean> {
    if (this.o || this.pending) throw new CoreError('store-open', 'the graph store is already open');
    if (!opts.after) return this.openNow(schema, fingerprint, false);
    // both queues held until the database is open and its tables made: whatever is asked meanwhile waits in them,
    // as it does during a load (taken now: a call right after this one queues behind the open)
    let release!: () => void;
    const held = new Promise<void>((res) => { release = res; });
    void this.readQ.run(() => held);
    void this.writeQ.run(() => held);
    const after = opts.after;
    const cancelled = cancellation();
    this.cancelPending = cancelled.cancel;
    const run = (async () => {
      // the session beginRebuild() asked for meanwhile takes the queues over from this open, holding them until it ends
      let handedOver = false;
      try {
        // a close() before the open began: nothing is opened
        await Promise.race([after, cancelled.promise]);
        if (cancelled.done) throw new CoreError('store-closed', 'the graph store was closed before it opened');
        const same = await this.openNow(schema, fingerprint, true);
        const want = this.wantSession;
        this.wantSession = null;
        if (want) {
          if (!same && this.pristine) { handedOver = true; want.resolve(this.session(release)); } else want.resolve(null);
        }
        return same;
      } catch (err) {
        this.wantSession?.reject(err);
        this.wantSession = null;
        throw err;
      } finally {
        if (!handedOver) release();
        this.pending = null;
        this.cancelPending = null;
      }
    })();
    this.pending = run.then(() => undefined, () => undefined);
    return run;
  }

  /** open()'s work; `held`: the caller holds both queues (the transaction is run here, not queued). */
  private async openNow(schema: Schema, fingerprint: string, held: boolean): Promise<boolean> {
    this.closed = false;
    this.fingerprint = `${STORE_FORMAT}:${fingerprint}`;
    this.gen = null;
    this.genSeen = true;
    await mkdir(this.dbDir, { recursive: true });
    const gi = join(this.dbDir, '.gitignore');
    if (!existsSync(gi)) await writeFile(gi, '*\n');
    const existed = existsSync(this.file) || existsSync(`${this.file}.wal`);
    const { o, wiped } = await this.openHere();
    this.o = o;
    const fresh = !existed || wiped;
    // one transaction: a fresh database gets every REL table in one commit (auto-commit: ~5 ms per table)
    const tables = (c: Conn): Promise<boolean> => inTransaction(c, async () => {
      await createTables(c, new RelRegistry());
      const meta = await readMeta(c);
      const stored = meta.fingerprint;
      const rels = meta.rels;
      if (stored === this.fingerprint && rels) {
        this.gen = meta.generation ?? null;
        this.reg = RelRegistry.fromJSON(rels);
        await createTables(c, this.reg);
        await this.searchIdx.detect(c);
        return true;
      }
      this.reg = RelRegistry.fromSchema(schema);
      await createTables(c, this.reg);
      this.pristine = fresh;
      return false;
    });
    if (!held) return this.write(tables);
    this.pristine = false;
    this.tokens = null;
    return this.writing(() => tables(this.db().writer));
  }

  /** Open the database file in this process; an unreadable one (a cache) is deleted and started over. */
  private async openHere(): Promise<{ o: OpenedDb; wiped: boolean }> {
    try {
      return { o: await openDatabase(this.file), wiped: false };
    } catch (err) {
      // refused on purpose (a bad setting): nothing wrong with the file
      if (isCoreError(err)) throw err;
      const msg = err instanceof Error ? err.message : String(err);
      // another process holds the database: never delete its files
      if (/lock/i.test(msg)) throw new CoreError('store-locked', `the graph database ${this.file} is in use by another process (${msg.split('\n')[0]})`);
      // unreadable / incompatible database file: it is a cache, start over
      await this.removeFiles();
      return { o: await openDatabase(this.file), wiped: true };
    }
  }

  /**
   * The load process, if it holds the database, closes it and exits; this process opens the file again. Run
   * holding both queues. `failed`: the load did not commit (the child may have died): the tables are
   * created again (they may have been created inside the lost transaction) so the graph is empty but queryable.
   */
  private async comeHome(failed: boolean): Promise<void> {
    const away = this.o;
    if (away?.pid === null) return;
    this.o = null;
    try {
      await away?.close();
    } catch {
      // it died: what it left on disk is checked by the open below
    }
    this.o = (await this.openHere()).o;
    if (failed) {
      this.tokens = null;
      await createTables(this.o.writer, this.reg);
    }
  }

  private async removeFiles(): Promise<void> {
    for (const f of [this.file, `${this.file}.wal`, `${this.file}.shadow`, `${this.file}.tmp`]) await rm(f, { recursive: true, force: true });
  }

  async rebuild(entities: EntityRecord[], edges: RelationshipRecord[]): Promise<void> {
    await this.pending;
    this.db();
    // before anything is dropped: a bad record leaves the graph as it was
    validateBulk(this.reg, entities, edges);
    const session = await this.session();
    await session.finish(entities, edges);
  }

  async beginRebuild(): Promise<RebuildSession | null> {
    if (this.pending) {
      // the open begins it while it still holds both queues: nothing asked meanwhile runs between the two
      if (this.wantSession) throw new CoreError('store-rebuild', 'a rebuild is already under way');
      return new Promise<RebuildSession | null>((resolve, reject) => { this.wantSession = { resolve, reject }; });
    }
    this.db();
    return this.pristine ? this.session() : null;
  }

  /**
   * Takes both queues (held until the session's finish() or abort() settles), starts from an empty
   * database (the one open() made, else a new file: faster than deleting rows, drops the FTS tables
   * too), opens the load's transaction and hands out the session.
   */
  private session(heldUntilEnd?: () => void): Promise<RebuildSession> {
    return new Promise<RebuildSession>((handOut, fail) => {
      let handed = false;
      // heldUntilEnd: the caller holds both queues already (a deferred open), let go once the session has ended
      const take = <T>(fn: () => Promise<T>): Promise<T> => (heldUntilEnd ? fn().finally(heldUntilEnd) : this.readQ.run(() => this.writeQ.run(fn)));
      const task = take(() => this.writing(async () => {
        const reuse = this.pristine;
        this.pristine = false;
        this.tokens = null;
        this.gen = null;
        if (!reuse) {
          await closeDatabase(this.db());
          this.o = null;
          await this.removeFiles();
          this.o = await openDatabase(this.file);
        }
        this.searchIdx.reset();
        const reg = RelRegistry.fromJSON(this.reg.toJSON());
        this.reg = reg;
        let load = new BulkLoad(this.db().writer, reg);
        let settle!: () => void;
        const settled = new Promise<void>((res) => { settle = res; });
        // whatever failed: leave an empty but queryable graph (without fingerprint) behind, in this process
        const fallBack = async (): Promise<void> => {
          await load.abort();
          if (this.o) await createTables(this.o.writer, reg).catch(() => undefined);
          await this.comeHome(true);
        };
        try {
          await load.begin();
        } catch (err) {
          await fallBack();
          await load.dispose();
          throw err;
        }
        // decided by the first records handed over: a large load moves to a load process before anything is copied
        let moving: Promise<void> | null = null;
        let away = false;
        const decide = (es: readonly EntityRecord[]): void => {
          if (moving) return;
          away = this.wantsLoadProcess(es);
          moving = away ? this.moveAway(load, reg).then((l) => { load = l; }) : Promise.resolve();
          moving.catch(() => undefined);
        };
        let done = false;
        const end = async (fn: () => Promise<void>): Promise<void> => {
          if (done) throw new CoreError('store-rebuild', 'this rebuild has already finished');
          done = true;
          try { await fn(); } finally { await load.dispose(); settle(); }
        };
        handed = true;
        handOut({
          copyEntities: (es) => {
            if (done) return;
            decide(es);
            // moving: copied once the load process has begun (a failure to move is thrown by finish())
            if (away) void moving!.then(() => load.copyEntities(es), () => undefined);
            else load.copyEntities(es);
          },
          finish: (es, edges) => end(async () => {
            let tokens: Promise<FtsTokens | null> = Promise.resolve(null);
            try {
              const all = [...es];
              decide(all);
              await moving;
              const c = this.db().writer;
              const gen = newGeneration();
              await load.finish(all, edges, async () => {
                // same transaction as the data: an interrupted rebuild leaves no fingerprint, so the next open() rebuilds again
                await setMeta(c, { rels: reg.toJSON(), fingerprint: this.fingerprint, generation: gen });
              }, () => {
                // the main thread is free until Kùzu has committed: count the full-text tokens meanwhile, in short slices
                tokens = tokenize(load.rows, FTS_COLUMNS, () => new Promise<void>((res) => setImmediate(res))).catch(() => null);
              });
              this.tokens = tokens;
              this.gen = gen;
              this.genSeen = false;
            } catch (err) {
              await fallBack();
              throw err;
            }
          }),
          abort: () => end(async () => {
            await moving?.catch(() => undefined);
            await fallBack();
          }),
        });
        await settled;
      }));
      task.catch((err: unknown) => { if (!handed) fail(err); });
    });
  }

  /** A load of these records (all the notes' records, or every entity) runs in a load process (KuzuStoreOptions.loadProcess). */
  private wantsLoadProcess(es: readonly EntityRecord[]): boolean {
    if (this.loadProcess !== 'auto') return this.loadProcess === 'always';
    return es.length >= LOAD_PROCESS_MIN_ENTITIES;
  }

  /**
   * Drop the load begun here (nothing copied yet), give the database file to a load process and begin the
   * load there. A load process that cannot start (no script, no binary) leaves the load here, as without one.
   */
  private async moveAway(here: BulkLoad, reg: RelRegistry): Promise<BulkLoad> {
    await here.abort();
    await here.dispose();
    await closeDatabase(this.db());
    this.o = null;
    try {
      const away = await openInLoadProcess(this.file);
      this.o = away;
      if (away.pid !== null) this.opts.onLoadProcess?.(away.pid);
    } catch (err) {
      process.stderr.write(`lorecraft: the graph loads in this process: ${err instanceof Error ? err.message : String(err)}\n`);
      this.o = (await this.openHere()).o;
    }
    const load = new BulkLoad(this.db().writer, reg);
    try {
      await load.begin();
    } catch (err) {
      await load.dispose();
      throw err;
    }
    return load;
  }

  /**
   * Single-flight: concurrent callers (the engine's background build and a
   * lazy search()) share one build. The first attempt lets reads go on; if it
   * fails (its partial state is dropped by SearchIndex.ensure) it is retried
   * once with reads held back, so no reader can stall its checkpoint.
   */
  ensureSearchIndex(): Promise<void> {
    if (this.searchIdx.isReady) return Promise.resolve();
    this.searchBuild ??= this.buildSearchIndex().finally(() => { this.searchBuild = null; });
    return this.searchBuild;
  }

  private async buildSearchIndex(): Promise<void> {
    try {
      await this.writeQ.run(() => {
        const tokens = this.tokens;
        this.tokens = null;
        this.pristine = false;
        return this.writing(async () => this.searchIdx.ensure(this.db().writer, (await tokens) ?? undefined));
      });
    } catch {
      await this.exclusive((c) => this.searchIdx.ensure(c));
    } finally {
      // the load process (if the last rebuild ran in one) has built the index: this process takes the database back
      await this.readQ.run(() => this.writeQ.run(() => this.comeHome(false)));
    }
  }

  /** Both queues held: nothing else touches the database while fn runs. */
  private exclusive<T>(fn: (c: Conn) => Promise<T>): Promise<T> {
    return this.readQ.run(() => this.writeQ.run(() => { this.pristine = false; return this.writing(() => fn(this.db().writer)); }));
  }

  applyDelta(delta: GraphDelta): Promise<void> {
    return this.write(async (c) => {
      const before = this.reg.tables().length;
      // a new generation (when the current one may have been recorded) is committed with the delta; until the
      // delta is, the generation is unknown
      const bump = this.genSeen;
      const gen = bump ? newGeneration() : this.gen;
      this.gen = null;
      await applyDeltaTx(c, this.reg, delta, bump ? () => setMeta(c, { generation: gen! }) : undefined);
      this.gen = gen;
      if (bump) this.genSeen = false;
      if (this.reg.tables().length !== before) await setMeta(c, { rels: this.reg.toJSON() });
    });
  }

  storedHashes(): Promise<Map<string, string>> {
    return this.read((c) => Q.storedHashes(c));
  }

  generation(): string | null {
    this.genSeen = true;
    return this.gen;
  }

  getEntity(id: string): Promise<EntityRecord | null> {
    return this.read((c) => Q.getEntity(c, id));
  }

  edgesOf(id: string): Promise<RelationshipRecord[]> {
    return this.read((c) => Q.edgesOf(c, this.reg, id));
  }

  list(filter: Parameters<GraphStore['list']>[0]): ReturnType<GraphStore['list']> {
    return this.read((c) => Q.list(c, filter));
  }

  neighbours(id: string, opts: Parameters<GraphStore['neighbours']>[1]): ReturnType<GraphStore['neighbours']> {
    return this.read((c) => neighbours(c, this.reg, this.summaries, id, opts, this.db().spare));
  }

  shortestPath(fromId: string, toId: string, maxDepth: number): ReturnType<GraphStore['shortestPath']> {
    return this.read((c) => shortestPath(c, this.reg, this.summaries, fromId, toId, maxDepth));
  }

  /** Builds the FTS indexes first if ensureSearchIndex() has not run yet. */
  async search(text: string, opts: Parameters<GraphStore['search']>[1]): ReturnType<GraphStore['search']> {
    if (!this.searchIdx.isReady) await this.ensureSearchIndex();
    return this.read((c) => this.searchIdx.search(c, text, opts, this.db().spare, this.summaries));
  }

  async searchCount(text: string, opts: Parameters<GraphStore['searchCount']>[1]): ReturnType<GraphStore['searchCount']> {
    if (!this.searchIdx.isReady) await this.ensureSearchIndex();
    return this.read((c) => this.searchIdx.count(c, text, opts));
  }

  async cypher(query: string, params?: Record<string, unknown>, opts: CypherOptions = {}): Promise<Record<string, unknown>[]> {
    guardCypher(query);
    const ms = opts.timeoutMs ?? defaultQueryTimeoutMs();
    const { signal } = opts;
    const cancelled = (): CoreError => new CoreError('cancelled', 'the query was cancelled');
    if (signal?.aborted) throw cancelled();
    const run = this.read(async (c) => {
      if (signal?.aborted) throw cancelled(); // cancelled while waiting for the connection: never started
      try {
        return await c.withTimeout(ms, () => c.query(query, params as Params | undefined));
      } catch (e) {
        if (e instanceof Error && /^Interrupted/i.test(e.message)) {
          throw new CoreError('timeout', `the query ran past its time limit (${ms} ms) and was stopped; narrow it (a LIMIT, a WHERE on id or name) or raise the limit (lorecraft mcp --query-timeout-ms N, or LORECRAFT_QUERY_TIMEOUT_MS)`, { timeoutMs: ms });
        }
        throw e;
      }
    });
    const rows = signal ? await untilAborted(run, signal, cancelled) : await run;
    return rows.map((r) => toPlain(r) as Record<string, unknown>);
  }

  counts(): ReturnType<GraphStore['counts']> {
    return this.read((c) => Q.counts(c, this.reg));
  }

  /**
   * On the writer's queue and connection, though it changes no data: projecting a graph writes Kùzu's
   * catalog, which must not race a write transaction on the other connection (an edit then stalled).
   */
  pageRank(): Promise<Map<string, number>> {
    return this.writeQ.run(() => pageRank(this.db().writer, this.reg));
  }

  snapshot(filter?: { layer?: string }): ReturnType<GraphStore['snapshot']> {
    return this.read((c) => Q.snapshot(c, this.reg, filter));
  }

  async close(): Promise<void> {
    if (this.pending) {
      // an open still waiting for its `after` does not begin; one under way ends first
      this.cancelPending?.();
      await this.pending;
    }
    if (!this.o) { this.closed = true; return; }
    // wait for both queues: nothing may be running or hold a result when the database closes
    await this.readQ.run(() => this.writeQ.run(async () => {
      const o = this.o;
      this.o = null;
      this.closed = true;
      if (o) await closeDatabase(o);
    }));
  }
}

/** The default time limit of a Cypher query: LORECRAFT_QUERY_TIMEOUT_MS when a positive number, else 5 s. */
export function defaultQueryTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.LORECRAFT_QUERY_TIMEOUT_MS);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : 5000;
}

/** p, or a rejection as soon as signal aborts (p then settles on its own; its result is dropped). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal, err: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(err());
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Run fn in one write transaction (rolled back on failure). */
async function inTransaction<T>(c: Conn, fn: () => Promise<T>): Promise<T> {
  await c.query('BEGIN TRANSACTION');
  try {
    const out = await fn();
    await c.query('COMMIT');
    return out;
  } catch (err) {
    try { await c.query('ROLLBACK'); } catch { /* Kùzu already rolled back */ }
    throw err;
  }
}

/** A write generation no other write of any store has (generation()). */
function newGeneration(): string {
  return randomUUID();
}

/** A promise that resolves once cancel() is called, and whether it was. */
function cancellation(): { promise: Promise<void>; cancel: () => void; readonly done: boolean } {
  let cancel!: () => void;
  let done = false;
  const promise = new Promise<void>((res) => { cancel = () => { done = true; res(); }; });
  return { promise, cancel: () => cancel(), get done() { return done; } };
}
