/**
 * The graph's bulk load in a short-lived process of its own (issue 15, memory). A rebuild's COPYs and the
 * full-text index's bulk build leave ~200 MB resident in the process that ran them (glibc malloc arenas kept
 * by Kùzu's threads, buffer-pool pages the load touched) long after the load: run there, they leave with the
 * process. openInLoadProcess() forks load-child.ts on the database file and hands back an OpenedDb whose
 * three connections forward each statement to the child's own connections (same rows, same errors, the
 * store's queues unchanged); the store uses it for the load and the index build, then closes it (the child
 * closes the database and exits) and opens the file itself. Kùzu lets one process at a time open a database
 * file read-write, so the store closes its own handle first.
 *
 * The child exits when its parent does (the IPC channel closes, and the parent kills it on exit). If it
 * dies (killed, crashed, out of memory) every pending and later statement rejects with
 * CoreError('store-load-failed') naming the exit and the child's last stderr.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreError, type ErrorCode } from '../../domain/errors.js';
import type { Conn, OpenedDb, Params, Row } from './db.js';

export type ToChild =
  | { t: 'query'; id: number; conn: 0 | 1 | 2; stmt: string; params?: Params; timeoutMs?: number }
  | { t: 'close' };
export type ToParent =
  | { t: 'ready' }
  | { t: 'rows'; id: number; rows: Row[] }
  /** code, details: the child's CoreError (db.ts bufferFullError), rebuilt here as one */
  | { t: 'error'; id: number; message: string; code?: ErrorCode; details?: Record<string, unknown> }
  | { t: 'closed'; peakKb: number }
  | { t: 'fail'; message: string };

/** Peak resident memory (bytes) of every load process this process ran and closed, in order (the bench reads it). */
export const loadProcessPeaks: number[] = [];

/**
 * How to start the child: from the sources, load-child.ts through bin/run-ts.mjs (tsx); from a bundle
 * (dist/main/cli.mjs, dist/main/electron/main.cjs), dist/main/kuzu-load-child.mjs (scripts/build-main.mjs).
 */
function childEntry(): { module: string; args: string[] } {
  const here = dirname(fileURLToPath(import.meta.url));
  const source = join(here, 'load-child.ts');
  if (existsSync(source)) return { module: join(here, '..', '..', '..', 'bin', 'run-ts.mjs'), args: [source] };
  for (const dir of [here, join(here, '..')]) {
    const built = join(dir, 'kuzu-load-child.mjs');
    // packaged: the file is unpacked beside the asar (electron-builder.yml asarUnpack), run from there in Node mode
    const unpacked = built.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
    if (unpacked !== built && existsSync(unpacked)) return { module: unpacked, args: [] };
    if (existsSync(built)) return { module: built, args: [] };
  }
  throw new CoreError('store-load-failed', `the graph load process's script is missing (kuzu-load-child.mjs next to ${here}): rebuild with npm run build:main`);
}

const TAIL = 2000;

export async function openInLoadProcess(file: string): Promise<OpenedDb> {
  const { module, args } = childEntry();
  const child: ChildProcess = fork(module, [...args, file], {
    // stdout ignored: the MCP server speaks on this process's stdout; stderr kept for the error message
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
    execArgv: [],
    // in Electron's main process the child runs the same binary as plain Node
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-TAIL); });
  const killOnExit = (): void => { child.kill('SIGKILL'); };
  process.once('exit', killOnExit);

  const pending = new Map<number, { ok: (rows: Row[]) => void; fail: (e: Error) => void }>();
  let nextId = 1;
  let dead: CoreError | null = null;
  let closing: { ok: () => void; fail: (e: Error) => void } | null = null;
  let ready: { ok: () => void; fail: (e: Error) => void } | null = null;
  // the channel keeps this process alive only while a statement is pending (a CLI command must not hang on it)
  const refresh = (): void => {
    if (pending.size > 0 || ready || closing) child.channel?.ref();
    else child.channel?.unref();
  };
  const died = (why: string): CoreError => new CoreError('store-load-failed',
    `the graph load process for ${file} ${why}${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-5).join(' | ')}` : ''}; the graph is left empty until the next full sync`);

  child.on('message', (raw) => {
    const m = raw as ToParent;
    if (m.t === 'ready') { ready?.ok(); ready = null; }
    else if (m.t === 'rows' || m.t === 'error') {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.t === 'rows') p?.ok(m.rows);
      else p?.fail(m.code ? new CoreError(m.code, m.message, m.details) : new Error(m.message));
    } else if (m.t === 'closed') {
      loadProcessPeaks.push(m.peakKb * 1024);
    } else {
      const e = died(`failed (${m.message})`);
      ready?.fail(e); ready = null;
      closing?.fail(e); closing = null;
    }
    refresh();
  });
  child.on('exit', (code, signal) => {
    process.removeListener('exit', killOnExit);
    const clean = closing !== null && code === 0;
    dead = died(signal ? `was killed (${signal})` : `exited with code ${String(code)}`);
    for (const p of pending.values()) p.fail(dead);
    pending.clear();
    ready?.fail(dead); ready = null;
    if (clean) closing?.ok(); else closing?.fail(dead);
    closing = null;
    refresh();
  });
  child.on('error', (e) => {
    // fork itself failed (no such binary): no 'exit' follows when the process never started
    if (child.pid === undefined) { dead = died(`could not start (${e.message})`); ready?.fail(dead); ready = null; }
  });

  await new Promise<void>((ok, fail) => { ready = { ok, fail }; refresh(); });

  const query = (conn: 0 | 1 | 2, stmt: string, params?: Params, timeoutMs?: number): Promise<Row[]> => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise<Row[]>((ok, fail) => {
      pending.set(id, { ok, fail });
      refresh();
      const m: ToChild = { t: 'query', id, conn, stmt, ...(params && Object.keys(params).length > 0 ? { params } : {}), ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
      child.send(m, (err) => {
        if (err && pending.delete(id)) { fail(died(`could not be reached (${err.message})`)); refresh(); }
      });
    });
  };
  const conn = (n: 0 | 1 | 2): Conn => {
    let timeoutMs: number | undefined;
    return {
      query: (stmt, params) => query(n, stmt, params, timeoutMs),
      // the statements fn issues on this connection carry the timeout; the caller holds the connection meanwhile
      withTimeout: async (ms, fn) => {
        timeoutMs = Math.max(1, Math.floor(ms));
        try { return await fn(); } finally { timeoutMs = undefined; }
      },
    };
  };
  return {
    writer: conn(0), reader: conn(1), spare: conn(2), pid: child.pid ?? null,
    close: () => {
      if (dead) return Promise.resolve();
      return new Promise<void>((ok, fail) => {
        closing = { ok, fail };
        refresh();
        child.send({ t: 'close' } satisfies ToChild);
      });
    },
  };
}
