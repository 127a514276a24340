/**
 * The note cache: every parsed note of the last whole-vault read, with the
 * stat its file had when it was read, kept in one file (`<dbDir>/notes.cache`,
 * v8-serialised). Opening a vault again re-reads only the files whose stat
 * differs, as git's index does: size, mtime, ctime, inode and device, in
 * nanoseconds. A stat that differs means "read it": the content hash stays
 * the truth for what changed (the model and the store compare hashes).
 *
 * Racy files (git's "racy clean" problem): a file written again within the
 * file system's timestamp granularity of its read could keep size and mtime.
 * So an entry is trusted only when its mtime and ctime lie more than
 * RACY_MARGIN_NS before the read began (the snapshot's takenAt); a later
 * write then gets a later timestamp. Restoring mtime after a write (touch -d,
 * utimes) still changes ctime, which the kernel sets and nobody can set back.
 *
 * Bodies are not stored (body.ts): a note taken from the cache reads its body
 * from its file when asked, so the cache holds half the bytes it would.
 *
 * The cache is a cache: a missing, unreadable, truncated or foreign file
 * (other format, other parser options) is ignored, never an error.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync, type BigIntStats } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import type { ParseOptions } from '../parse/parse.js';
import type { ParsedNote } from '../parse/types.js';
import { makeBodyLazy, withoutBody } from './body.js';

/** Bump when parseNote's output changes meaning: cached notes of an older parser are not used. */
export const PARSE_FORMAT = 'parse-2';
/** 2 s: the coarsest timestamp granularity in use (FAT), and the slack between Date.now() and the kernel's file clock. */
export const RACY_MARGIN_NS = 2_000_000_000n;

interface Snapshot { key: string; takenAtNs: string; entries: Array<[rel: string, stat: string, note: ParsedNote]> }
/** A note as stored: without its body (a cached note's body is read from its file: body.ts). */
type StoredNote = Omit<ParsedNote, 'body'>;

/** The parts of a stat that say "unchanged" (git's index: ctime, mtime, dev, ino, size). */
export function statKey(st: BigIntStats): string {
  // joined, not a template: a template's result is a chain of cons strings (~10 per key), kept for every note
  return [st.size, st.mtimeNs, st.ctimeNs, st.ino, st.dev].join(':');
}

export class NoteCache {
  private prev = new Map<string, { stat: string; note: StoredNote }>();
  private prevTakenAtNs = 0n;
  /** prev holds the file's snapshot; false after save(): it is read from the file again at the next begin() */
  private prevLoaded = false;
  private next: Snapshot | null = null;
  /** files taken from the cache and files read, in the last begin()..save() */
  hits = 0;
  misses = 0;

  private constructor(private readonly file: string, private readonly key: string, private readonly opts: ParseOptions, private readonly now: () => number) {}

  /**
   * The cache of `file` for notes parsed with `opts` (empty when the file is missing or foreign). `now`: the
   * wall clock in ms that dates a snapshot (tests pass a later one to make fresh files non-racy).
   */
  static load(file: string, opts: ParseOptions, now: () => number = Date.now): NoteCache {
    const c = new NoteCache(file, `${PARSE_FORMAT}\n${JSON.stringify({ t: opts.titleField ?? null, m: opts.maxBytes ?? null })}`, opts, now);
    c.readFile();
    return c;
  }

  private readFile(): void {
    this.prevLoaded = true;
    this.prev = new Map();
    this.prevTakenAtNs = 0n;
    try {
      if (!existsSync(this.file)) return;
      const snap = deserialize(readFileSync(this.file)) as Snapshot;
      if (snap?.key !== this.key || !Array.isArray(snap.entries)) return;
      this.prevTakenAtNs = BigInt(snap.takenAtNs);
      for (const [rel, stat, note] of snap.entries) {
        if (typeof rel !== 'string' || typeof stat !== 'string' || typeof note?.hash !== 'string') throw new Error('foreign entry');
        this.prev.set(rel, { stat, note });
      }
    } catch {
      this.prev.clear();
    }
  }

  /** A whole-vault read starts: the snapshot it builds is taken now (the last one read from the file first, if save() let it go). */
  begin(): void {
    if (!this.prevLoaded) this.readFile();
    this.next = { key: this.key, takenAtNs: String(BigInt(Math.floor(this.now())) * 1_000_000n), entries: [] };
    this.hits = 0;
    this.misses = 0;
  }

  /**
   * The cached note of `rel` when its file's stat is the one it was read with and the entry is not racy; its
   * body is read from `abs` when asked (body.ts).
   */
  get(rel: string, st: BigIntStats, abs: string): ParsedNote | undefined {
    const e = this.prev.get(rel);
    if (!e || e.stat !== statKey(st)) return undefined;
    const latest = st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs;
    if (latest + RACY_MARGIN_NS >= this.prevTakenAtNs) return undefined;
    const note = e.note as ParsedNote;
    makeBodyLazy(note, abs, this.opts);
    return note;
  }

  /** Whether get() could answer for `rel` at all (a file the last snapshot does not hold is read without a stat first). */
  holds(rel: string): boolean {
    return this.prev.has(rel);
  }

  /** `note` was parsed from (or taken for) the file whose stat, taken before its read, is `st`. */
  record(rel: string, st: BigIntStats, note: ParsedNote, hit: boolean): void {
    if (hit) this.hits++; else this.misses++;
    this.next?.entries.push([rel, statKey(st), note]);
  }

  /**
   * Persist the snapshot of the last read (atomically: a temporary file renamed into place), unless it holds
   * exactly what the file holds. Afterwards the snapshot is what get() answers from: read from the file again
   * at the next begin(), not kept in memory meanwhile (a whole-vault read is rare once a vault is open, and the
   * kept snapshot was a second object, a stat key and a map entry for every note: mem15c).
   */
  save(): void {
    const snap = this.next;
    this.next = null;
    if (!snap) return;
    const same = this.misses === 0 && snap.entries.length === this.prev.size;
    this.prev = new Map();
    this.prevLoaded = false;
    if (same) return;
    const stored = snap.entries.map(([rel, stat, note]): [string, string, StoredNote] => [rel, stat, withoutBody(note)]);
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, serialize({ ...snap, entries: stored }));
      renameSync(tmp, this.file);
    } catch {
      rmSync(tmp, { force: true });
    }
  }

  /** A read that will not be saved (it failed): drop its snapshot. */
  discard(): void { this.next = null; }
}
