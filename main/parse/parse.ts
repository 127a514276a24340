/**
 * The note parser: bytes in, ParsedNote out. Pure and total: it never throws;
 * every defect of the input becomes a Problem (file + line) on the result.
 *
 * Cost model: one native sha256, one UTF-8 validity check, one yaml
 * parseDocument of the frontmatter only (its node ranges give every line we
 * need, so the YAML is never parsed twice), one line scan of the body.
 */
import { findFences } from './fences.js';
import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { parseDocument, isMap, isSeq, isScalar, isPair, type Node as YamlNode } from 'yaml';
import type { Problem } from '../../shared/types.js';
import type { FieldRef, ParsedNote, WikiLink } from './types.js';
import { isValidTag, scanBody, scanLinks } from './wikilinks.js';
import { parseLink } from '../../shared/wikilinks.js';
import { frontmatterTags } from '../../shared/tags.js';
import { fastFrontmatter } from './fast-yaml.js';

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

export interface ParseOptions {
  /** frontmatter key holding the display name (schema title_field); default 'title' */
  titleField?: string;
  /** larger files are not parsed ('too-large'); default 10 MiB */
  maxBytes?: number;
}

function basenameOf(path: string): string {
  const seg = path.slice(path.lastIndexOf('/') + 1);
  return seg.toLowerCase().endsWith('.md') ? seg.slice(0, -3) : seg;
}

function lineOfOffset(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function emptyNote(path: string, hash: string, problems: Problem[]): ParsedNote {
  const basename = basenameOf(path);
  return {
    path, hash, basename, frontmatter: {}, fieldLines: {}, hasFrontmatter: false, bodyLine: 1,
    title: basename, aliases: [], tags: [], bodyLinks: [], fieldLinks: [], problems,
    // last: dropping it for a lazy body (sync/body.ts makeBodyLazy) then undoes the last step of the object's
    // shape instead of turning the object into a dictionary (~800 bytes more per note)
    body: '',
  };
}

/** The frontmatter block (parse/fences.ts, the splitter the editor uses too). */
function splitFrontmatter(text: string): { yaml: string; body: string; bodyLine: number } | null | 'unclosed' {
  const f = findFences(text);
  if (f === null || f === 'unclosed') return f;
  return { yaml: text.slice(f.yamlStart, f.yamlEnd), body: text.slice(f.bodyStart), bodyLine: f.bodyLine };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid; else hi = mid - 1;
  }
  return lo + 1;
}

/** Collects wikilinks from every string scalar under `node`. */
function walkLinks(node: unknown, field: string, starts: number[], base: number, out: WikiLink[]): void {
  if (isScalar(node)) {
    if (typeof node.value === 'string' && node.value.indexOf('[[') >= 0) {
      const off = node.range ? node.range[0] : 0;
      scanLinks(node.value, base + lineAt(starts, off) - 1, out, field);
    }
  } else if (isSeq(node)) {
    for (const it of node.items) walkLinks(it, field, starts, base, out);
  } else if (isMap(node)) {
    for (const p of node.items) { walkLinks(p.key, field, starts, base, out); walkLinks(p.value, field, starts, base, out); }
  } else if (isPair(node)) {
    walkLinks(node.key, field, starts, base, out);
    walkLinks(node.value, field, starts, base, out);
  }
}

function stringList(v: unknown, splitString: RegExp | null): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const x of v) if (typeof x === 'string' || typeof x === 'number') out.push(String(x));
    return out;
  }
  if (typeof v === 'string') return splitString ? v.split(splitString) : [v];
  if (typeof v === 'number') return [String(v)];
  return [];
}

function dedupeCi(items: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const t of items) {
    const k = t.toLowerCase();
    if (!seen.has(k)) { seen.add(k); out.push(t); }
  }
  return out;
}

export function parseNote(path: string, bytes: Buffer, opts: ParseOptions = {}): ParsedNote {
  let hash = '';
  try {
    hash = createHash('sha256').update(bytes).digest('hex');
    return parseInner(path, bytes, hash, opts);
  } catch (err) {
    // Defensive: the parser is total by contract. An internal failure still yields a note.
    return emptyNote(path, hash, [{
      severity: 'error', code: 'parse-failed', file: path, line: 1,
      message: `could not parse: ${err instanceof Error ? err.message : String(err)}`,
    }]);
  }
}

