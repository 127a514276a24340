/**
 * Note bodies are not kept in memory once the graph holds them: a note's `body` becomes an accessor that
 * reads its file again (the one way every caller gets a body: entity records, panel, search snippets, the
 * players' lens, exports, MCP). The bodies of a 7,000-note vault are ~25 MB of strings the model no longer
 * holds, and the note cache (stat-cache.ts) no longer stores them.
 *
 * What a read gives: the body of the file as it is now (parse/parse.ts noteBody: the same decoding, BOM and
 * frontmatter split as the parser). When the file changed since the model read it (its content hash differs),
 * that is still its current body: the watcher is about to apply the change (or, without a watcher, the next
 * sync); the model's other fields (links, hash) stay those of the read until then. A file that cannot be read
 * (deleted meanwhile) gives ''.
 */
import { readFileSync } from 'node:fs';
import { noteBody, own, type ParseOptions } from '../parse/parse.js';
import type { ParsedNote } from '../parse/types.js';
import { HUGE_BODY_CHARS } from '../store/types.js';

/** The body of the note file at `abs` as it is now ('' when it cannot be read). */
export function readBody(abs: string, opts: ParseOptions = {}): string {
  try {
    return noteBody(readFileSync(abs), opts);
  } catch {
    return '';
  }
}

const PATH = Symbol('lorecraft.bodyPath');
const OPTS = Symbol('lorecraft.bodyOpts');
/** Where a lazy note's file is: its absolute path, or the folder it is `note.path` inside (see folderOf). */
type Where = string | { readonly prefix: string };
type LazyNote = ParsedNote & { [PATH]: Where; [OPTS]: ParseOptions };

/** The one getter of every lazy body (a getter per note would give every note a shape of its own). */
function lazyBody(this: LazyNote): string {
  const w = this[PATH];
  return readBody(typeof w === 'string' ? w : w.prefix + this.path, this[OPTS]);
}

/** The folders lazy notes are inside, each one object every note of it shares (a handful per process: a vault's). */
const folders = new Map<string, { readonly prefix: string }>();
const MAX_FOLDERS = 64;

/**
 * Where the file `abs` of `note` is, as kept: when `abs` is the note's vault path behind a folder (what the engine
 * and the note cache pass: join(vaultDir, note.path) on POSIX), the folder's one shared object, so that a note keeps
 * no path string of its own; else `abs` itself, as one flat string. Why (rss15i, issue 15 point 6): every note of a
 * 10k vault kept its absolute path, built by path.join as a chain of cons strings (~74k cons strings, 2.3 MB, after
 * a first open; ~1 MB of path strings after opening again).
 */
function whereOf(note: ParsedNote, abs: string): Where {
  const rel = note.path;
  const cut = abs.length - rel.length;
  if (cut > 1 && abs.charCodeAt(cut - 1) === 47 /* / */ && abs.endsWith(rel)) {
    const prefix = abs.slice(0, cut);
    let f = folders.get(prefix);
    if (!f) {
      if (folders.size >= MAX_FOLDERS) folders.clear();
      f = Object.freeze({ prefix: own(prefix) });
      folders.set(f.prefix, f);
    }
    return f;
  }
  return own(abs);
}

/**
 * Drop `note`'s body from memory: from now on reading `note.body` reads the file at `abs` (readBody).
 * Memory: the file's path (its vault folder's one shared object: whereOf) and the options are kept as two hidden (symbol-keyed, non-enumerable) fields and
 * `body` becomes an accessor with one shared getter, so V8 gives every lazy note the same hidden class. A
 * getter closure per note, or an accessor put over the data property in place, turned each note into a
 * dictionary-mode object (~800 bytes of property dictionary a note: ~8 MB at 10k notes, heap snapshot).
 * The parser puts `body` last, so deleting it undoes the shape's last step.
 */
export function makeBodyLazy(note: ParsedNote, abs: string, opts: ParseOptions = {}): void {
  if (Object.prototype.hasOwnProperty.call(note, 'body')) delete (note as { body?: string }).body;
  Object.defineProperty(note, PATH, { value: whereOf(note, abs), writable: true, configurable: true });
  Object.defineProperty(note, OPTS, { value: opts, writable: true, configurable: true });
  Object.defineProperty(note, 'body', LAZY_BODY);
}
/** The one descriptor of every lazy body (a literal per call was one more object per cached note of a warm open). */
const LAZY_BODY: PropertyDescriptor = Object.freeze({ get: lazyBody, enumerable: true, configurable: true });

/** Is `note.body` held in memory and longer than HUGE_BODY_CHARS (store/types.ts: the store keeps it shortened; engine.ts drops it once the graph holds it)? */
export function hugeBodyInMemory(note: ParsedNote): boolean {
  return bodyInMemory(note) && note.body.length > HUGE_BODY_CHARS;
}

/** Is `note.body` held in memory (a value), not read from the file? */
export function bodyInMemory(note: ParsedNote): boolean {
  return Object.getOwnPropertyDescriptor(note, 'body')?.get === undefined;
}

/** A copy of `note` without its body, for the note cache (never reads a lazy body). */
export function withoutBody(note: ParsedNote): Omit<ParsedNote, 'body'> {
  return {
    path: note.path, hash: note.hash, basename: note.basename, frontmatter: note.frontmatter, fieldLines: note.fieldLines,
    hasFrontmatter: note.hasFrontmatter, bodyLine: note.bodyLine, title: note.title, aliases: note.aliases, tags: note.tags,
    bodyLinks: note.bodyLinks, fieldLinks: note.fieldLinks, problems: note.problems,
  };
}
