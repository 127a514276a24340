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
 * Layout (format notes-2, issue 15 point 6: a warm open deserialised the whole
 * cache, 25 MB of parsed notes on the real-shaped 7k vault, ~0.5 s of CPU and
 * most of the GC): per note, the fields a warm open reads (path, hash, names,
 * tags) are stored as values; the rest (frontmatter, field lines, links,
 * problems) as its own v8-serialised bytes inside one region, deserialised the
 * first time one of them is read (cachedNote). The region carries a CRC-32 that
 * load() checks, so damaged bytes are refused up front, never met later. A
 * note whose heavy part was never read is saved again by copying its bytes.
 *
 * Format notes-3 (mem15d): a heavy part that JSON gives back exactly (plain
 * objects and arrays, strings, booleans, null, finite numbers other than -0:
 * what frontmatter almost always is) is stored as its JSON text (first byte
 * `[`), any other as v8 bytes (first byte 0xFF). Saving 10k notes with one
 * v8.serialize each left 10k Serializers alive until the next GC, each with
 * an 8 KB zone and its own output buffer, all malloc'd at once: ~80 MB the
 * first open's process kept resident (glibc's main heap, fragmented) long
 * after the GC freed them. The JSON text is V8 heap the GC takes back.
 *
 * The cache is a cache: a missing, unreadable, truncated or foreign file
 * (other format, other parser options) is ignored, never an error.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync, type BigIntStats } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { crc32 } from 'node:zlib';
import { FRONTMATTER_ONCE } from '../parse/frontmatter-once.js';
import type { ParseOptions } from '../parse/parse.js';
import type { ParsedNote } from '../parse/types.js';
import { makeBodyLazy, withoutBody } from './body.js';

/** Bump when parseNote's output changes meaning: cached notes of an older parser are not used. */
export const PARSE_FORMAT = 'parse-2';
/** 2 s: the coarsest timestamp granularity in use (FAT), and the slack between Date.now() and the kernel's file clock. */
export const RACY_MARGIN_NS = 2_000_000_000n;

/** Bump when the file's layout changes (an older file is ignored: every note is read once, then saved anew). */
const CACHE_LAYOUT = 'notes-3';

/** The fields of a note a warm open reads at once, stored as values. */
type Light = [path: string, hash: string, basename: string, hasFrontmatter: boolean, bodyLine: number, title: string, aliases: string[], tags: string[]];
/** The rest, stored as v8 bytes per note and deserialised when first read. */
type Heavy = [frontmatter: Record<string, unknown>, fieldLines: Record<string, number>, bodyLinks: ParsedNote['bodyLinks'], fieldLinks: ParsedNote['fieldLinks'], problems: ParsedNote['problems']];
const HEAVY_KEYS = ['frontmatter', 'fieldLines', 'bodyLinks', 'fieldLinks', 'problems'] as const;

/** The file as stored. `off`: n + 1 offsets of each note's heavy bytes in `heavy`. */
interface Stored { key: string; takenAtNs: string; rel: string[]; stat: string[]; light: Light[]; off: Float64Array; heavy: Uint8Array; crc: number }
/**
 * stat: the file's statKey, or the parts it joins (a note read: joined when the snapshot is saved, off the open's
 * path; ~4 ms per 10k notes JIT-warm, ~12 ms cold, where taking the parts is ~0.2 ms)
 */
interface Snapshot { key: string; takenAtNs: string; entries: Array<[rel: string, stat: string | bigint[], note: ParsedNote]> }
/** A note as stored: without its body (a cached note's body is read from its file: body.ts). */
type StoredNote = Omit<ParsedNote, 'body'>;

const HEAVY = Symbol('lorecraft.cachedHeavy');
type CachedNote = ParsedNote & { [HEAVY]: Uint8Array | Heavy };

/** The heavy fields of a cached note, deserialised on first use (the bytes were checked by load()'s CRC). */
function heavyOf(n: CachedNote): Heavy {
  const h = n[HEAVY];
  if (!(h instanceof Uint8Array)) return h;
  const v = decodeHeavy(h);
  n[HEAVY] = v;
  return v;
}
/** decode `h`, a heavy part's bytes */
function decodeHeavy(h: Uint8Array): Heavy {
  return (h[0] === JSON_OPEN ? JSON.parse(utf8.decode(h)) : deserialize(h)) as Heavy;
}
/**
 * The frontmatter of a cached note without keeping its heavy part decoded when it was still bytes
 * (parse/frontmatter-once.ts): the note stays as it was. A note whose heavy part was read keeps giving its own.
 */
