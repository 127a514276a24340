/**
 * Oracle: the bulk full-text build (fts-bulk.ts) equals Kùzu's own CREATE_FTS_INDEX — the internal
 * docs / terms / appears_in tables row for row, the stop-word table, and every query's hits and scores —
 * on prose with the awkward cases (unicode case mapping, a Kelvin sign that lower-cases to a stop word,
 * line breaks and tabs inside tokens, digits, punctuation, apostrophes, empty texts, placeholders), and
 * again after the same inserts, updates and deletes (Kùzu maintains both the same way).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityRecord } from '../../../shared/types.js';
import { prng } from '../../../shared/prng.js';
import { ent, testSchema } from '../test-helpers.js';
import { BulkLoad } from './bulk.js';
import { type Conn, type OpenedDb, closeDatabase, openDatabase } from './db.js';
import { applyDeltaTx } from './delta.js';
import { KUZU_DEFAULT_STOPWORDS } from './fts-stopwords.js';
import { pieces, tokenize } from './fts-bulk.js';
import { RelRegistry } from './rels.js';
import { createKuzuStore } from '../kuzu-store.js';
import { FTS_COLUMNS, SearchIndex } from './search.js';
import { AWKWARD_TEXTS } from './fts-fixture.js';

const AWKWARD = AWKWARD_TEXTS;

function corpus(n: number, seed: number): EntityRecord[] {
  const r = prng(seed);
  const pool = ['river', 'castle', 'dragon', 'Dragons', 'king', 'Queen', 'sword', 'harbour', 'guild', 'temple', 'the', 'of', 'storms',
    'storm', 'stormy', 'merchant', 'merchants', 'priest', 'ruins', 'tower', 'Towers', 'oath', 'crown', 'bridge', 'smuggler', 'ÆTHER', 'Ωmega', 'naïve'];
  const word = (): string => pool[Math.floor(r() * pool.length)]!;
  const out: EntityRecord[] = AWKWARD.map((body, i) => ent(`Awkward ${i}`, { body, tags: i % 2 ? ['Type/NPC', 'Dragon_Lore'] : [], aliases: i % 3 ? [`Ál ${i}`] : [] }));
  for (let i = 0; i < n; i++) {
    const sentences = Array.from({ length: 1 + Math.floor(r() * 5) }, () => Array.from({ length: 3 + Math.floor(r() * 9) }, word).join(r() < 0.2 ? '\n' : ' ') + '.');
    out.push(ent(`${word()} ${word()} ${i}`, { body: sentences.join(' '), tags: r() < 0.5 ? [word(), `Location/${word()}`] : [], aliases: r() < 0.3 ? [`the ${word()} ${i}`] : [] }));
  }
  // a long note (~150K characters): tokenized in pieces cut at spaces, never inside a token (fts-bulk.ts pieces())
  out.push(ent('The Long Chronicle', { body: Array.from({ length: 2500 }, (_, i) => AWKWARD[i % AWKWARD.length]!).join('\n') }));
  out.push(ent('Ghost of the Harbour', { placeholder: true }));
  return out;
}

async function load(dir: string, name: string, entities: EntityRecord[], bulk: boolean): Promise<OpenedDb> {
  const o = await openDatabase(join(dir, name));
  const load = new BulkLoad(o.writer, RelRegistry.fromSchema(testSchema()));
  try {
    await load.begin();
    await load.finish(entities, [], async () => undefined);
    const idx = new SearchIndex();
    await idx.ensure(o.writer, bulk ? await tokenize(load.rows, FTS_COLUMNS) : undefined);
    // the bulk build falls back to CREATE_FTS_INDEX on failure: make sure each side is what it claims
    expect(idx.builtBy).toBe(bulk ? 'bulk' : 'create_fts_index');
  } finally {
    await load.dispose();
  }
  return o;
}

async function tables(c: Conn): Promise<Record<string, unknown>> {
  const id = Number((await c.query("CALL show_tables() WHERE name = 'Entity' RETURN id"))[0]?.id);
  await c.query('CALL enable_internal_catalog=true');
  try {
    const out: Record<string, unknown> = {};
    for (const { index } of FTS_COLUMNS) {
      const p = `${id}_${index}`;
      out[`${index}.docs`] = await c.query(`MATCH (d:\`${p}_docs\`) RETURN d.docID AS doc, d.len AS len ORDER BY doc`);
      out[`${index}.terms`] = await c.query(`MATCH (t:\`${p}_terms\`) RETURN t.term AS term, t.df AS df ORDER BY term`);
      out[`${index}.appears_in`] = await c.query(`MATCH (t:\`${p}_terms\`)-[a:\`${p}_appears_in\`]->(d:\`${p}_docs\`) RETURN t.term AS term, d.docID AS doc, a.tf AS tf ORDER BY term, doc`);
    }
    out.stopwords = (await c.query('MATCH (s:default_english_stopwords) RETURN s.sw AS w ORDER BY w')).map((r) => r.w);
    out.indexes = await c.query('CALL show_indexes() RETURN index_name AS n, property_names AS p ORDER BY n');
    return out;
  } finally {
    await c.query('CALL enable_internal_catalog=false');
  }
}

const QUERIES = ['dragon', 'dragons', 'Storm', 'harbour guild', 'the', 'ΟΔΟΣ', 'οδός', 'istanbul', 'straße', 'strasse', 'k', 'kelvin',
  'line', 'breaks', 'tabs', 'naïve', 'æther', 'npc', 'type', 'lore', 'guild', 'running', 'tower merchant oath', '日本語のテキスト', 'ál', 'the river 7'];

async function answers(c: Conn): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const { index } of FTS_COLUMNS) {
    for (const q of QUERIES) {
      const rows = await c.query(`CALL QUERY_FTS_INDEX('Entity', '${index}', $q) RETURN node.id AS id, score ORDER BY score DESC, id`, { q });
      out[`${index}:${q}`] = rows.map((r) => `${String(r.id)} ${Number(r.score).toPrecision(12)}`);
    }
  }
  return out;
}

let dir: string;
let real: OpenedDb;
let bulk: OpenedDb;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-fts-bulk-'));
  const ents = corpus(400, 5);
  real = await load(dir, 'real.kuzu', ents, false);
  bulk = await load(dir, 'bulk.kuzu', ents, true);
});
afterAll(async () => {
  await closeDatabase(real);
  await closeDatabase(bulk);
  await rm(dir, { recursive: true, force: true });
});

describe('bulk full-text build', () => {
  it('writes the same index tables as CREATE_FTS_INDEX and registers the same indexes', async () => {
    const a = await tables(real.writer);
    const b = await tables(bulk.writer);
    expect((a['fts_body.terms'] as unknown[]).length).toBeGreaterThan(30);
    expect((a['fts_body.appears_in'] as unknown[]).length).toBeGreaterThan(1000);
    expect(b).toEqual(a);
    expect(a.stopwords).toEqual([...KUZU_DEFAULT_STOPWORDS].sort());
  });

  it('answers every query with the same hits and scores', async () => {
    const a = await answers(real.writer);
    expect(Object.values(a).filter((x) => x.length > 0).length).toBeGreaterThan(30);
    expect(await answers(bulk.writer)).toEqual(a);
  });

  it('stays equal after the same inserts, updates and deletes', async () => {
    const reg = RelRegistry.fromSchema(testSchema());
    const delta = {
      removeEntities: ['main/awkward 3', 'main/awkward 8'],
      upsertEntities: [
        ent('Awkward 1', { body: 'Rewritten: dragons now nest under the storm tower.' }),
        ent('Newcomer', { body: 'A new merchant of storms arrives at the harbour.', tags: ['Dragon'] }),
      ],
      removeEdges: [], addEdges: [],
    };
    for (const o of [real, bulk]) await applyDeltaTx(o.writer, reg, delta);
    expect(await answers(bulk.writer)).toEqual(await answers(real.writer));
    expect(await tables(bulk.writer)).toEqual(await tables(real.writer));
  });
});

describe('bulk full-text build in the store', () => {
  it('falls back to CREATE_FTS_INDEX when the bulk build fails, leaving nothing behind', async () => {
    const d = await mkdtemp(join(tmpdir(), 'lorecraft-fts-fallback-'));
    const o = await openDatabase(join(d, 'g.kuzu'));
    try {
      const load = new BulkLoad(o.writer, RelRegistry.fromSchema(testSchema()));
      await load.begin();
      await load.finish([ent('Old Mill', { body: 'a dragon sleeps beneath the mill' })], [], async () => undefined);
      await load.dispose();
      // tokens of an entity the table does not hold: the bulk build throws before writing anything
      const nobody: { id: string } = { id: 'main/nobody', ...{ body: 'dragon', names_text: 'Nobody', tags_text: '' } };
      const tokens = await tokenize([nobody], FTS_COLUMNS);
      const idx = new SearchIndex();
      await idx.ensure(o.writer, tokens);
      expect(idx.isReady).toBe(true);
      expect(idx.builtBy).toBe('create_fts_index');
      expect((await idx.search(o.reader, 'dragon', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Old Mill']);
    } finally {
      await closeDatabase(o);
      await rm(d, { recursive: true, force: true });
    }
  });

  it('loads from a temp folder whose path holds a quote and a backslash', async () => {
    const d = await mkdtemp(join(tmpdir(), 'lorecraft-fts-quote-'));
    const odd = join(d, "it's \\ here");
    await mkdir(odd);
    const before = process.env.TMPDIR;
    process.env.TMPDIR = odd;
    let o: OpenedDb | null = null;
    try {
      expect(tmpdir()).toBe(odd);
      o = await load(d, 'g.kuzu', [ent('Old Mill', { body: 'a dragon sleeps beneath the mill' })], true);
      const hits = await new SearchIndex().search(o.reader, 'dragon', { limit: 5 });
      expect(hits.map((h) => h.entity.name)).toEqual(['Old Mill']);
    } finally {
      if (before === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = before;
      if (o) await closeDatabase(o);
      await rm(d, { recursive: true, force: true });
    }
  });

  it('does not use the tokens of a rebuild once anything else was written', async () => {
    const d = await mkdtemp(join(tmpdir(), 'lorecraft-fts-stale-'));
    const store = createKuzuStore(join(d, 'db'));
    try {
      await store.open(testSchema(), 'fp');
      await store.rebuild([ent('Old Mill', { body: 'a dragon sleeps beneath the mill' })], []);
      await store.applyDelta({ removeEntities: [], upsertEntities: [ent('Zoo', { body: 'zebras and a dragon' })], removeEdges: [], addEdges: [] });
      await store.ensureSearchIndex();
      expect((await store.search('zebras', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Zoo']);
      expect((await store.search('dragon', { limit: 5 })).map((h) => h.entity.name).sort()).toEqual(['Old Mill', 'Zoo']);
    } finally {
      await store.close();
      await rm(d, { recursive: true, force: true });
    }
  });
});

describe('pieces of a long text', () => {
  it('cut just after a space, never inside a token, and give the text back whole', () => {
    const r = prng(3);
    for (let n = 0; n < 200; n++) {
      const text = Array.from({ length: Math.floor(r() * 60) }, () => ['ab', 'Σ', ' ', '  ', '\n', 'İx', 'word', 'x'.repeat(Math.floor(r() * 30))][Math.floor(r() * 8)]!).join('');
      const size = 1 + Math.floor(r() * 12);
      const ps = [...pieces(text, size)];
      expect(ps.join('')).toBe(text);
      for (const p of ps.slice(0, -1)) expect(p.endsWith(' ')).toBe(true);
      const tokens = (t: string) => t.split(' ').filter(Boolean);
      expect(ps.flatMap(tokens)).toEqual(tokens(text));
    }
    expect([...pieces('abc', 10)]).toEqual(['abc']);
    expect([...pieces('', 10)]).toEqual([]);
  });
});
