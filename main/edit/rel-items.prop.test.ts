/**
 * Property test (issue 18): any mix of plain and map items, in flow and block
 * lists and as a single value, round-trips byte-identically through set then
 * unset of a relationship property; the set itself changes only that item, and
 * every other key and item keeps its value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { readFrontmatter } from './frontmatter.js';
import { itemRef, setItemProperty, unsetItemProperty } from './rel-items.js';

type Target = { name: string; style: 'wiki' | 'plain' | 'single' | 'path' };
type Item = { target: Target; props: Array<[string, string | number | boolean]>; block: boolean };
type Field = { key: string; shape: 'flow' | 'block' | 'scalar'; items: Item[]; indent: string };

const names = ['Red Hand', 'Iron Guild', 'Mira', 'Bureau of Civic Affairs', 'Tam', 'Old, Wise One', 'a:b'];
const targetArb: fc.Arbitrary<Target> = fc.record({ name: fc.constantFrom(...names), style: fc.constantFrom('wiki', 'plain', 'single', 'path') });
const propVal = fc.oneof(fc.constantFrom('wary', 'friendly', '[[Oldmere Rises]]', 'a, b', 'x: y', '', '12', 'true'), fc.integer({ min: -5, max: 40 }), fc.boolean());
const propsArb = fc.uniqueArray(fc.tuple(fc.constantFrom('attitude', 'trust', 'since', 'until', 'role'), propVal), { selector: (e) => e[0], maxLength: 3 });
const itemArb: fc.Arbitrary<Item> = fc.record({ target: targetArb, props: propsArb, block: fc.boolean() });
const fieldArb = (key: string): fc.Arbitrary<Field> => fc.record({
  key: fc.constant(key), shape: fc.constantFrom('flow', 'block', 'scalar'),
  items: fc.uniqueArray(itemArb, { selector: (i) => i.target.name, minLength: 1, maxLength: 4 }), indent: fc.constantFrom('', '  ', '    '),
});

const q = (v: string | number | boolean): string => typeof v === 'string' ? JSON.stringify(v) : String(v);
function refText(t: Target, flow: boolean): string {
  if (t.style === 'wiki') return `"[[${t.name}]]"`;
  if (t.style === 'path') return `"[[setting/${t.name}|${t.name}]]"`;
  if (t.style === 'single') return `'${t.name}'`;
  // a plain name with flow indicators is legal only in block context
  return flow && /[,:]/.test(t.name) ? JSON.stringify(t.name) : t.name;
}
function flowItem(i: Item): string {
  return i.props.length ? `{ to: ${refText(i.target, true)}, ${i.props.map(([k, v]) => `${k}: ${q(v)}`).join(', ')} }` : refText(i.target, true);
}
function renderField(f: Field): string[] {
  if (f.shape === 'flow') return [`${f.key}: [${f.items.map(flowItem).join(', ')}]`];
  if (f.shape === 'scalar') {
    const i = f.items[0]!;
    if (i.props.length && i.block) return [`${f.key}:`, `  to: ${refText(i.target, false)}`, ...i.props.map(([k, v]) => `  ${k}: ${q(v)}`)];
    return [`${f.key}: ${i.props.length ? flowItem(i) : refText(i.target, false)}`];
  }
  const out = [`${f.key}:`];
  for (const i of f.items) {
    if (!i.props.length) out.push(`${f.indent}- ${refText(i.target, false)}`);
    else if (!i.block) out.push(`${f.indent}- ${flowItem(i)}`);
    else {
      out.push(`${f.indent}- to: ${refText(i.target, false)}`);
      for (const [k, v] of i.props) out.push(`${f.indent}  ${k}: ${q(v)}`);
    }
  }
  return out;
}

const docArb = fc.record({
  fields: fc.tuple(fieldArb('allies'), fieldArb('faction')),
  other: fc.boolean(), comment: fc.boolean(), crlf: fc.boolean(), bom: fc.boolean(),
  body: fc.string({ maxLength: 30 }),
  pick: fc.nat(), field: fc.nat(), prop: fc.constantFrom('attitude', 'trust', 'since', 'until', 'role', 'note'), value: propVal,
});

function build(d: { fields: [Field, Field]; other: boolean; comment: boolean; crlf: boolean; bom: boolean; body: string }): string {
  const eol = d.crlf ? '\r\n' : '\n';
  const lines = ['type: faction'];
  if (d.comment) lines.push('# allies and enemies');
  lines.push(...renderField(d.fields[0]));
  if (d.other) lines.push('influence: regional # note');
  lines.push(...renderField(d.fields[1]));
  return (d.bom ? '\uFEFF' : '') + ['---', ...lines, '---'].join(eol) + eol + d.body;
}

const fmOf = (text: string): string => text.replace(/^\uFEFF/, '').split(/\r?\n---\r?\n/)[0]!.replace(/^---\r?\n/, '');

describe('relationship property set / unset', () => {
  it('any mix of plain and map items round-trips byte-identically through set then unset', () => {
    fc.assert(fc.property(docArb, (d) => {
      const text = build(d);
      const before = readFrontmatter(text);
      expect(parseDocument(fmOf(text)).errors).toEqual([]);
      const f = d.fields[d.field % 2]!;
      const items = f.shape === 'scalar' ? [f.items[0]!] : f.items;
      const item = items[d.pick % items.length]!;
      const match = (ref: string) => ref.includes(item.target.name);
      const had = item.props.find(([k]) => k === d.prop);

      const set = setItemProperty(text, f.key, match, d.prop, d.value);
      expect(parseDocument(fmOf(set)).errors).toEqual([]);
      const after = readFrontmatter(set);
      const list = (v: unknown) => (Array.isArray(v) ? v : [v]);
      const idx = items.indexOf(item);
      const got = list(after[f.key])[idx] as Record<string, unknown>;
      expect(itemRef(got)).toBe(itemRef(list(before[f.key])[idx]));
      expect(got[d.prop]).toEqual(d.value);
      // nothing else changed: the other items, the other keys
      const others = (o: Record<string, unknown>) => ({ ...o, [f.key]: list(o[f.key]).filter((_, j) => j !== idx) });
      expect(others(after)).toEqual(others(before));
      expect(set.endsWith(d.body)).toBe(true);
      if (had && JSON.stringify(had[1]) === JSON.stringify(d.value)) expect(set).toBe(text);

      if (!had) expect(unsetItemProperty(set, f.key, match, d.prop)).toBe(text);
      else {
        // an existing key: unset removes it, and the rest of the item stays
        const un = readFrontmatter(unsetItemProperty(text, f.key, match, d.prop));
        const rest = Object.fromEntries(item.props.filter(([k]) => k !== d.prop));
        const v = list(un[f.key])[idx];
        if (Object.keys(rest).length) expect(v).toEqual({ to: itemRef(v), ...rest });
        else expect(typeof v).toBe('string');
      }
    }), { numRuns: 800 });
  });

  it('turns a plain item into a map when the first property is set, and back when the last is unset', () => {
    const text = '---\nallies: ["[[Red Hand]]", "[[Iron Guild]]"]\n---\n';
    const m = (r: string) => r.includes('Iron Guild');
    const set = setItemProperty(text, 'allies', m, 'attitude', 'wary');
    expect(set).toBe('---\nallies: ["[[Red Hand]]", { to: "[[Iron Guild]]", attitude: wary }]\n---\n');
    const two = setItemProperty(set, 'allies', m, 'trust', 2);
    expect(two).toBe('---\nallies: ["[[Red Hand]]", { to: "[[Iron Guild]]", attitude: wary, trust: 2 }]\n---\n');
    expect(setItemProperty(two, 'allies', m, 'attitude', 'friendly')).toBe('---\nallies: ["[[Red Hand]]", { to: "[[Iron Guild]]", attitude: friendly, trust: 2 }]\n---\n');
    expect(unsetItemProperty(two, 'allies', m, 'attitude')).toBe('---\nallies: ["[[Red Hand]]", { to: "[[Iron Guild]]", trust: 2 }]\n---\n');
    expect(unsetItemProperty(unsetItemProperty(two, 'allies', m, 'attitude'), 'allies', m, 'trust')).toBe(text);
    const block = '---\nallies:\n  - to: "[[Mira]]"\n    attitude: fearful\n---\n';
    const mm = (r: string) => r.includes('Mira');
    expect(setItemProperty(block, 'allies', mm, 'trust', 1)).toBe('---\nallies:\n  - to: "[[Mira]]"\n    attitude: fearful\n    trust: 1\n---\n');
    expect(unsetItemProperty(block, 'allies', mm, 'attitude')).toBe('---\nallies:\n  - "[[Mira]]"\n---\n');
    expect(() => setItemProperty(text, 'allies', (r) => r.includes('Nobody'), 'attitude', 'wary')).toThrow(/no item referring/);
  });
});
