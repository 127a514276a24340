/**
 * Thin wrapper over one Kùzu database: a write connection driven by ONE serial
 * queue (Kùzu allows one write transaction at a time and a refused BEGIN
 * crashes the connection in 0.11.3), and two read connections behind one read
 * queue (a Kùzu connection must not run two statements at once): a read task
 * owns both and may run two statements at once, one on each (the two halves
 * of a traversal, the three full-text indexes). Every QueryResult
 * is closed, also on error paths, before anything else happens: an open result
 * at database close segfaults the process.
 */
import { statSync } from 'node:fs';
import { totalmem } from 'node:os';
import kuzu from 'kuzu';
import type { Connection, Database, KuzuValue, PreparedStatement, QueryResult } from 'kuzu';
import { CoreError } from '../../domain/errors.js';

export type Row = Record<string, KuzuValue>;
export type Params = Record<string, KuzuValue>;

/** Serial promise chain: the one task queue (main/domain/queue.ts). */
export { TaskQueue as SerialQueue } from '../../domain/queue.js';

/** "No limit": the binding refuses 0, which is what Kùzu itself reads as no timeout. */
const NO_TIMEOUT_MS = 2 ** 31;

/**
 * One connection to the database: in this process (LocalConn), or in the load process while it holds the
 * database (load-process.ts). Not safe for concurrent use: callers serialise.
 */
export interface Conn {
  query(statement: string, params?: Params): Promise<Row[]>;
  /** fn's statements on this connection run under Kùzu's query timeout of `ms` (see LocalConn.withTimeout) */
  withTimeout<T>(ms: number, fn: () => Promise<T>): Promise<T>;
}

/** One connection of this process plus its prepared-statement cache. */
export class LocalConn implements Conn {
  private readonly prepared = new Map<string, PreparedStatement>();

  /** poolBytes: the database's buffer pool, named in the error when Kùzu runs out of it (bufferFullError) */
  constructor(readonly raw: Connection, private readonly poolBytes = 0) {}

  async query(statement: string, params?: Params): Promise<Row[]> {
    try {
      return await this.run(statement, params);
    } catch (e) {
      throw bufferFullError(e, this.poolBytes);
    }
  }

  private async run(statement: string, params?: Params): Promise<Row[]> {
    let res: QueryResult | QueryResult[];
    if (params && Object.keys(params).length > 0) {
      let ps = this.prepared.get(statement);
      if (!ps) {
        ps = await this.raw.prepare(statement);
        if (!ps.isSuccess()) throw new Error(ps.getErrorMessage());
        if (this.prepared.size > 200) this.prepared.clear();
        this.prepared.set(statement, ps);
      }
      res = await this.raw.execute(ps, params);
    } else {
      res = await this.raw.query(statement);
    }
    return drainResults(Array.isArray(res) ? res : [res]);
  }

  /**
   * Run fn with Kùzu's query timeout set on this connection, then lift it again. Only while the
   * caller holds the connection idle: setQueryTimeout takes the lock a running statement holds.
   * Kùzu stops the statement at the timeout (its operators check it) and throws "Interrupted.".
   */
  async withTimeout<T>(ms: number, fn: () => Promise<T>): Promise<T> {
    this.raw.setQueryTimeout(Math.max(1, Math.floor(ms)));
    try {
      return await fn();
    } finally {
      this.raw.setQueryTimeout(NO_TIMEOUT_MS);
    }
  }

  async close(): Promise<void> {
    this.prepared.clear();
    await this.raw.close();
  }
}

function drainResults(results: QueryResult[]): Row[] {
  const rows: Row[] = [];
  let failure: unknown = null;
  for (const r of results) {
    try {
      // getAllSync: the async getAll() makes one thread-pool round trip per row
      // (measured 50k rows: 7.7 s async vs 0.4 s sync on a loaded machine).
      if (failure === null) for (const row of r.getAllSync()) rows.push(row);
    } catch (e) {
      failure = e;
    } finally {
      r.close();
    }
  }
  if (failure !== null) throw failure;
  return rows;
}

/**
 * Promise.all that waits for every statement to settle before it rejects: a read task must not end (and free
 * the read queue, or let close() run) while one of its connections still runs a statement.
 */
