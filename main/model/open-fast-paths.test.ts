/**
 * The cold open's fast paths (issue 15 point 6, time to interactive) give what the code they replaced gave.
 * Oracles: the replaced functions, kept here as they were — fieldRefs (each item's links scanned again),
 * pathKey (regular expressions), the type rules read afresh for every note, and a name index of one array per key —
 * against the new code on every note of the sample world, of the Thellade vault (examples/), of a generated
 * real-shaped vault and on hand-made edge cases; and random sequences of name index changes.
 */
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRealVault } from '../../bench/generate-real.js';
import { scanLinks } from '../parse/wikilinks.js';
import { fieldRefs, parseNote } from '../parse/parse.js';
import type { FieldRef, ParsedNote, WikiLink } from '../parse/types.js';
import { compileSchema } from '../config/schema-index.js';
import type { Schema } from '../config/types.js';
import { loadVaultConfig } from '../config/load.js';
import { NameIndex, normKey, pathKey, type NameKind } from './names.js';
import { tempDir } from '../sync/test-helpers.js';

const SAMPLE = fileURLToPath(new URL('../../resources/sample-world', import.meta.url));
const THELLADE = fileURLToPath(new URL('../../examples/thellade/vault', import.meta.url));
const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

function notesOf(dir: string): ParsedNote[] {
  const out: ParsedNote[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.md')) out.push(parseNote(relative(dir, p).split('\\').join('/'), readFileSync(p)));
    }
  };
  walk(dir);
  return out;
}

