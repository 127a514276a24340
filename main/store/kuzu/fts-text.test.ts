/**
 * A huge body is stored as its prefix and its distinct words (fts-text.ts storedBody). Oracle, with Kùzu's own
 * tokenizer (CREATE_FTS_INDEX, real Kùzu): the stored text gives every document exactly the terms its whole body
 * gives, so every query matches the same documents (only tf and the document's length differ, by design); on
 * prose with the awkward cases (unicode case mapping, line breaks and tabs inside tokens, digits, punctuation,
 * apostrophes, stop words in capitals, a text without spaces), with small thresholds so the texts stay small.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prng } from '../../../shared/prng.js';
import { type Conn, type OpenedDb, closeDatabase, openDatabase } from './db.js';
import { HUGE_BODY_CHARS } from '../types.js';
import { BODY_WORDS_MARK, storedBody, storedBodyText } from './fts-text.js';
import { AWKWARD_TEXTS } from './fts-fixture.js';

const AWKWARD = AWKWARD_TEXTS;
const POOL = ['river', 'castle', 'dragon', 'Dragons', 'king', 'Queen', 'sword', 'the', 'of', 'storms', 'ÆTHER', 'Ωmega', 'naïve', 'THE', 'Is'];

/** Texts of a few KB: AWKWARD lines and pool words in seeded order, joined by spaces or line breaks. */
function texts(): string[] {
  const r = prng(15);
  const out: string[] = [];
  for (let i = 0; i < 24; i++) {
    const parts: string[] = [];
    const n = 200 + Math.floor(r() * 600);
    for (let k = 0; k < n; k++) parts.push(r() < 0.1 ? AWKWARD[Math.floor(r() * AWKWARD.length)]! : POOL[Math.floor(r() * POOL.length)]! + (r() < 0.05 ? String(k) : ''));
    out.push(parts.join(r() < 0.5 ? ' ' : r() < 0.5 ? '\n' : ' \n'));
  }
  // no space at all in the first part, and a unique word at the very end
  out.push('x'.repeat(5000) + ' ' + POOL.join(' ') + ' zyzzyvaend');
  out.push(AWKWARD.join('').repeat(40));
  return out;
}

const HUGE = 1500;
const PREFIX = 400;

async function indexed(dir: string, name: string, bodies: string[]): Promise<OpenedDb> {
  const o = await openDatabase(join(dir, name));
  await o.writer.query('CREATE NODE TABLE Entity(id STRING PRIMARY KEY, body STRING)');
  for (const [i, body] of bodies.entries()) await o.writer.query('CREATE (:Entity {id: $id, body: $body})', { id: `d${i}`, body });
  await o.writer.query("CALL CREATE_FTS_INDEX('Entity', 'fts_body', ['body'], stemmer := 'porter')");
  return o;
}

/** Every (term, entity id) pair of the index (tf and lengths left out). */
async function postings(c: Conn): Promise<string[]> {
  const id = Number((await c.query("CALL show_tables() WHERE name = 'Entity' RETURN id"))[0]?.id);
  const p = `${id}_fts_body`;
  await c.query('CALL enable_internal_catalog=true');
  try {
    const docs = new Map((await c.query('MATCH (e:Entity) RETURN e.id AS id, OFFSET(ID(e)) AS o')).map((r) => [Number(r.o), String(r.id)]));
    const rows = await c.query(`MATCH (t:\`${p}_terms\`)-[:\`${p}_appears_in\`]->(d:\`${p}_docs\`) RETURN t.term AS term, d.docID AS doc`);
    return rows.map((r) => `${String(r.term)} ${docs.get(Number(r.doc))}`).sort();
  } finally {
    await c.query('CALL enable_internal_catalog=false');
  }
}

const QUERIES = ['dragon', 'dragons', 'the', 'ΟΔΟΣ', 'οδός', 'istanbul', 'straße', 'k', 'kelvin', 'line', 'breaks', 'tabs', 'naïve', 'æther',
  'npc', 'guild', 'running', 'zyzzyvaend', 'ωmega', 'queen sword', 'digits', 'mixed', '日本語のテキスト'];

async function matches(c: Conn): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const q of QUERIES) {
    const rows = await c.query("CALL QUERY_FTS_INDEX('Entity', 'fts_body', $q) RETURN node.id AS id", { q });
    out[q] = rows.map((r) => String(r.id)).sort();
  }
  return out;
}

let dir: string;
let whole: OpenedDb;
let stored: OpenedDb;
const bodies = texts();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-fts-text-'));
  whole = await indexed(dir, 'whole.kuzu', bodies);
  stored = await indexed(dir, 'stored.kuzu', bodies.map((b) => storedBody(b, HUGE, PREFIX)));
});
afterAll(async () => {
  await closeDatabase(whole);
  await closeDatabase(stored);
  await rm(dir, { recursive: true, force: true });
});

describe('storedBody', () => {
  it('keeps a body up to the threshold as it is, and shortens a longer one to its prefix, the marker and its other words', () => {
    expect(storedBody('a short note', HUGE, PREFIX)).toBe('a short note');
    const exact = 'w '.repeat(HUGE / 2);
    expect(storedBody(exact, HUGE, PREFIX)).toBe(exact);
    let shortened = 0;
    for (const b of bodies) {
      const s = storedBody(b, HUGE, PREFIX);
      if (b.length <= HUGE) { expect(s).toBe(b); continue; }
      shortened++;
      const { text, shortened: cut } = storedBodyText(s);
      expect(cut).toBe(true);
      expect(b.startsWith(text)).toBe(true);
      expect(text.length).toBeLessThanOrEqual(PREFIX);
      // the prefix ends at a token boundary
      expect(text.length === 0 || b[text.length] === ' ').toBe(true);
      expect(s.length).toBeLessThan(b.length);
    }
    expect(shortened).toBeGreaterThan(20);
    // the default threshold: 1 MiB characters
    expect(storedBody('y '.repeat(HUGE_BODY_CHARS / 2))).toHaveLength(HUGE_BODY_CHARS);
    const big = storedBody('yarrow '.repeat(HUGE_BODY_CHARS / 7) + 'zenith');
    expect(big.length).toBeLessThan(70_000);
    expect(big.endsWith(BODY_WORDS_MARK + 'zenith')).toBe(true);
  });

  it('gives every document the same terms in Kùzu\'s own full-text index as its whole body (oracle)', async () => {
    const [a, b] = [await postings(whole.reader), await postings(stored.reader)];
    expect(a.length).toBeGreaterThan(500);
    expect(b).toEqual(a);
  });

  it('so every query matches the same documents', async () => {
    const [a, b] = [await matches(whole.reader), await matches(stored.reader)];
    expect(a.zyzzyvaend).toEqual([`d${bodies.length - 2}`]);
    expect(a.dragon!.length).toBeGreaterThan(10);
    expect(b).toEqual(a);
  });
});
