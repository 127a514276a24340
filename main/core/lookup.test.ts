/**
 * NameLookup's completion makes a match (and its entity's summary) only for an entry it keeps (time to interactive:
 * the first name search of a cold open scans every name when few share the query's prefix). Oracle: the answers equal
 * those of the plain version (every candidate's match made, then kept if better), written out below as it was, on a
 * generated vault (aliases, placeholders, duplicate names) and the real-shaped one, for prefixes, whole names,
 * misspellings and strings that match nothing, at several limits; and the exact matches (a range of the sorted
 * entries now) equal the plain version's map of keys. A lookup's first question (answered by passes over its entries,
 * unsorted) is checked the same way, each on a lookup of its own.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVault } from '../../bench/generate.js';
import { generateRealVault } from '../../bench/generate-real.js';
import { normaliseName } from '../../shared/names.js';
import type { EntityRecord } from '../../shared/types.js';
import { normKey } from '../model/names.js';
import { freshModel } from '../model/test-helpers.js';
import { tempDir } from '../sync/test-helpers.js';
import type { LookupMatch } from './api.js';
import { NameLookup, summaryOf } from './lookup.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

type Kind = 'name' | 'alias' | 'filename';
interface Entry { key: string; text: string; kind: Kind; entity: EntityRecord }
const KIND_CONF = { name: 1, alias: 0.9, filename: 0.8 } as const;

/** The completion as it was: every candidate's match made first, then kept when better. */
function plainLookup(entities: EntityRecord[]): ((text: string, limit: number, exactWins: boolean) => LookupMatch[]) & { exact: (text: string) => LookupMatch[] } {
  const entries: Entry[] = [];
  const exact = new Map<string, Entry[]>();
  const add = (t: string, kind: Kind, entity: EntityRecord) => {
    const key = normKey(t);
    if (!key) return key;
    const en = { key, text: t, kind, entity };
    entries.push(en);
    exact.set(key, [...(exact.get(key) ?? []), en]);
    return key;
  };
  for (const e of entities) {
    const nameKey = add(e.name, 'name', e);
    for (const a of e.aliases) add(a, 'alias', e);
    if (e.path) {
      const base = e.path.slice(e.path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
      if (normKey(base) !== nameKey) add(base, 'filename', e);
    }
  }
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const conf = (c: number, en: Entry) => Math.round((en.entity.placeholder ? c * 0.9 : c) * 1000) / 1000;
  const rank = (l: LookupMatch[]) => l.sort((a, b) => b.confidence - a.confidence || a.entity.name.localeCompare(b.entity.name) || a.entity.id.localeCompare(b.entity.id));
  const exactOf = (text: string) => rank((exact.get(normaliseName(text)) ?? []).map((en) => ({ entity: summaryOf(en.entity), confidence: conf(KIND_CONF[en.kind], en), matchedOn: en.kind, matchedText: en.text })));
  return Object.assign((text: string, limit: number, exactWins: boolean) => {
  const q = normaliseName(text);
  if (!q) return [];
  const best = new Map<string, LookupMatch>();
  const offer = (m: LookupMatch) => {
    const cur = best.get(m.entity.id);
    if (!cur || cur.confidence < m.confidence) best.set(m.entity.id, m);
  };
  for (const en of exact.get(normaliseName(q)) ?? []) offer({ entity: summaryOf(en.entity), confidence: conf(KIND_CONF[en.kind], en), matchedOn: en.kind, matchedText: en.text });
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (entries[mid]!.key < q) lo = mid + 1; else hi = mid; }
  for (let i = lo; i < entries.length && entries[i]!.key.startsWith(q); i++) {
    const en = entries[i]!;
    if (en.key === q) continue;
    offer({ entity: summaryOf(en.entity), confidence: conf(0.6 + 0.19 * (q.length / en.key.length), en), matchedOn: 'prefix', matchedText: en.text });
    if (best.size >= limit * 4) break;
  }
  const hadExact = [...best.values()].some((m) => m.confidence >= 0.72);
  if (best.size < limit && !(exactWins && hadExact)) {
    const maxEdits = q.length <= 4 ? 1 : 2;
    for (const en of entries) {
      if (best.has(en.entity.id) && best.get(en.entity.id)!.confidence >= 0.5) continue;
      let w = false;
      for (let i = en.key.indexOf(' '); i >= 0; i = en.key.indexOf(' ', i + 1)) if (en.key.startsWith(q, i + 1)) { w = true; break; }
      if (w) { offer({ entity: summaryOf(en.entity), confidence: conf(0.5 + 0.09 * (q.length / en.key.length), en), matchedOn: 'prefix', matchedText: en.text }); continue; }
      const f = fuzzy(en.key, q);
      if (f > 0) { offer({ entity: summaryOf(en.entity), confidence: conf(0.2 + 0.29 * f, en), matchedOn: 'fuzzy', matchedText: en.text }); continue; }
      if (q.length >= 3 && Math.abs(en.key.length - q.length) <= maxEdits) {
        const d = editDistance(en.key, q, maxEdits);
        if (d <= maxEdits) offer({ entity: summaryOf(en.entity), confidence: conf(0.45 - 0.1 * d, en), matchedOn: 'fuzzy', matchedText: en.text });
      }
    }
  }
  return rank([...best.values()]).slice(0, limit);
  }, { exact: exactOf });
}