/**
 * The body parseNote gives these bytes (the same decoding, BOM and frontmatter split), without parsing the
 * frontmatter or scanning links: what a note whose body is not kept in memory reads back from its file.
 */
export function noteBody(bytes: Buffer, opts: ParseOptions = {}): string {
  if (bytes.length > (opts.maxBytes ?? DEFAULT_MAX_BYTES) || bytes.indexOf(0) >= 0) return '';
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const split = splitFrontmatter(text);
  return split === null || split === 'unclosed' ? text : split.body;
}

function parseInner(path: string, bytes: Buffer, hash: string, opts: ParseOptions): ParsedNote {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.length > maxBytes) {
    return emptyNote(path, hash, [{
      severity: 'error', code: 'too-large', file: path, line: 1,
      message: `file is ${bytes.length} bytes, over the ${maxBytes}-byte limit: not parsed`,
      hint: 'split the note, or move large content out of the vault',
    }]);
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return emptyNote(path, hash, [{
      severity: 'error', code: 'binary', file: path, line: lineOfOffset(bytes.subarray(0, nul).toString('latin1'), nul),
      message: 'file contains NUL bytes: a binary file, not a markdown note; not parsed',
      hint: 'remove it from the vault or add it to exclude in lorecraft.yaml',
    }]);
  }
  const problems: Problem[] = [];
  let text = bytes.toString('utf8');
  if (!isUtf8(bytes)) {
    const bad = text.indexOf('\uFFFD');
    problems.push({
      severity: 'error', code: 'encoding', file: path, line: bad >= 0 ? lineOfOffset(text, bad) : 1,
      message: 'file is not valid UTF-8: invalid bytes were replaced with U+FFFD',
      hint: 're-save the file as UTF-8',
    });
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  const note = emptyNote(path, hash, problems);
  const titleField = opts.titleField ?? 'title';
  const split = splitFrontmatter(text);
  let fmTags: string[] = [];
  if (split === null || split === 'unclosed') {
    note.body = text;
    if (split === 'unclosed') {
      problems.push({
        severity: 'warning', code: 'frontmatter-unclosed', file: path, line: 1,
        message: "frontmatter starts with '---' on line 1 but is never closed: read as body",
        hint: "add a line '---' after the last frontmatter key",
      });
    }
  } else {
    note.hasFrontmatter = true;
    note.body = split.body;
    note.bodyLine = split.bodyLine;
    // every string kept from it is made a flat copy of its own (ownValue, ownLink): a slice would keep the whole
    // file's text alive after the body has left memory (main/sync/body.ts)
    readFrontmatter(note, split.yaml, problems);
    const fm = note.frontmatter;
    fmTags = frontmatterTags(fm.tags).filter(isValidTag);
    const aliasVal = fm.aliases !== undefined ? fm.aliases : fm.alias;
    note.aliases = dedupeCi(stringList(aliasVal, null).map((a) => a.trim()).filter((a) => a.length > 0));
    const t = fm[titleField];
    if (typeof t === 'string' && t.trim()) note.title = t.trim();
    else if (typeof t === 'number') note.title = String(t);
  }
  const scanned = scanBody(note.body, note.bodyLine);
  // one copy per distinct string: a note links the same few targets again and again (102k links to 50 notes in
  // bench/huge-note.ts's 9 MB note: ~5 MB of strings)
  // (a note of a few links: a copy each, no map)
  const owned = scanned.links.length > 64 ? new Map<string, string>() : null;
  for (const l of scanned.links) ownLink(l, owned);
  // the kept arrays at their exact size: an array grown by push keeps V8's slack capacity (up to ~16 spare slots)
  note.bodyLinks = exact(scanned.links);
  note.fieldLinks = exact(note.fieldLinks);
  note.tags = exact(dedupeCi(fmTags.concat(scanned.tags.map(own))));
  note.aliases = exact(note.aliases);
  note.problems = exact(note.problems);
  return note;
}

