/**
 * Lossless frontmatter editor over the raw note text.
 *
 * Contract: every function takes the whole file text and returns the whole new
 * text. Only the source range of the node an edit concerns is replaced (located
 * with the `yaml` Document API's node ranges); every other byte — comments, key
 * order, quoting, flow vs block lists, blank lines, CRLF, a BOM, unknown keys and
 * the body — is copied through untouched. An edit that would not change the
 * value returns the input string itself (byte-identical).
 *
 * Only top-level keys are addressed. Broken YAML or a non-mapping frontmatter is
 * refused with CoreError('invalid') rather than rewritten.
 */
import { parseDocument, isMap, isSeq, isScalar, isCollection, stringify, type Document, type Node, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { CoreError } from '../domain/errors.js';
import { findFences } from '../parse/fences.js';

export type ScalarStyle = 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE';

export interface NoteParts {
  bom: string;
  eol: string;
  hasFrontmatter: boolean;
  /** offsets in the text (BOM included) of the YAML between the fences */
  fmStart: number;
  fmEnd: number;
  /** offset where the body starts */
  bodyStart: number;
}

/** Locate BOM, frontmatter and body (the one splitter: parse/fences.ts). An unclosed opening fence is refused. */
export function splitNote(text: string): NoteParts {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const firstNl = text.indexOf('\n');
  const eol = firstNl > 0 && text[firstNl - 1] === '\r' ? '\r\n' : '\n';
  const f = findFences(text, bom.length);
  if (f === null) return { bom, eol, hasFrontmatter: false, fmStart: bom.length, fmEnd: bom.length, bodyStart: bom.length };
  if (f === 'unclosed') throw new CoreError('invalid', 'frontmatter is not closed (no closing --- line)', { field: 'frontmatter' });
  return { bom, eol: f.eol, hasFrontmatter: true, fmStart: f.yamlStart, fmEnd: f.yamlEnd, bodyStart: f.bodyStart };
}

export interface Parsed { parts: NoteParts; fm: string; doc: Document.Parsed; map: YAMLMap | null }

/** Split and parse a note's frontmatter (refusing broken YAML); for editors of nested nodes (rel-items.ts). */
export function parseFm(text: string): Parsed {
  const parts = splitNote(text);
  const fm = text.slice(parts.fmStart, parts.fmEnd);
  // uniqueKeys: a duplicate key is a YAML error (the parser reports yaml-syntax), so it is refused too
  const doc = parseDocument(fm, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length) {
    throw new CoreError('invalid', `frontmatter has YAML errors: ${doc.errors[0]!.message.split('\n')[0]}`, { field: 'frontmatter' });
  }
  const c = doc.contents;
  if (c !== null && !isMap(c)) {
    if (isScalar(c) && (c.value === null || c.value === '')) return { parts, fm, doc, map: null };
    throw new CoreError('invalid', 'frontmatter is not a key: value mapping', { field: 'frontmatter' });
  }
  return { parts, fm, doc, map: c };
}

/** The frontmatter as plain data ({} when absent). */
export function readFrontmatter(text: string): Record<string, unknown> {
  const parsed = parseFm(text);
  const map = parsed.map;
  if (!map) return {};
  const out: Record<string, unknown> = {};
  const doc = parsed.doc;
  for (const p of map.items) out[keyOf(p)] = p.value === null ? null : js(p.value as Node, doc);
  return out;
}

/** Body text (everything after the closing fence, or after the BOM). */
export function getBody(text: string): string {
  return text.slice(splitNote(text).bodyStart);
}

/** Plain value of a node, resolving aliases (*anchor) against its document. */
export function js(n: Node, doc: Document.Parsed): unknown {
  return n.toJS(doc, { maxAliasCount: 100 });
}

export function keyOf(p: Pair): string {
  return isScalar(p.key) ? String(p.key.value) : String(p.key);
}

export function findPair(map: YAMLMap | null, key: string): Pair<Node, Node | null> | undefined {
  if (!map) return undefined;
  // with duplicate keys the last one wins when read, so that is the one to edit
  for (let i = map.items.length - 1; i >= 0; i--) {
    const p = map.items[i] as Pair<Node, Node | null>;
    if (keyOf(p) === key) return p;
  }
  return undefined;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function trimEnd(src: string, end: number, start = 0): number {
  while (end > start && /[\s]/.test(src[end - 1]!)) end--;
  return end;
}

export function lineStart(src: string, pos: number): number {
  return src.lastIndexOf('\n', pos - 1) + 1;
}

/** offset just past the end of the line containing pos-1 (past its newline) */
export function lineEndAfter(src: string, pos: number): number {
  const nl = src.indexOf('\n', Math.max(pos - 1, 0));
  return nl < 0 ? src.length : nl + 1;
}

/** Render one scalar on a single line, in the requested style when YAML allows it. */
export function renderScalar(v: unknown, style: ScalarStyle = 'PLAIN'): string {
  if (typeof v === 'string' && /[\r\n]/.test(v)) style = 'QUOTE_DOUBLE';
  if (v !== null && typeof v === 'object') return renderFlow(v);
  const out = stringify(v, { defaultStringType: style, defaultKeyType: 'PLAIN', lineWidth: 0, minContentWidth: 0 });
  return out.replace(/\r?\n$/, '');
}

function renderFlow(v: unknown, style: ScalarStyle = 'PLAIN'): string {
  if (Array.isArray(v)) return `[${v.map((x) => renderItem(x, style)).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (!entries.length) return '{}';
    return `{ ${entries.map(([k, x]) => `${renderScalar(k)}: ${renderItem(x, style)}`).join(', ')} }`;
  }
  return renderScalar(v, style);
}

export function renderItem(v: unknown, style: ScalarStyle): string {
  if (v !== null && typeof v === 'object') return renderFlow(v, style);
  const s = renderScalar(v, style);
  // inside a flow collection a plain scalar must not contain flow indicators
  if (style === 'PLAIN' && typeof v === 'string' && /[,[\]{}]/.test(s) && !/^["']/.test(s)) return renderScalar(v, 'QUOTE_DOUBLE');
  return s;
}

export function scalarStyleOf(n: Node | null | undefined): ScalarStyle {
  if (isScalar(n) && (n.type === 'QUOTE_DOUBLE' || n.type === 'QUOTE_SINGLE')) return n.type;
  return 'PLAIN';
}

/** Style of an existing list: block with its "  - " prefix, or flow; item quoting from a sibling. */
interface ListStyle { flow: boolean; prefix: string; item: ScalarStyle }

function listStyleOf(src: string, seq: Node): ListStyle {
  const items = isSeq(seq) ? (seq.items as Node[]) : [];
  const sib = [...items].reverse().find((x) => isScalar(x) && typeof x.value === 'string') ?? items[items.length - 1];
  const item = scalarStyleOf(sib);
  if (isSeq(seq) && seq.flow) return { flow: true, prefix: '', item };
  let prefix = '  - ';
  const last = items[items.length - 1];
  if (last?.range) {
    const p = src.slice(lineStart(src, last.range[0]), last.range[0]);
    if (/^[ \t]*-[ \t]+$/.test(p)) prefix = p;
  }
  return { flow: false, prefix, item };
}

/** Default list style for a document: the first existing top-level list's, else block "  - ". */
function defaultListStyle(src: string, map: YAMLMap | null): ListStyle {
  for (const p of map?.items ?? []) {
    const v = p.value as Node | null;
    if (isSeq(v) && v.items.length) return listStyleOf(src, v);
  }
  return { flow: false, prefix: '  - ', item: 'PLAIN' };
}

/**
 * Text for a value after "key:" — inline (" x") or block (eol + lines).
 * Arrays follow `list`; maps become an indented block; scalars keep `scalar`.
 */
function renderValue(v: unknown, eol: string, list: ListStyle, scalar: ScalarStyle): string {
  if (Array.isArray(v)) {
    if (!v.length || list.flow) return ' ' + renderFlow(v, list.item);
    return v.map((x) => eol + list.prefix + renderItem(x, list.item)).join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (!entries.length) return ' {}';
    const indent = list.prefix.match(/^[ \t]*/)![0] || '  ';
    return entries.map(([k, x]) => `${eol}${indent}${renderScalar(k)}: ${renderItem(x, 'PLAIN')}`).join('');
  }
  return ' ' + renderScalar(v, scalar);
}

export function splice(text: string, p: Parsed, from: number, to: number, insert: string): string {
  const a = p.parts.fmStart + from;
  const b = p.parts.fmStart + to;
  return text.slice(0, a) + insert + text.slice(b);
}

function renderKey(key: string): string {
  return renderScalar(key);
}

/** Add frontmatter (with the file's own EOL) to a note that has none. */
function withNewFrontmatter(text: string, parts: NoteParts, line: string): string {
  const eol = parts.eol;
  const body = text.slice(parts.bom.length);
  return `${parts.bom}---${eol}${line}${eol}---${eol}${body}`;
}

/** Set a top-level key. Existing key: only its value's bytes change. New key: appended as the last line. */
export function setField(text: string, key: string, value: unknown): string {
  const p = parseFm(text);
  const pair = findPair(p.map, key);
  const eol = p.parts.eol;
  if (!pair) {
    const line = renderKey(key) + ':' + renderValue(value, eol, defaultListStyle(p.fm, p.map), 'PLAIN');
    if (!p.parts.hasFrontmatter) return withNewFrontmatter(text, p.parts, line);
    return splice(text, p, p.fm.length, p.fm.length, line + eol);
  }
  const old = pair.value;
  const oldJs = old === null ? null : js(old, p.doc);
  if (deepEqual(oldJs, value)) return text;
  const keyEnd = (pair.key as Node).range![1];
  const colon = p.fm.indexOf(':', keyEnd);
  const colonEnd = colon + 1;
  const hasSource = !!old?.range && old.range[1] > old.range[0];
  const oldIsInline = hasSource && (isScalar(old) ? !/^[|>]/.test(p.fm.slice(old.range![0])) : isCollection(old) && old.flow === true);
  const list = isSeq(old) && old.items.length ? listStyleOf(p.fm, old) : defaultListStyle(p.fm, p.map);
  const style = scalarStyleOf(old);
  const rendered = renderValue(value, eol, list, style);
  if (oldIsInline && rendered.startsWith(' ')) return splice(text, p, old!.range![0], old!.range![1], rendered.slice(1));
  const end = hasSource ? trimEnd(p.fm, old!.range![1], colonEnd) : colonEnd;
  return splice(text, p, colonEnd, end, rendered);
}

/**
 * Remove a top-level key and its value's lines (comment lines above it stay). When
 * that empties the frontmatter completely, the `---` fences go as well.
 */
export function unsetField(text: string, key: string): string {
  const p = parseFm(text);
  const pair = findPair(p.map, key);
  if (!pair) return text;
  const k = pair.key as Node;
  const v = pair.value;
  const start = lineStart(p.fm, k.range![0]);
  let last = k.range![1];
  if (v?.range) last = Math.max(last, trimEnd(p.fm, v.range[2], k.range![1]));
  const end = lineEndAfter(p.fm, last);
  // Removing the only line leaves nothing between the fences: drop the fences too, so
  // set-then-unset of a new key on a note without frontmatter ends byte-identical.
  if (start === 0 && end === p.fm.length) return p.parts.bom + text.slice(p.parts.bodyStart);
  return splice(text, p, start, end, '');
}

/**
 * Append one item to a list field in the list's existing style (block "- x" or
 * flow "[a, x]", quoting like its siblings). A missing/empty key becomes a list;
 * a scalar is promoted to a list holding [old, item]. An item equal to one already
 * present changes nothing.
 */
export function addListItem(text: string, key: string, item: unknown): string {
  const p = parseFm(text);
  const pair = findPair(p.map, key);
  const v = pair?.value ?? null;
  if (!pair || v === null || (isScalar(v) && (v.value === null || v.value === ''))) return setField(text, key, [item]);
  if (!isSeq(v)) {
    const old = js(v, p.doc);
    if (deepEqual(old, item)) return text;
    // promote with the scalar's own quoting for both items
    const list = { ...defaultListStyle(p.fm, p.map), item: scalarStyleOf(v) };
    const keyEnd = (pair.key as Node).range![1];
    const colonEnd = p.fm.indexOf(':', keyEnd) + 1;
    return splice(text, p, colonEnd, trimEnd(p.fm, v.range![1], colonEnd), renderValue([old, item], p.parts.eol, list, 'PLAIN'));
  }
  const items = v.items as Node[];
  if (items.some((x) => deepEqual(js(x, p.doc), item))) return text;
  if (!items.length) return setField(text, key, [item]);
  const style = listStyleOf(p.fm, v);
  const rendered = renderItem(item, style.item);
  const lastNode = items[items.length - 1]!;
  if (style.flow) return splice(text, p, lastNode.range![1], lastNode.range![1], ', ' + rendered);
  const at = lineEndAfter(p.fm, trimEnd(p.fm, v.range![1]));
  const before = p.fm[at - 1] === '\n' ? '' : p.parts.eol;
  return splice(text, p, at, at, before + style.prefix + rendered + p.parts.eol);
}

/**
 * Remove every item of a list field matching `match` (a value, or a predicate on
 * the item's plain value). Block items lose their lines; a flow list is rewritten
 * from its remaining items' own source. A list left empty becomes `[]`; a scalar
 * that matches is unset.
 */
export function removeListItem(text: string, key: string, match: unknown): string {
  const pred = typeof match === 'function' ? (match as (v: unknown) => boolean) : (x: unknown) => deepEqual(x, match);
  const p = parseFm(text);
  const pair = findPair(p.map, key);
  const v = pair?.value ?? null;
  if (!pair || v === null) return text;
  if (!isSeq(v)) return pred(js(v, p.doc)) ? unsetField(text, key) : text;
  const items = v.items as Node[];
  const drop = items.map((x) => pred(js(x, p.doc)));
  if (!drop.some(Boolean)) return text;
  if (drop.every(Boolean)) return setField(text, key, []);
  if (v.flow) {
    const kept = items.filter((_, i) => !drop[i]).map((x) => p.fm.slice(x.range![0], x.range![1]));
    const open = p.fm.indexOf('[', v.range![0]);
    const inner = p.fm.slice(open + 1, v.range![1] - 1);
    const lead = inner.match(/^\s*/)![0];
    const trail = inner.match(/\s*$/)![0];
    return splice(text, p, v.range![0], v.range![1], `[${lead}${kept.join(', ')}${trail}]`);
  }
  let out = text;
  // delete from the last so earlier offsets stay valid
  for (let i = items.length - 1; i >= 0; i--) {
    if (!drop[i]) continue;
    const n = items[i]!;
    const from = lineStart(p.fm, n.range![0]);
    const to = lineEndAfter(p.fm, trimEnd(p.fm, n.range![2], n.range![0]));
    out = out.slice(0, p.parts.fmStart + from) + out.slice(p.parts.fmStart + to);
  }
  return out;
}

/**
 * Rewrite string scalars of one key in place (the scalar itself, or the string
 * items of a list, or the `to:` of a relationship map item): `fn` returns the new string, or undefined to keep the item.
 * Each changed scalar keeps its quoting style when YAML allows it.
 */
export function mapStrings(text: string, key: string, fn: (s: string) => string | undefined): string {
  const p = parseFm(text);
  const pair = findPair(p.map, key);
  const v = pair?.value ?? null;
  if (!v) return text;
  // a relationship map item ({ to: "[[X]]", attitude: wary }) is rewritten in its `to` value
  const flowOf = new Map<Node, boolean>();
  const nodes = (isSeq(v) ? (v.items as Node[]) : [v]).map((n) => {
    if (!isMap(n)) { flowOf.set(n, isSeq(v) && v.flow === true); return n; }
    const to = findPair(n, 'to')?.value ?? null;
    if (to) flowOf.set(to, n.flow === true || (isSeq(v) && v.flow === true));
    return to;
  }).filter((n): n is Scalar => isScalar(n) && typeof n.value === 'string' && !!n.range);
  let out = text;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i]!;
    const next = fn(n.value as string);
    if (next === undefined || next === n.value) continue;
    const inFlow = flowOf.get(n) === true;
    const r = inFlow ? renderItem(next, scalarStyleOf(n)) : renderScalar(next, scalarStyleOf(n));
    out = out.slice(0, p.parts.fmStart + n.range![0]) + r + out.slice(p.parts.fmStart + n.range![1]);
  }
  return out;
}

/** Top-level keys, in order (empty when there is no frontmatter). */
export function fieldNames(text: string): string[] {
  return parseFm(text).map?.items.map((p) => keyOf(p)) ?? [];
}

/**
 * Replace the body, keeping BOM and frontmatter bytes. A body written with bare
 * "\n" into a CRLF file is converted to CRLF so the file keeps one line ending.
 */
export function replaceBody(text: string, body: string): string {
  const parts = splitNote(text);
  let b = body;
  if (parts.eol === '\r\n' && !b.includes('\r')) b = b.replace(/\n/g, '\r\n');
  const out = text.slice(0, parts.bodyStart) + b;
  return out === text ? text : out;
}

/** A new note's text: frontmatter from `fields` (insertion order) and a body. */
export function newNoteText(fields: Record<string, unknown>, body: string, eol = '\n'): string {
  const list: ListStyle = { flow: false, prefix: '  - ', item: 'PLAIN' };
  const lines = Object.entries(fields).map(([k, v]) => renderKey(k) + ':' + renderValue(v, eol, list, 'PLAIN'));
  const fm = lines.length ? `---${eol}${lines.join(eol)}${eol}---${eol}` : '';
  return fm + body;
}