function editDistance(a: string, b: string, max: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

function fuzzy(key: string, q: string): number {
  if (q.length < 2 || q.length > key.length) return 0;
  let j = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; i < key.length && j < q.length; i++) if (key[i] === q[j]) { if (first < 0) first = i; last = i; j++; }
  if (j < q.length) return 0;
  const span = last - first + 1;
  if (q.length < 4 && span > q.length * 2) return 0;
  return (q.length / span) * (q.length / key.length) ** 0.25;
}

describe('NameLookup: lookup and suggest answer as the plain completion does', () => {
  const vaults: Array<[string, () => Promise<string>]> = [
    ['generated', async () => { const d = tempDir('lc-lookup-gen-'); tmp.push(d); return (await generateVault(d, { entities: 400, avgLinks: 4, seed: 7, danglingRatio: 0.1 })).dir; }],
    ['real-shaped', async () => { const d = tempDir('lc-lookup-real-'); tmp.push(d); return (await generateRealVault(d, { notes: 200, seed: 8 })).dir; }],
  ];
  for (const [name, make] of vaults) {
    it(name, async () => {
      const { model, notes } = await freshModel(await make());
      model.load(notes);
      const ents = [...model.entities()];
      expect(ents.some((e) => e.placeholder)).toBe(true);
      const l = new NameLookup(ents);
      const plainComplete = plainLookup(ents);
      const queries = new Set<string>(['', 'zzzq', 'x', '  ', 'the', 'of']);
      for (const e of ents.filter((_, i) => i % 15 === 0)) {
        queries.add(e.name);
        queries.add(e.name.slice(0, 1)).add(e.name.slice(0, 2)).add(e.name.slice(0, 3)).add(e.name.slice(0, 5));
        queries.add(e.name.slice(1, 6)); // inside the name: word prefixes and subsequences
        queries.add(e.name.length > 4 ? e.name.slice(0, 2) + e.name.slice(3) : e.name + 'e'); // one letter dropped
        for (const a of e.aliases) queries.add(a);
      }
      let kinds = new Set<string>();
      for (const q of queries) {
        for (const limit of [1, 10]) {
          const a = l.lookup(q, limit);
          expect(a, `lookup '${q}' ${limit}`).toEqual(plainComplete(q, limit, true));
          expect(l.suggest(q, limit), `suggest '${q}' ${limit}`).toEqual(plainComplete(q, limit, false));
          kinds = new Set([...kinds, ...a.map((m) => m.matchedOn)]);
        }
        expect(l.exactMatches(q), `exactMatches '${q}'`).toEqual(plainComplete.exact(q));
        // a lookup's first question is answered without sorting its entries: the same answers
        for (const limit of [1, 10]) {
          expect(new NameLookup(ents).lookup(q, limit), `first lookup '${q}' ${limit}`).toEqual(plainComplete(q, limit, true));
          expect(new NameLookup(ents).suggest(q, limit), `first suggest '${q}' ${limit}`).toEqual(plainComplete(q, limit, false));
        }
        expect(new NameLookup(ents).exactMatches(q), `first exactMatches '${q}'`).toEqual(plainComplete.exact(q));
      }
      // the queries reach every kind of match the completion makes
      expect([...kinds].sort()).toEqual(expect.arrayContaining(['fuzzy', 'name', 'prefix']));
    });
  }
});

describe('NameLookup: a first question without sorting, where the order decides', () => {
  const rec = (id: string, name: string, path: string | null, aliases: string[] = [], placeholder = false): EntityRecord => ({
    id, name, type: null, layer: 'world', path, hash: null, tags: [], aliases, properties: {}, body: '', placeholder,
  });
  // ties within an entity (its name and an alias, or its file name, equally good and sorted the other way round),
  // file names of a name's length that differ from it, and keys that sort before the ones added first
  const ents = [
    rec('world/zz abc', 'Zz Abc', 'People/Zz Abc.md', ['Aa Abc']),
    rec('world/qq abd', 'Qq Abd', 'People/Bb Abd.md'),
    rec('world/abcd', 'Abcd', 'Places/Wxyz.md', ['Abce']),
    rec('world/mid', 'Mid Abc', 'Mid.md', ['Cc Abc', 'Bb Abc']),
    rec('world/abc', 'abc', null, [], true),
    rec('world/abx', 'Abx', 'Abx.MD'),
    rec('world/wxyz', 'Wxyz', 'Other/Wxyz.md'),
  ];
  it('answers as the plain completion does, and as a lookup asked before', () => {
    const plain = plainLookup(ents);
    const asked = new NameLookup(ents);
    asked.lookup('warm up');
    for (const q of ['abc', 'ab', 'a', 'abd', 'abce', 'wxyz', 'wxy', 'bb', 'cc abc', 'bc', 'mid', 'abx', 'zz', 'acb', 'abcf']) {
      for (const limit of [1, 2, 10]) {
        expect(new NameLookup(ents).lookup(q, limit), `first lookup '${q}' ${limit}`).toEqual(plain(q, limit, true));
        expect(new NameLookup(ents).suggest(q, limit), `first suggest '${q}' ${limit}`).toEqual(plain(q, limit, false));
        expect(asked.suggest(q, limit), `suggest '${q}' ${limit}`).toEqual(plain(q, limit, false));
      }
      expect(new NameLookup(ents).exactMatches(q), `first exactMatches '${q}'`).toEqual(plain.exact(q));
    }
    // a file name of the name's length that differs from it is found by it
    expect(new NameLookup(ents).exactMatches('wxyz').map((m) => [m.entity.id, m.matchedOn])).toEqual([['world/wxyz', 'name'], ['world/abcd', 'filename']]);
  });
});
