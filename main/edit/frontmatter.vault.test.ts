/**
 * Proof over a real vault (read-only: bytes are read into memory, nothing is
 * written there): for EVERY note of the thellade fixture,
 *  (a) a no-op edit of every key, and of the body, leaves the bytes identical;
 *  (b) changing one property alters only that property's lines;
 *  (c) adding a relationship to an existing list adds exactly one item in the
 *      list's existing style.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument, isMap, isSeq, isScalar, type Node, type Pair } from 'yaml';
import { addListItem, getBody, readFrontmatter, replaceBody, setField, splitNote } from './frontmatter.js';

const VAULT = join(import.meta.dirname, '../../examples/thellade/vault');

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.md')) out.push(p);
  }
  return out;
}

const files = walk(VAULT).sort().map((p) => ({ path: relative(VAULT, p), text: readFileSync(p, 'utf8') }));

interface KeySpan { key: string; first: number; last: number; value: Node | null }

/** 0-based line spans of every top-level key in the file, independent of the editor. */
function keySpans(text: string): KeySpan[] | null {
  const parts = splitNote(text);
  if (!parts.hasFrontmatter) return null;
  const fm = text.slice(parts.fmStart, parts.fmEnd);
  const doc = parseDocument(fm, { uniqueKeys: false });
  if (doc.errors.length || !isMap(doc.contents)) return null;
  const lineOf = (off: number) => text.slice(0, parts.fmStart + off).split('\n').length - 1;
  const closing = text.slice(0, parts.fmEnd).split('\n').length - 1;
  const pairs = doc.contents.items as Pair<Node, Node | null>[];
  return pairs.map((p, i) => ({
    key: String(isScalar(p.key) ? p.key.value : p.key),
    first: lineOf(p.key.range![0]),
    // a key's lines run to the line before the next key (or the closing fence)
    last: (i + 1 < pairs.length ? lineOf(pairs[i + 1]!.key.range![0]) : closing) - 1,
    value: p.value,
  }));
}

/** changed region of a line diff: [start, oldEnd) in old and [start, newEnd) in new */
function lineDiff(a: string, b: string) {
  const x = a.split('\n');
  const y = b.split('\n');
  let s = 0;
  while (s < x.length && s < y.length && x[s] === y[s]) s++;
  let e = 0;
  while (e < x.length - s && e < y.length - s && x[x.length - 1 - e] === y[y.length - 1 - e]) e++;
  return { start: s, oldEnd: x.length - e, newEnd: y.length - e, oldLines: x, newLines: y };
}

describe('thellade vault: every note', { timeout: 300_000 }, () => {
  it('holds the fixture (more than 1,400 notes)', () => {
    expect(files.length).toBeGreaterThan(1400);
  });

  it('(a) a no-op edit of every key and of the body is byte-identical', () => {
    let keys = 0;
    let refused = 0;
    for (const f of files) {
      let fm: Record<string, unknown>;
      try { fm = readFrontmatter(f.text); } catch { refused++; continue; }
      for (const [k, v] of Object.entries(fm)) {
        expect(setField(f.text, k, v), `${f.path} ${k}`).toBe(f.text);
        keys++;
      }
      expect(replaceBody(f.text, getBody(f.text)), f.path).toBe(f.text);
    }
    expect(keys).toBeGreaterThan(5000);
    // the few notes with broken YAML are refused, never rewritten
    expect(refused).toBeLessThan(files.length / 100);
  });

  it('(b) changing one property alters only that property\'s lines', () => {
    let checked = 0;
    for (const f of files) {
      const spans = keySpans(f.text);
      if (!spans?.length) continue;
      const before = readFrontmatter(f.text);
      // every key of the note in turn to a scalar; one key per note (rotating) to a list
      for (const [si, span] of spans.entries()) {
        const values: unknown[] = ['Changed by Lorecraft'];
        if (si === checked % spans.length) values.push(['[[Changed A]]', 'Changed B']);
        for (const nv of values) {
          const out = setField(f.text, span.key, nv);
          const d = lineDiff(f.text, out);
          expect(d.start, `${f.path} ${span.key}`).toBeGreaterThanOrEqual(span.first);
          expect(d.oldEnd, `${f.path} ${span.key}`).toBeLessThanOrEqual(span.last + 1);
          const after = readFrontmatter(out);
          expect(after[span.key]).toEqual(nv);
          expect(Object.keys(after)).toEqual(Object.keys(before));
          for (const k of Object.keys(before)) if (k !== span.key) expect(after[k]).toEqual(before[k]);
          expect(getBody(out)).toBe(getBody(f.text));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(4000);
  });

  it('(c) adding a relationship to an existing list adds one item in that list\'s style', () => {
    let block = 0;
    let flow = 0;
    for (const f of files) {
      const spans = keySpans(f.text);
      if (!spans) continue;
      for (const span of spans) {
        const v = span.value;
        if (!isSeq(v) || !v.items.length) continue;
        const sib = v.items[v.items.length - 1] as Node;
        if (!isScalar(sib) || typeof sib.value !== 'string') continue;
        const out = addListItem(f.text, span.key, '[[Lorecraft Added]]');
        const d = lineDiff(f.text, out);
        const fmAfter = readFrontmatter(out)[span.key] as unknown[];
        expect(fmAfter).toEqual([...(v.toJSON() as unknown[]), '[[Lorecraft Added]]']);
        if (v.flow) {
          // one line changed, ending in the new item before the closing bracket
          expect(d.oldEnd - d.start, f.path).toBe(1);
          expect(d.newEnd - d.start).toBe(1);
          expect(d.newLines[d.start]).toMatch(/, "\[\[Lorecraft Added\]\]"\s*\]/);
          flow++;
        } else {
          // exactly one inserted line, shaped like the last sibling's line
          expect(d.oldEnd - d.start, `${f.path} ${span.key}`).toBe(0);
          expect(d.newEnd - d.start).toBe(1);
          const sibLine = d.oldLines[d.start - 1]!.replace(/\r$/, '');
          const added = d.newLines[d.start]!.replace(/\r$/, '');
          const prefix = sibLine.match(/^\s*-\s+/)![0];
          const q = sibling(sibLine.slice(prefix.length));
          expect(added).toBe(prefix + (q === '"' ? '"[[Lorecraft Added]]"' : q === "'" ? "'[[Lorecraft Added]]'" : '"[[Lorecraft Added]]"'));
          block++;
        }
      }
    }
    expect(block).toBeGreaterThan(1000);
    void flow;
  });

  it('notes without frontmatter get one and keep their body', () => {
    for (const f of files.filter((x) => !splitNote(x.text).hasFrontmatter)) {
      const out = setField(f.text, 'type', 'npc');
      expect(out.endsWith(f.text.replace(/^\uFEFF/, ''))).toBe(true);
      expect(readFrontmatter(out)).toEqual({ type: 'npc' });
    }
  });
});

function sibling(s: string): string {
  return s[0] === '"' || s[0] === "'" ? s[0] : '';
}
