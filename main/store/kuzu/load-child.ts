/**
 * The load process's entry (load-process.ts forks it): opens the database file given as its argument with
 * the same three connections as the store's own (db.ts), runs the statements the parent sends on the
 * connection it names, and answers each with its rows or its error. On 'close' it closes the database and
 * exits; when the parent goes away (the IPC channel closes) it exits at once, and Kùzu's WAL makes the
 * next open discard the unfinished transaction.
 */
import { readFileSync } from 'node:fs';
import { CoreError } from '../../domain/errors.js';
import { type Conn, type OpenedDb, type Row, openDatabase } from './db.js';
import type { ToChild, ToParent } from './load-process.js';

const send = (m: ToParent): Promise<void> => new Promise((res) => {
  if (!process.send) { res(); return; }
  process.send(m, undefined, undefined, () => res());
});

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function peakKb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) : 0;
}

async function main(file: string): Promise<void> {
  process.on('disconnect', () => process.exit(3));
  let o: OpenedDb;
  try {
    o = await openDatabase(file);
  } catch (e) {
    await send({ t: 'fail', message: message(e) });
    process.exit(1);
  }
  const conns: Conn[] = [o.writer, o.reader, o.spare];
  process.on('message', (raw) => {
    const m = raw as ToChild;
    if (m.t === 'close') {
      void o.close().then(async () => {
        await send({ t: 'closed', peakKb: peakKb() });
        process.exit(0);
      }, async (e: unknown) => {
        await send({ t: 'fail', message: message(e) });
        process.exit(1);
      });
      return;
    }
    const c = conns[m.conn]!;
    const run = (): Promise<Row[]> => c.query(m.stmt, m.params);
    (m.timeoutMs !== undefined ? c.withTimeout(m.timeoutMs, run) : run()).then(
      (rows) => send({ t: 'rows', id: m.id, rows }),
      (e: unknown) => send({ t: 'error', id: m.id, message: message(e), ...(e instanceof CoreError ? { code: e.code, ...(e.details ? { details: e.details } : {}) } : {}) }),
    );
  });
  await send({ t: 'ready' });
}

void main(process.argv[2] ?? '');
