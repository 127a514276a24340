/**
 * Property-based tests: random frontmatter documents (scalars in every quoting
 * style, flow and block lists, nested maps, comments, blank lines, LF/CRLF, BOM)
 * × random edits. The result must parse, the edited key must hold the new value,
 * and every other key must keep its value and its position.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { addListItem, getBody, readFrontmatter, removeListItem, setField, unsetField } from './frontmatter.js';

type Style = 'plain' | 'double' | 'single';
type ScalarV = string | number | boolean | null;

const plainStr = fc.stringMatching(/^[a-z][a-z0-9 ]{0,10}[a-z0-9]$/).map((s) => 'v' + s);
const anyStr = fc.string({ maxLength: 14 });
const scalarVal: fc.Arbitrary<ScalarV> = fc.oneof(
  plainStr, anyStr, fc.constantFrom('[[Red Hand]]', '[[a/b|Label]]', '#tag', 'a: b', '42', 'true', 'null', ''),
  fc.integer({ min: -1000, max: 100000 }), fc.boolean(), fc.constant(null),
);

function renderScalar(v: ScalarV, style: Style): string {
  if (typeof v !== 'string') return v === null ? 'null' : String(v);
  if (style === 'plain' && /^v[a-z0-9 ]*[a-z0-9]$/.test(v)) return v;
  if (style === 'single' && !/[\n\r]/.test(v) && !/[^\x20-\x7e]/.test(v)) return `'${v.replace(/'/g, "''")}'`;
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

type Val =
  | { kind: 'scalar'; v: ScalarV; style: Style; comment: boolean }
  | { kind: 'flow'; items: ScalarV[]; style: Style }
  | { kind: 'block'; items: ScalarV[]; style: Style; indent: string }
  | { kind: 'map'; entries: Array<[string, ScalarV]> };

const style = fc.constantFrom<Style>('plain', 'double', 'single');
const val: fc.Arbitrary<Val> = fc.oneof(
  fc.record({ kind: fc.constant('scalar' as const), v: scalarVal, style, comment: fc.boolean() }),
  fc.record({ kind: fc.constant('flow' as const), items: fc.array(scalarVal, { maxLength: 4 }), style }),
  fc.record({ kind: fc.constant('block' as const), items: fc.array(scalarVal, { minLength: 1, maxLength: 4 }), style, indent: fc.constantFrom('', '  ', '    ') }),
  fc.record({ kind: fc.constant('map' as const), entries: fc.uniqueArray(fc.tuple(fc.constantFrom('x', 'y', 'z'), scalarVal), { selector: (e) => e[0], maxLength: 3 }) }),
);

const keyArb = fc.constantFrom('title', 'type', 'status', 'age', 'members', 'allies', 'location', 'weird key', 'a-b', 'n1', 'tags', 'notes');
const docArb = fc.record({
  entries: fc.uniqueArray(fc.record({ key: keyArb, value: val, commentAbove: fc.boolean(), blankAbove: fc.boolean() }), { selector: (e) => e.key, maxLength: 8 }),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  body: fc.string({ maxLength: 40 }),
});

type DocSpec = { entries: Array<{ key: string; value: Val; commentAbove: boolean; blankAbove: boolean }>; crlf: boolean; bom: boolean; body: string };

function renderDoc(d: DocSpec): string {
  const lines: string[] = [];
  for (const e of d.entries) {
    if (e.blankAbove) lines.push('');
    if (e.commentAbove) lines.push(`# about ${e.key}`);
    const k = /^[a-z][a-z0-9-]*$/.test(e.key) ? e.key : JSON.stringify(e.key);
    const v = e.value;
    if (v.kind === 'scalar') lines.push(`${k}: ${renderScalar(v.v, v.style)}${v.comment ? ' # note' : ''}`);
    else if (v.kind === 'flow') lines.push(`${k}: [${v.items.map((x) => renderScalar(x, x === '' || typeof x !== 'string' || /^v/.test(x) ? v.style : 'double')).join(', ')}]`);
    else if (v.kind === 'block') { lines.push(`${k}:`); for (const x of v.items) lines.push(`${v.indent}- ${renderScalar(x, v.style)}`); }
    else { lines.push(`${k}:`); for (const [mk, mv] of v.entries) lines.push(`  ${mk}: ${renderScalar(mv, 'double')}`); if (!v.entries.length) lines[lines.length - 1] += ' {}'; }
  }
  const eol = d.crlf ? '\r\n' : '\n';
  return (d.bom ? '\uFEFF' : '') + ['---', ...lines, '---'].join(eol) + eol + d.body;
}

const editArb = fc.oneof(
  fc.record({ op: fc.constant('set' as const), key: keyArb, value: fc.oneof(scalarVal, fc.array(scalarVal, { maxLength: 3 })) }),
  fc.record({ op: fc.constant('unset' as const), key: keyArb }),
  fc.record({ op: fc.constant('add' as const), key: keyArb, value: scalarVal }),
  fc.record({ op: fc.constant('remove' as const), key: keyArb, pick: fc.nat() }),
);

describe('frontmatter editor properties', () => {
  it('random documents × random edits keep every other key and its position', () => {
    fc.assert(fc.property(docArb, editArb, (d, edit) => {
      const text = renderDoc(d);
      const before = readFrontmatter(text);
      // the generator must itself produce valid YAML
      expect(Object.keys(before)).toEqual(d.entries.map((e) => e.key));
      let out: string;
      let expected: unknown;
      let present = true;
      const old = before[edit.key];
      switch (edit.op) {
        case 'set': out = setField(text, edit.key, edit.value); expected = edit.value; break;
        case 'unset': out = unsetField(text, edit.key); present = false; break;
        case 'add': {
          out = addListItem(text, edit.key, edit.value);
          const base = old === undefined || old === null || old === '' ? [] : Array.isArray(old) ? old : [old];
          expected = base.some((x) => JSON.stringify(x) === JSON.stringify(edit.value)) ? base.length === 1 && !Array.isArray(old) ? old : base : [...base, edit.value];
          if (!Array.isArray(old) && old !== undefined && old !== null && old !== '' && JSON.stringify(old) === JSON.stringify(edit.value)) expected = old;
          break;
        }
        case 'remove': {
          const items = Array.isArray(old) ? old : [];
          const target = items.length ? items[edit.pick % items.length] : old;
          out = removeListItem(text, edit.key, target);
          if (Array.isArray(old)) expected = old.filter((x) => JSON.stringify(x) !== JSON.stringify(target));
          else if (old !== undefined) present = false;
          else present = old !== undefined;
          break;
        }
      }
      // parses with the yaml library directly, not just with our reader
      // removing the only key removes the fences too (the note ends as it was before any frontmatter): no YAML left
      const bare = out.replace(/^\uFEFF/, '');
      const fmText = /^---\r?\n/.test(bare) ? bare.split(/\r?\n---\r?\n/)[0]!.replace(/^---\r?\n/, '') : '';
      expect(parseDocument(fmText).errors).toEqual([]);
      const after = readFrontmatter(out);
      if (present) expect(after[edit.key]).toEqual(expected);
      else expect(edit.key in after).toBe(false);
      const others = (o: Record<string, unknown>) => Object.entries(o).filter(([k]) => k !== edit.key);
      expect(others(after)).toEqual(others(before));
      expect(getBody(out)).toBe(d.body);
      expect(out.startsWith('\uFEFF')).toBe(d.bom);
      if (d.crlf) expect(out.slice(0, out.length - d.body.length).match(/(?<!\r)\n/g)).toBeNull();
      else expect(out.slice(0, out.length - d.body.length)).not.toContain('\r');
    }), { numRuns: 600 });
  });
});