function frontmatterOnce(this: CachedNote): Record<string, unknown> {
  const h = this[HEAVY];
  return h instanceof Uint8Array ? decodeHeavy(h)[0] : h[0];
}
/** Is `note` one of the cache's whose frontmatter, links and problems are still bytes (never read)? */
export function heavyPending(note: ParsedNote): boolean {
  return (note as Partial<CachedNote>)[HEAVY] instanceof Uint8Array;
}

/** One shared getter and setter per heavy field (a closure per note would give every note a shape of its own). */
const ACCESSORS = HEAVY_KEYS.map((_, i) => ({
  get(this: CachedNote) { return heavyOf(this)[i]; },
  set(this: CachedNote, v: unknown) { (heavyOf(this) as unknown[])[i] = v; },
  enumerable: true, configurable: true,
}));

/** A note of the cache: its light fields as values, the heavy ones read from `bytes` when first asked for. */
function cachedNote(l: Light, bytes: Uint8Array): ParsedNote {
  const n = { path: l[0], hash: l[1], basename: l[2], hasFrontmatter: l[3], bodyLine: l[4], title: l[5], aliases: l[6], tags: l[7] };
  Object.defineProperty(n, HEAVY, { value: bytes, writable: true });
  Object.defineProperty(n, FRONTMATTER_ONCE, { value: frontmatterOnce });
  for (let i = 0; i < HEAVY_KEYS.length; i++) Object.defineProperty(n, HEAVY_KEYS[i]!, ACCESSORS[i]!);
  return n as unknown as ParsedNote;
}

/** `[`: the first byte of a heavy part stored as JSON text (v8's serialisation begins with its version tag, 0xFF). */
const JSON_OPEN = 0x5b;
const utf8 = new TextDecoder();
const utf8Out = new TextEncoder();

/**
 * Does JSON.parse(JSON.stringify(v)) give `v` back exactly (as v8's deserialize would)? Plain objects (no
 * symbols, no accessors, no `__proto__` key) and dense arrays of strings, booleans, null and finite numbers
 * other than -0. Anything else (undefined, NaN, ±Infinity from YAML's .nan/.inf, -0, Dates, Maps, holes,
 * cycles) is stored as v8 bytes.
 */
export function jsonExact(v: unknown, depth = 0): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (typeof v !== 'object' || depth > 64) return false;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return false;
    for (let i = 0; i < v.length; i++) if (!(i in v) || !jsonExact(v[i], depth + 1)) return false;
    return Object.keys(v).length === v.length && Object.getOwnPropertySymbols(v).length === 0;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype || Object.getOwnPropertySymbols(v).length > 0) return false;
  const names = Object.getOwnPropertyNames(v);
  for (const k of names) {
    const d = Object.getOwnPropertyDescriptor(v, k)!;
    if (k === '__proto__' || !('value' in d) || !d.enumerable || !jsonExact(d.value, depth + 1)) return false;
  }
  return true;
}

/**
 * A note's heavy part as stored: the bytes it was read with while never deserialised; else its JSON text when
 * that gives it back exactly (a string: encoded straight into the region), else its v8 bytes.
 */
function heavyPart(note: StoredNote): Uint8Array | string {
  const h = (note as Partial<CachedNote>)[HEAVY];
  if (h instanceof Uint8Array) return h;
  const heavy: Heavy = [note.frontmatter, note.fieldLines, note.bodyLinks, note.fieldLinks, note.problems];
  return jsonExact(heavy) ? JSON.stringify(heavy) : serialize(heavy);
}

function isLight(l: unknown): l is Light {
  return Array.isArray(l) && l.length === 8 && typeof l[0] === 'string' && typeof l[1] === 'string' && typeof l[2] === 'string'
    && typeof l[3] === 'boolean' && typeof l[4] === 'number' && typeof l[5] === 'string' && Array.isArray(l[6]) && Array.isArray(l[7]);
}

/** The parts of a stat that say "unchanged" (git's index: ctime, mtime, dev, ino, size). */
export function statKey(st: BigIntStats): string {
  // joined, not a template: a template's result is a chain of cons strings (~10 per key), kept for every note
  return joinStat(statParts(st));
}

/** statKey of a stat's parts. */
function joinStat(parts: bigint[]): string {
  return parts.join(':');
}