/** `a` itself when empty (a literal `[]` has no backing store), else a copy of exactly its length. */
function exact<T>(a: T[]): T[] {
  return a.length === 0 ? a : a.slice();
}

/**
 * A flat copy of `s` that does not share the memory of the string it was cut from. V8 keeps a substring of 13
 * or more characters as a slice of its parent (and a concatenation as a cons of its parts), so one kept link
 * target or frontmatter value would keep the whole file's text alive. Array join writes its parts into one new
 * sequential string: no slice over a private copy (32 bytes more a string), no cons. Shorter strings are always
 * copies of their own in V8 (a slice or cons needs 13 characters).
 */
export function own(s: string): string {
  return s.length < 13 ? s : [s.slice(0, 1), s.slice(1)].join('');
}

/**
 * A frontmatter value with every string in it made own() and every array copied at its exact size (the parsers
 * grow them by push); maps are rewritten in place (same keys, same order). Gives a value deep-equal to `v`.
 */
export function ownValue(v: unknown): unknown {
  if (typeof v === 'string') return own(v);
  if (Array.isArray(v)) {
    const out = v.slice();
    for (let i = 0; i < out.length; i++) out[i] = ownValue(out[i]);
    return out;
  }
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      // an own `__proto__` key (the full parser can give one) is written as a property, never as the prototype
      if (k === '__proto__') Object.defineProperty(o, k, { value: ownValue(o[k]), writable: true, enumerable: true, configurable: true });
      else o[k] = ownValue(o[k]);
    }
  }
  return v;
}

/** own(s), the same copy for equal strings seen through `owned` (if any) */
function ownOnce(s: string, owned: Map<string, string> | null): string {
  if (owned === null) return own(s);
  let o = owned.get(s);
  if (o === undefined) { o = own(s); owned.set(o, o); }
  return o;
}

function ownLink(l: WikiLink, owned: Map<string, string> | null): void {
  const target = l.target;
  l.target = ownOnce(target, owned);
  // most links' name is their target: one copy for both
  l.name = l.name === target ? l.target : ownOnce(l.name, owned);
  if (l.heading !== undefined) l.heading = ownOnce(l.heading, owned);
  if (l.label !== undefined) l.label = ownOnce(l.label, owned);
  // (a field link's `field` is its frontmatter key, made own() where the key is read: readFrontmatter(Full))
}

function readFrontmatter(note: ParsedNote, yaml: string, problems: Problem[]): void {
  if (yaml.trim() === '') return;
  const fast = fastFrontmatter(yaml, 2);
  if (fast !== null) {
    for (const f of fast) {
      const key = own(f.key);
      note.frontmatter[key] = ownValue(f.value);
      note.fieldLines[key] = f.line;
      for (const s of f.strings) scanLinks(s.text, s.line, note.fieldLinks, key);
    }
  } else {
    readFrontmatterFull(note, yaml, problems);
    note.frontmatter = ownValue(note.frontmatter) as Record<string, unknown>;
  }
  for (const l of note.fieldLinks) ownLink(l, null);
}

/** The full yaml parser: any YAML, exact error lines. Used when the fast path declines. */
export function readFrontmatterFull(note: ParsedNote, yaml: string, problems: Problem[]): void {
  const doc = parseDocument(yaml, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const l = e.linePos?.[0]?.line ?? 1;
    problems.push({
      severity: 'error', code: 'yaml-syntax', file: note.path, line: 1 + l,
      message: `malformed YAML frontmatter: ${e.message.split('\n')[0]}`,
      hint: 'fix the frontmatter; until then its fields are ignored',
    });
    return;
  }
  const contents = doc.contents as YamlNode | null;
  if (contents === null || (isScalar(contents) && contents.value === null)) return;
  if (!isMap(contents)) {
    problems.push({
      severity: 'error', code: 'frontmatter-not-mapping', file: note.path, line: 2,
      message: 'frontmatter is not a mapping of keys to values: ignored',
      hint: 'write frontmatter as `key: value` lines',
    });
    return;
  }
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    problems.push({
      severity: 'error', code: 'yaml-syntax', file: note.path, line: 2,
      message: `frontmatter could not be read: ${err instanceof Error ? err.message : String(err)}`,
    });
    return;
  }
  note.frontmatter = (js ?? {}) as Record<string, unknown>;
  const starts = lineStarts(yaml);
  for (const pair of contents.items) {
    const k = pair.key;
    // own(): the key is kept by every field link made from it (as the fast path's own(f.key))
    const key = own(isScalar(k) ? String(k.value) : String(k));
    const off = (k as YamlNode | null)?.range?.[0] ?? 0;
    note.fieldLines[key] = 1 + lineAt(starts, off);
    walkLinks(pair.value, key, starts, 2, note.fieldLinks);
  }
}