export async function allSettled<T extends readonly unknown[]>(ps: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const rs = await Promise.allSettled(ps);
  const failed = rs.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return rs.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

export interface OpenedDb {
  writer: Conn;
  reader: Conn;
  /** second read connection: only used by the task holding the read queue, alongside `reader` */
  spare: Conn;
  /** closes the connections, then the database (every statement must have settled) */
  close(): Promise<void>;
  /** the load process holding the database (load-process.ts), or null: this process holds it */
  readonly pid: number | null;
}

/** The setting that overrides the buffer pool's size, in MB. */
export const BUFFER_ENV = 'LORECRAFT_KUZU_BUFFER_MB';
/**
 * The least LORECRAFT_KUZU_BUFFER_MB accepted. Measured (2026-11-27, Kùzu 0.11.3): a 3k-note synthetic
 * vault's load fails below 96 MB, a 10k one's at 96 and loads at 128; a vault with many links needs more
 * (80k links: more than 128 MB; the real-shaped 7k vault, 183k relationships: more than 256 MB). Below 128
 * MB hardly any vault loads; above it, a pool too small for the vault is reported by bufferFullError.
 */
export const MIN_BUFFER_MB = 128;

/**
 * LORECRAFT_KUZU_BUFFER_MB read and checked: null when unset (or empty); a whole number of MB from
 * MIN_BUFFER_MB on; anything else is refused with CoreError('bad-config') naming the variable and its value.
 */
export function bufferSetting(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env[BUFFER_ENV];
  if (raw === undefined || raw.trim() === '') return null;
  const mb = Number(raw.trim());
  if (!Number.isInteger(mb) || mb < MIN_BUFFER_MB) {
    throw new CoreError('bad-config',
      `${BUFFER_ENV}=${raw}: the graph database's buffer pool must be a whole number of MB, at least ${MIN_BUFFER_MB} ` +
      `(smaller pools cannot load a vault); unset it to let Lorecraft choose`, { setting: BUFFER_ENV, value: raw, min: MIN_BUFFER_MB });
  }
  return mb;
}

/**
 * Kùzu's "Buffer manager exception" (its buffer pool is full) as a CoreError('store-out-of-memory') that says
 * how large the pool was and how to change it; any other error unchanged. Callers that know the vault add it
 * (the sync engine does).
 */
export function bufferFullError(err: unknown, poolBytes: number, env: NodeJS.ProcessEnv = process.env): unknown {
  if (err instanceof CoreError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (!/buffer manager exception/i.test(msg)) return err;
  const mb = Math.round(poolBytes / 1048576);
  const set = env[BUFFER_ENV];
  const how = set !== undefined && set.trim() !== ''
    ? `set by ${BUFFER_ENV}=${set}: raise it or unset it`
    : `chosen from the database's size: set ${BUFFER_ENV} to a larger number of MB`;
  return new CoreError('store-out-of-memory',
    `the graph database ran out of memory: Kùzu's buffer pool (${mb} MB, ${how}) is too small for this vault (Kùzu: ${msg.split('\n')[0]})`,
    { setting: BUFFER_ENV, ...(set !== undefined ? { value: set } : {}), bufferMb: mb });
}

/**
 * Kùzu's buffer pool defaults to 80% of the machine's memory, and setting up a pool costs ~7 ms per GB
 * at open (~130 ms of every open on a 24 GB machine). A vault's graph is far smaller (10k notes with
 * their prose: ~65 MB on disk), so the pool is 2 GB, or 8x the database file when that is larger,
 * never more than Kùzu's default; LORECRAFT_KUZU_BUFFER_MB overrides (bufferSetting: at least MIN_BUFFER_MB).
 */
export function bufferPoolBytes(file: string, env: NodeJS.ProcessEnv = process.env): number {
  const cap = Math.floor(totalmem() * 0.8);
  const override = bufferSetting(env);
  if (override !== null) return Math.min(cap, override * 1048576);
  let size = 0;
  for (const f of [file, `${file}.wal`]) {
    try { size += statSync(f).size; } catch { /* not there yet */ }
  }
  return Math.min(cap, Math.max(2 * 1024 ** 3, 8 * size));
}

export async function openDatabase(file: string): Promise<OpenedDb> {
  const poolBytes = bufferPoolBytes(file);
  const db: Database = new kuzu.Database(file, poolBytes);
  await db.init();
  const conn = async (): Promise<LocalConn> => {
    const c = new kuzu.Connection(db);
    await c.init();
    return new LocalConn(c, poolBytes);
  };
  const writer = await conn();
  const reader = await conn();
  const spare = await conn();
  return {
    writer, reader, spare, pid: null,
    close: async () => {
      await spare.close();
      await reader.close();
      await writer.close();
      await db.close();
    },
  };
}

export async function closeDatabase(o: OpenedDb): Promise<void> {
  await o.close();
}