/** fieldRefs as it was before its fast paths (every item's links scanned again). */
function oldFieldRefs(note: ParsedNote, field: string): FieldRef[] {
  const v = note.frontmatter[field];
  if (v === undefined || v === null) return [];
  const fieldLine = note.fieldLines[field] ?? 1;
  const items = Array.isArray(v) ? v : [v];
  const links = note.fieldLinks.filter((l) => l.field === field);
  let li = 0;
  const out: FieldRef[] = [];
  for (const item of items) {
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
      const mine: WikiLink[] = [];
      scanLinks(s, 0, mine, field);
      for (const m of mine) {
        const known = links[li];
        const line = known && known.target === m.target ? (li++, known.line) : fieldLine;
        out.push({ field, name: m.name, wikilink: true, target: m.target, line, ...(props ? { props } : {}) });
      }
      continue;
    }
    if (/\$\{|<%|\{\{/.test(s)) continue;
    out.push({ field, name: s, wikilink: false, target: s, line: fieldLine, ...(props ? { props } : {}) });
  }
  return out;
}

/** pathKey as it was (regular expressions). */
function oldPathKey(p: string): string {
  let s = p.replace(/\\/g, '/');
  while (s.startsWith('./')) s = s.slice(2);
  s = s.replace(/^\/+/, '');
  if (s.toLowerCase().endsWith('.md')) s = s.slice(0, -3);
  return normKey(s);
}

/** The type rules read afresh for every note, as compileSchema's resolveTypeInfo did. */
function oldResolveType(schema: Schema, note: ParsedNote): { type: string | null; rule: number | null; unknown?: unknown } {
  const types = new Map(schema.entity_types.map((t) => [t.name.toLowerCase(), t] as const));
  let unknown: { value: string; field: string; line: number } | undefined;
  const lowerTags = note.tags.map((t) => t.toLowerCase());
  const rules = schema.type_rules;
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    if ('field' in r) {
      let v = note.frontmatter[r.field];
      if (Array.isArray(v)) v = v[0];
      if (typeof v !== 'string' || !v.trim()) continue;
      const raw = v.trim().replace(/^#/, '');
      let name = raw;
      if (r.map) {
        const hit = Object.entries(r.map).find(([k]) => k.toLowerCase() === raw.toLowerCase());
        if (hit) name = hit[1];
      }
      const t = types.get(name.toLowerCase());
      if (t) return { type: t.name, rule: i };
      unknown ??= { value: raw, field: r.field, line: note.fieldLines[r.field] ?? 1 };
    } else if ('tag' in r) {
      const want = r.tag.replace(/^#/, '').toLowerCase();
      const hit = lowerTags.some((t) => t === want || (r.nested === true && t.startsWith(want + '/')));
      if (hit) { const t = types.get(r.type.toLowerCase()); if (t) return { type: t.name, rule: i }; }
    } else {
      const folder = r.folder.replace(/^\.?\/+/, '').replace(/\/+$/, '').toLowerCase();
      const p = note.path.toLowerCase();
      if (folder === '' || folder === '.' || p.startsWith(folder + '/')) { const t = types.get(r.type.toLowerCase()); if (t) return { type: t.name, rule: i }; }
    }
  }
  return unknown ? { type: null, rule: null, unknown } : { type: null, rule: null };
}

const EDGE_FIELDS = [
  'a: "[[X]]"', 'a: "![[X]]"', 'a: "[[X|label]]"', 'a: "[[X#Head]]"', 'a: "[[ X ]]"', 'a: "[[folder/X.md]]"', 'a: "[[x.png]]"',
  'a: "[[${t}]]"', 'a: "[[A]] and [[B]]"', 'a: "[[A]]]"', 'a: "[[[A]]"', 'a: "[[]]"', 'a: "[[A\\\\|B]]"', 'a: "  [[A]]  "',
  'a: ["[[A]]", "[[B]]", Plain, "", "[[C|c]]", "{{x}}"]', 'a: [{ to: "[[A]]", role: x }, { to: "[[B]]", via: "[[C]]" }, "[[D]]"]',
  'a: [{ to: Plain, since: 3 }, 7, null, "[[E]]"]', 'a: |\n  see [[A]]\n  and [[B]]', 'a: "[[#Heading]]"', 'a: "[[A]][[B]]"',
  'a: [[X]]', 'a: "x [[A]]"', 'a: "[[A]] x"', 'a: ["[[A]]", "[[A]]", "[[a]]"]', 'a: "[[A|B|C]]"', 'a: "![[A#B|c]]"',
];

describe("the open's fast paths give the replaced code's answers", () => {
  it('fieldRefs equals the scan of every item on the sample world, Thellade, a real-shaped vault and edge cases', async () => {
    const dir = tempDir(); tmp.push(dir);
    const real = await generateRealVault(join(dir, 'real'), { notes: 400, seed: 5 });
    const notes = [...notesOf(SAMPLE), ...notesOf(THELLADE), ...notesOf(real.dir)];
    // the edge cases, alone and with other fields' links between (b: the parser's links of another field)
    for (const [i, f] of EDGE_FIELDS.entries()) {
      notes.push(parseNote(`e${i}.md`, Buffer.from(`---\n${f}\n---\nbody [[Z]]\n`)));
      notes.push(parseNote(`f${i}.md`, Buffer.from(`---\nb: "[[Q]]"\n${f}\nc: ["[[R]]", "[[X]]"]\n---\n`)));
    }
    let refs = 0;
    let linked = 0;
    for (const n of notes) {
      for (const field of Object.keys(n.frontmatter)) {
        const want = oldFieldRefs(n, field);
        expect(fieldRefs(n, field), `${n.path}: ${field}`).toEqual(want);
        refs += want.length;
        linked += want.filter((r) => r.wikilink).length;
      }
    }
    // the comparison saw what it is about: many links, plain names and items of properties
    expect(linked).toBeGreaterThan(2000);
    expect(refs - linked).toBeGreaterThan(500);
  });

  it('pathKey equals the regular expressions on hand-made and random paths', () => {
    const cases = ['a/B.md', 'a/B.MD', 'a/B.Md', './a/b.md', '././x', '/x.md', '//x.md', './/x', 'a\\b.md', 'x.m', '.md', 'md', '',
      'a.md/b', 'İstanbul.md', 'Dd.MD', 'x.mD', ' a .md', '/./a.md'];
    for (const c of cases) expect(pathKey(c), c).toBe(oldPathKey(c));
    let seed = 7;
    const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
    const alphabet = ['a', 'A', '.', '/', '\\', 'm', 'M', 'd', 'D', ' ', 'é', 'İ', '#'];
    for (let i = 0; i < 5000; i++) {
      const s = Array.from({ length: Math.floor(rnd() * 9) }, () => alphabet[Math.floor(rnd() * alphabet.length)]!).join('');
      expect(pathKey(s), JSON.stringify(s)).toBe(oldPathKey(s));
    }
  });

  it('the type rules compiled once type every note as reading them afresh did', () => {
    const schema = {
      ...loadVaultConfig(SAMPLE, {}).schema,
      type_rules: [
        { field: 'kind', map: { Person: 'npc', PERSON: 'faction', 'Big Place': 'settlement' } },
        { field: 'type' },
        { tag: '#NPC', type: 'npc' }, { tag: 'place', type: 'settlement', nested: true }, { tag: 'Nothing', type: 'nosuchtype' },
        { folder: './Factions/', type: 'faction' }, { folder: 'setting/places', type: 'region' }, { folder: '.', type: 'lore' },
      ],
    } as Schema;
    const idx = compileSchema(schema);
    const notes = [...notesOf(SAMPLE), ...notesOf(THELLADE)];
    const shapes = ['kind: person', 'kind: "#Big Place"', 'kind: [Person]', 'kind: monstr', 'type: "#NPC"', 'type: ""', 'tags: [npc]',
      'tags: [place/city]', 'tags: [places]', 'tags: [nothing]', 'kind: 3'];
    for (const [i, f] of shapes.entries()) {
      for (const dir of ['', 'factions/', 'Factions/x/', 'setting/places/', 'setting/placesX/']) {
        notes.push(parseNote(`${dir}n${i}.md`, Buffer.from(`---\n${f}\n---\n`)));
      }
    }
    const noFolderAll = { ...schema, type_rules: schema.type_rules.slice(0, -1) } as Schema;
    const idx2 = compileSchema(noFolderAll);
    const seen = new Set<number | null>();
    let unknown = 0;
    for (const n of notes) {
      const all = idx.resolveTypeInfo(n);
      expect(all, n.path).toEqual(oldResolveType(schema, n));
      seen.add(all.rule);
      const r = idx2.resolveTypeInfo(n);
      expect(r, n.path).toEqual(oldResolveType(noFolderAll, n));
      seen.add(r.rule);
      if (r.unknown) unknown++;
    }
    // every rule that names a declared type decided some note, and some notes no rule typed (one an unknown type)
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 5, 6, 7, null]);
    expect(unknown).toBeGreaterThan(0);
  });

  it('the name index of one path per key answers as one array per key did, through random adds and removes', () => {
    const idx = new NameIndex();
    const ref = new Map<string, string[]>();
    const kinds: NameKind[] = ['name', 'file', 'alias', 'path'];
    let seed = 11;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
    const check = () => {
      for (const l of ['w', 'c']) for (const k of kinds) for (const key of ['a', 'b', 'c', 'd']) {
        const want = ref.get(`${l}|${k}|${key}`) ?? [];
        expect(idx.holders(l, k, key)).toEqual(want);
        expect(idx.firstIn(l, k, key)).toBe(want[0]);
        expect(idx.holdersOf(l, k, key) ?? []).toEqual(want.length === 1 ? want[0] : want);
      }
      // a plain name as lookupRef asked it, per layer: name, then file name, then alias (firstNamed's one pass)
      for (const order of [['c', 'w'], ['w'], ['c'], ['x', 'w'], []]) {
        for (const key of ['a', 'b', 'c', 'd', 'e']) {
          let want: string | undefined;
          for (const l of order) { want = idx.firstIn(l, 'name', key) ?? idx.firstIn(l, 'file', key) ?? idx.firstIn(l, 'alias', key); if (want !== undefined) break; }
          expect(idx.firstNamed(order, key), `${order.join(',')} ${key}`).toBe(want);
        }
      }
      expect(idx.first(['c', 'w'], 'name', 'a')).toBe((ref.get('c|name|a') ?? [])[0] ?? (ref.get('w|name|a') ?? [])[0]);
      const listed = [...idx.entries()].map((e) => [`${e.layer}|${e.kind}|${e.key}`, [...e.paths]] as const);
      expect(new Map(listed)).toEqual(new Map([...ref].filter(([, v]) => v.length > 0)));
    };
    for (let i = 0; i < 4000; i++) {
      const l = rnd(2) ? 'w' : 'c';
      const k = kinds[rnd(4)]!;
      const key = 'abcd'[rnd(4)]!;
      const path = `p${rnd(5)}.md`;
      const id = `${l}|${k}|${key}`;
      const cur = ref.get(id) ?? [];
      if (rnd(3) === 0) {
        idx.remove(l, k, key, path);
        const next = cur.filter((p) => p !== path);
        if (next.length) ref.set(id, next); else ref.delete(id);
      } else {
        expect(idx.add(l, k, key, path)).toBe(cur.length === 0);
        if (!cur.includes(path)) ref.set(id, [...cur, path].sort());
      }
      if (i % 50 === 0) check();
    }
    check();
    // the kinds' order where it decides: a file name before an alias, a name before both, an earlier layer first
    const few = new NameIndex();
    few.add('w', 'alias', 'k', 'a.md');
    few.add('w', 'file', 'k', 'b.md');
    few.add('w', 'alias', 'm', 'a.md');
    few.add('c', 'alias', 'm', 'c.md');
    few.add('w', 'name', 'n', 'z.md');
    few.add('w', 'file', 'n', 'b.md');
    expect(few.firstNamed(['w'], 'k')).toBe('b.md');
    expect(few.firstNamed(['c', 'w'], 'm')).toBe('c.md');
    expect(few.firstNamed(['w', 'c'], 'm')).toBe('a.md');
    expect(few.firstNamed(['w'], 'n')).toBe('z.md');
    expect(few.firstNamed(['c'], 'k')).toBeUndefined();
  });
});