/**
 * The references a frontmatter field holds, for relationship fields: each
 * `[[wikilink]]` by its name (with its own line), each other non-empty string
 * as a plain name (trimmed, on the field's line). Non-string values are ignored.
 */
export function fieldRefs(note: ParsedNote, field: string): FieldRef[] {
  const out: FieldRef[] = [];
  forEachFieldRef(note, field, (name, wikilink, target, line, props) => {
    out.push({ field, name, wikilink, target, line, ...(props ? { props } : {}) });
  });
  return out;
}

/**
 * fieldRefs' references one by one, in its order, without its objects (a cold open asks this of every note's
 * relationship fields: the model makes its own record of each).
 */
export function forEachFieldRef(
  note: ParsedNote, field: string,
  fn: (name: string, wikilink: boolean, target: string, line: number, props: Record<string, unknown> | undefined) => void,
): void {
  const v = note.frontmatter[field];
  if (v === undefined || v === null) return;
  const fieldLine = note.fieldLines[field] ?? 1;
  const items = Array.isArray(v) ? v : [v];
  // the field's own links (the parser's, in order): li the next one not yet matched
  const all = note.fieldLinks;
  let li = 0;
  for (const item of items) {
    // a map item carries the relationship's properties beside its target: { to: "[[Red Hand]]", attitude: wary }
    let props: Record<string, unknown> | undefined;
    let value: unknown = item;
    if (item !== null && typeof item === 'object' && !Array.isArray(item) && typeof (item as Record<string, unknown>).to === 'string') {
      const { to, ...rest } = item as Record<string, unknown>;
      value = to;
      if (Object.keys(rest).length) props = rest;
    }
    if (typeof value !== 'string') continue;
    const s = value.trim();
    if (!s) continue;
    if (s.indexOf('[[') >= 0) {
      // the usual item, one whole link ("[[Red Hand]]"): the one match findLinks would give, without its search;
      // else the item's links, in order: scanned again to know which belong to it
      const one = wholeLink(s);
      if (one !== null) {
        // the field's next link as the parser read it, when it is this very link: a link whose inner text is a
        // target as splitLink makes one (no label, heading or spaces to trim) parses to that target and its name
        while (li < all.length && all[li]!.field !== field) li++;
        const known = all[li];
        if (known && known.target === one) { li++; fn(known.name, true, known.target, known.line, props); continue; }
      }
      let mine: Array<{ name: string; target: string }>;
      if (one !== null) { const m = parseLink(one); mine = m ? [m] : []; } else { mine = []; scanLinks(s, 0, mine as WikiLink[], field); }
      for (const m of mine) {
        while (li < all.length && all[li]!.field !== field) li++;
        const known = all[li];
        const line = known && known.target === m.target ? (li++, known.line) : fieldLine;
        fn(m.name, true, m.target, line, props);
      }
      continue;
    }
    if (/\$\{|<%|\{\{/.test(s)) continue;
    fn(s, false, s, fieldLine, props);
  }
}

/** The inner text of `s` when `s` is one link and nothing else (`[[x]]` or `![[x]]`, as findLinks reads it), else null. */
function wholeLink(s: string): string | null {
  const from = s.charCodeAt(0) === 33 ? 3 : 2; // '!'
  const to = s.length - 2;
  if (to <= from || s.charCodeAt(from - 1) !== 91 || s.charCodeAt(from - 2) !== 91 || s.charCodeAt(to) !== 93 || s.charCodeAt(to + 1) !== 93) return null;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 91 || c === 93 || c === 10) return null; // '[' ']' '\n': not one link
  }
  return s.slice(from, to);
}
