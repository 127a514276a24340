/**
 * The CLI shows an open's progress only on a terminal (CliIo.status, present when stderr is a TTY): one line
 * rewritten in place, files read / total, then "indexing search…" for `sync`, erased before the result.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import { run as sync } from './commands/sync.js';
import type { CliIo } from './io.js';
import { CoreSession, watchedOpener } from '../core/session.js';
import { progressLine, withOpenProgress } from './progress.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

function io(tty: boolean): CliIo & { lines: string[]; status_: string[] } {
  const lines: string[] = [];
  const status_: string[] = [];
  return { lines, status_, out: (l) => lines.push(l), err: (l) => lines.push(l), ...(tty ? { status: (t: string) => { status_.push(t); } } : {}) };
}
const CLEAR = '\r\u001b[K';

describe('progress on a terminal', () => {
  it('rewrites one line with each new label and erases it at the end; nothing after end()', () => {
    const t = io(true);
    const line = progressLine(t);
    line.onProgress!({ phase: 'reading', done: 0, total: 2 });
    line.onProgress!({ phase: 'reading', done: 0, total: 2 });
    line.onProgress!({ phase: 'reading', done: 2, total: 2 });
    line.end();
    line.onProgress!({ phase: 'indexing' });
    line.end();
    expect(t.status_).toEqual([`${CLEAR}reading 0 / 2 files`, `${CLEAR}reading 2 / 2 files`, CLEAR]);
  });

  it('shows nothing when stderr is not a terminal', () => {
    const line = progressLine(io(false));
    expect(line.onProgress).toBeUndefined();
    line.end();
  });

  it('`lorecraft sync` shows files read / total, then indexing search, and erases the line before printing', async () => {
    const v = tempDir('lc-cli-progress-');
    tmp.push(v);
    writeFiles(v, { 'Varo.md': 'Varo burned [[Millbrook]].\n', 'Millbrook.md': 'A village.\n' });
    const t = io(true);
    expect(await sync(['--vault', v], t)).toBe(0);
    expect(t.status_).toEqual([`${CLEAR}reading 0 / 2 files`, `${CLEAR}reading 2 / 2 files`, `${CLEAR}loading the graph…`, `${CLEAR}indexing search…`, CLEAR]);
    expect(t.lines.join('\n')).toContain('2 entities, 1 relationships');
    const piped = io(false);
    expect(await sync(['--vault', v], piped)).toBe(0);
    expect(piped.status_).toEqual([]);
  });

  it('`lorecraft web` on a terminal: the session open shows files read / total, then loading, erased once it answers', async () => {
    const v = tempDir('lc-cli-progress-web-');
    const db = tempDir('lc-cli-progress-web-db-');
    tmp.push(v, db);
    writeFiles(v, { 'Varo.md': 'Varo burned [[Millbrook]].\n', 'Millbrook.md': 'A village.\n' });
    const t = io(true);
    const line = progressLine(t);
    const events: string[] = [];
    const session = new CoreSession(withOpenProgress(line, (event) => { events.push(event); }), watchedOpener({ dbDir: db }));
    try {
      await session.open(v).finally(() => line.end());
      expect(t.status_).toEqual([`${CLEAR}reading 0 / 2 files`, `${CLEAR}reading 2 / 2 files`, `${CLEAR}loading the graph…`, CLEAR]);
      // the pushes still reach the page
      expect(events).toContain('vault-opened');
      expect(events.filter((e) => e === 'sync-status').length).toBeGreaterThanOrEqual(3);
    } finally {
      await session.close();
    }
    // not a terminal: the sink is the page's alone
    const sink = () => undefined;
    expect(withOpenProgress(progressLine(io(false)), sink)).toBe(sink);
  });
});