/** The parts of a stat statKey joins (what the key of a file changes with). */
function statParts(st: BigIntStats): bigint[] {
  return [st.size, st.mtimeNs, st.ctimeNs, st.ino, st.dev];
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
    const c = NoteCache.open(file, opts, now);
    c.readFile();
    return c;
  }

  /**
   * The same cache, its file read by the first begin() rather than now: a whole-vault read (sync/engine.ts
   * readVault) starts listing the folders on the thread pool first, then reads the cache on this thread.
   */
  static open(file: string, opts: ParseOptions, now: () => number = Date.now): NoteCache {
    return new NoteCache(file, `${CACHE_LAYOUT}\n${PARSE_FORMAT}\n${JSON.stringify({ t: opts.titleField ?? null, m: opts.maxBytes ?? null })}`, opts, now);
  }

  private readFile(): void {
    this.prevLoaded = true;
    this.prev = new Map();
    this.prevTakenAtNs = 0n;
    try {
      if (!existsSync(this.file)) return;
      const snap = deserialize(readFileSync(this.file)) as Stored;
      if (snap?.key !== this.key || !Array.isArray(snap.rel) || !Array.isArray(snap.stat) || !Array.isArray(snap.light)) return;
      const n = snap.rel.length;
      const { off, heavy } = snap;
      if (snap.stat.length !== n || snap.light.length !== n || !(off instanceof Float64Array) || off.length !== n + 1) return;
      if (!(heavy instanceof Uint8Array) || off[0] !== 0 || off[n] !== heavy.length || crc32(heavy) !== snap.crc) return;
      for (let i = 0; i < n; i++) {
        const rel = snap.rel[i];
        const stat = snap.stat[i];
        const l = snap.light[i];
        if (typeof rel !== 'string' || typeof stat !== 'string' || !isLight(l) || l[0] !== rel || !(off[i + 1]! > off[i]!)) throw new Error('foreign entry');
        this.prev.set(rel, { stat, note: cachedNote(l, heavy.subarray(off[i], off[i + 1])) });
      }
      this.prevTakenAtNs = BigInt(snap.takenAtNs);
    } catch {
      this.prev.clear();
      this.prevTakenAtNs = 0n;
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
  get(rel: string, st: BigIntStats, abs: string, key: string = statKey(st)): ParsedNote | undefined {
    const e = this.prev.get(rel);
    if (!e || e.stat !== key) return undefined;
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

  /**
   * `note` was parsed from (or taken for) the file whose stat, taken before its read, is `st` (`key`: its
   * statKey, when the caller has it already: get()'s).
   */
  record(rel: string, st: BigIntStats, note: ParsedNote, hit: boolean, key?: string): void {
    if (hit) this.hits++; else this.misses++;
    this.next?.entries.push([rel, key ?? statParts(st), note]);
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
    if (same) { this.prev = new Map(); this.prevLoaded = false; return; }
    // a note taken from the cache is kept as it is (its heavy part maybe never deserialised); a note read, without its body
    const stored = snap.entries.map(([rel, stat, note]): [string, string, StoredNote] => [
      rel, typeof stat === 'string' ? stat : joinStat(stat), HEAVY in note ? note : withoutBody(note),
    ]);
    this.prev = new Map();
    this.prevLoaded = false;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, serialize(encode(snap.key, snap.takenAtNs, stored)));
      renameSync(tmp, this.file);
    } catch {
      rmSync(tmp, { force: true });
    }
  }

  /** A read that will not be saved (it failed): drop its snapshot. */
  discard(): void { this.next = null; }
}

/** The stored form of a snapshot's entries (see the file's header). */
function encode(key: string, takenAtNs: string, entries: Array<[string, string, StoredNote]>): Stored {
  const parts = entries.map(([, , n]) => heavyPart(n));
  const off = new Float64Array(entries.length + 1);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    off[i + 1] = off[i]! + (typeof p === 'string' ? Buffer.byteLength(p, 'utf8') : p.length);
  }
  const heavy = new Uint8Array(off[entries.length]!);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (typeof p === 'string') utf8Out.encodeInto(p, heavy.subarray(off[i], off[i + 1]));
    else heavy.set(p, off[i]);
  }
  return {
    key, takenAtNs, rel: entries.map((e) => e[0]), stat: entries.map((e) => e[1]),
    light: entries.map(([, , n]): Light => [n.path, n.hash, n.basename, n.hasFrontmatter, n.bodyLine, n.title, n.aliases, n.tags]),
    off, heavy, crc: crc32(heavy),
  };
}
