/**
 * Reads and parses notes, never throwing: a file that
 * cannot be read becomes a problem, a file that vanished is reported as gone.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type BigIntStats } from 'node:fs';
import type { Problem } from '../../shared/types.js';
import { parseNote, type ParseOptions } from '../parse/parse.js';
import type { ParsedNote } from '../parse/types.js';
import { type NoteCache, statKey } from './stat-cache.js';

export interface ReadOutcome {
  notes: ParsedNote[];
  /** paths that no longer exist */
  gone: string[];
  problems: Problem[];
}

/** Files read between two turns of the event loop (a cold sync stays responsive: watcher, sockets). */
const SLICE = 256;

/**
 * Read and parse `files` in order: synchronous reads in slices of SLICE
 * files, the event loop served between slices. Measured on 10k notes here
 * (2 cores, warm cache): ~0.15 s of reading with readFileSync against
 * ~0.2-0.5 s wall and far more main-thread time with fs.readFile and 8-64
 * reads in flight (each read is four thread-pool round trips: open, fstat,
 * read, close — the main thread's share of them cost more than the read);
 * the whole read phase went from ~0.8 s to ~0.4 s. The price: on a cold
 * disk cache the reads no longer overlap each other.
 *
 * With a note cache (stat-cache.ts), a file whose stat is the one the cache
 * read it with is not read: its cached note is taken; every note read or
 * taken is recorded in the cache's next snapshot with its stat.
 * onProgress: files done so far, after every slice and at the end.
 */
export async function readNotes(files: Iterable<[string, string]>, opts: ParseOptions, slice = SLICE, cache?: NoteCache, onProgress?: (done: number) => void): Promise<ReadOutcome> {
  const out: ReadOutcome = { notes: [], gone: [], problems: [] };
  let i = 0;
  for (const f of files) {
    if (cache) readCached(f, opts, out, cache); else readOne(f, opts, out);
    if (++i % slice === 0) {
      onProgress?.(i);
      await new Promise<void>((res) => setImmediate(res));
    }
  }
  onProgress?.(i);
  return out;
}

/**
 * The same without yielding: for the handful of files of a watcher batch or
 * a write-back.
 */
export function readNotesSync(files: Iterable<[string, string]>, opts: ParseOptions): ReadOutcome {
  const out: ReadOutcome = { notes: [], gone: [], problems: [] };
  for (const f of files) readOne(f, opts, out);
  return out;
}

/**
 * readFileSync's system calls (open, fstat, read, close), but a FIFO or device named .md (reached through a
 * symbolic link) is refused instead of blocking the process: opened non-blocking, and only a regular file is read.
 */
function readRegular(abs: string, stats?: (st: BigIntStats) => void): Buffer {
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd, { bigint: true });
    stats?.(st);
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: st.isDirectory() ? 'EISDIR' : 'ENOTREG' });
    const buf = Buffer.allocUnsafe(Number(st.size));
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, null);
      if (n === 0) break;
      off += n;
    }
    return off < buf.length ? buf.subarray(0, off) : buf;
  } finally {
    closeSync(fd);
  }
}

/** One file through the cache: its cached note when the stat matches, else read (the stat taken before the read). */
function readCached(f: [string, string], opts: ParseOptions, out: ReadOutcome, cache: NoteCache): void {
  // a file the cache does not hold (every file of a first open) is read at once: its stat comes from the read's fstat
  if (cache.holds(f[0])) {
    const st = statSync(f[1], { bigint: true, throwIfNoEntry: false });
    // the stat's key once, for the look-up and the new snapshot's entry
    const key = st?.isFile() ? statKey(st) : undefined;
    const hit = key !== undefined ? cache.get(f[0], st!, f[1], key) : undefined;
    if (hit) {
      out.notes.push(hit);
      cache.record(f[0], st!, hit, true, key);
      return;
    }
  }
  let readStat: BigIntStats | undefined;
  const n = out.notes.length;
  readOne(f, opts, out, (s) => { readStat = s; });
  if (out.notes.length > n && readStat) cache.record(f[0], readStat, out.notes[n]!, false);
}

function readOne([rel, abs]: [string, string], opts: ParseOptions, out: ReadOutcome, stats?: (st: BigIntStats) => void): void {
  let bytes: Buffer;
  try {
    bytes = readRegular(abs, stats);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') out.gone.push(rel);
    else if (code === 'ENOTREG') out.problems.push({ severity: 'warning', code: 'not-a-file', file: rel, line: 1, message: 'not a regular file (a pipe or a device): skipped' });
    else if (code === 'ELOOP') out.problems.push({ severity: 'warning', code: 'symlink-loop', file: rel, line: 1, message: 'symbolic link loop: skipped' });
    else if (code !== 'EISDIR') out.problems.push({ severity: 'error', code: 'read-failed', file: rel, line: 1, message: `cannot read file: ${(err as Error).message}` });
    return;
  }
  out.notes.push(parseNote(rel, bytes, opts));
}
