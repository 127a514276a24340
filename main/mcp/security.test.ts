/**
 * Refusals (issue 7 item 4) through the real SDK client: Cypher that writes or
 * loads, names that leave the vault, write tools absent in read mode,
 * malformed / oversized arguments — each an isError result, and the server
 * keeps serving afterwards.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, textOf, type Harness } from './testkit.js';

let h: Harness;
let entities = 0;
beforeAll(async () => {
  h = await openHarness({ mode: 'read' });
  entities = (await h.ok<{ total: number }>('list_entities', { limit: 1 })).total;
});
afterAll(async () => { await h?.close(); });

async function stillServing() {
  const r = await h.ok<{ total: number }>('list_entities', { limit: 1 });
  expect(r.total).toBe(entities); // and nothing was written
}

const REFUSED: Array<[string, string]> = [
  ['CREATE', "CREATE (n:Entity {id: 'x/evil', name: 'evil'})"],
  ['MERGE', "MERGE (n:Entity {id: 'x/evil'})"],
  ['SET', "MATCH (n:Entity) SET n.name = 'pwned'"],
  ['DELETE', 'MATCH (n:Entity) DELETE n'],
  ['DETACH DELETE', 'MATCH (n:Entity) DETACH DELETE n'],
  ['REMOVE', 'MATCH (n:Entity) REMOVE n.body'],
  ['DROP', 'DROP TABLE Entity'],
  ['ALTER', 'ALTER TABLE Entity ADD evil STRING'],
  ['COPY', "COPY Entity FROM '/etc/passwd'"],
  ['LOAD', "LOAD FROM '/etc/passwd' RETURN *"],
  ['LOAD EXTENSION', 'LOAD EXTENSION fts'],
  ['INSTALL', 'INSTALL httpfs'],
  ['ATTACH', "ATTACH '/tmp/other.kuzu' AS other (dbtype kuzu)"],
  ['writing procedure', "CALL CREATE_FTS_INDEX('Entity', 'evil_idx', ['name'])"],
  ['dropping procedure', "CALL DROP_FTS_INDEX('Entity', 'entity_fts')"],
  ['EXPORT', "EXPORT DATABASE '/tmp/lorecraft-export'"],
  ['lower case', "match (n:Entity) set n.name = 'pwned'"],
  ['second statement', "MATCH (n:Entity) RETURN n.name LIMIT 1; CREATE (m:Entity {id: 'x/evil'})"],
];

describe('query_graph refuses anything that writes or loads', () => {
  for (const [what, q] of REFUSED) {
    it(`refuses ${what}`, async () => {
      const r = await h.call('query_graph', { cypher: q });
      expect(r.isError, textOf(r)).toBe(true);
      expect(textOf(r)).toMatch(/refused|read-only|not allowed/i);
      await stillServing();
    });
  }

  it('still answers a read-only query that mentions a keyword inside a string', async () => {
    const r = await h.ok<{ rows: unknown[] }>('query_graph', { cypher: "MATCH (n:Entity) WHERE n.name = 'CREATE' RETURN n.name" });
    expect(r.rows).toEqual([]);
  });
});

describe('names and paths that leave the vault', () => {
  for (const name of ['../../etc/passwd', '/etc/passwd', 'C:\\Windows\\win.ini', 'setting/../../../x', 'a\u0000b']) {
    it(`refuses ${JSON.stringify(name)}`, async () => {
      const r = await h.call('get_entity', { name });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/outside the vault/);
      await stillServing();
    });
  }
});

describe('write tools do not exist in read mode', () => {
  it('lists none and refuses a call to one', async () => {
    const { tools } = await h.client.listTools();
    for (const w of ['create_entity', 'update_entity', 'add_relationship', 'remove_relationship', 'record_event']) {
      expect(tools.map((t) => t.name)).not.toContain(w);
    }
    const r = await h.call('create_entity', { name: 'Evil', type: 'npc' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/not found/);
    expect(existsSync(join(h.dir, 'setting', 'npcs', 'Evil.md'))).toBe(false);
    await stillServing();
  });
});

describe('malformed and oversized arguments', () => {
  const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
    ['a 1 MB query string', 'search_lore', { query: 'x'.repeat(1024 * 1024) }, /Too big.*500.*at query/is],
    ['a 1 MB name', 'get_entity', { name: 'x'.repeat(1024 * 1024) }, /at most 200 characters at name/],
    ['a 1 MB cypher', 'query_graph', { cypher: 'MATCH (n) RETURN n // ' + 'x'.repeat(1024 * 1024) }, /cypher/i],
    ['depth 99', 'get_relationships', { name: 'Millbrook', depth: 99 }, /depth/],
    ['depth 0', 'get_relationships', { name: 'Millbrook', depth: 0 }, /depth/],
    ['a string depth', 'get_relationships', { name: 'Millbrook', depth: 'three' }, /depth/],
    ['an unknown direction', 'get_relationships', { name: 'Millbrook', direction: 'sideways' }, /direction/],
    ['a missing name', 'get_entity', {}, /name/],
    ['a number as name', 'get_entity', { name: 42 }, /name/],
    ['characters not a list', 'load_scene_context', { location: 'Millbrook', characters: 'Captain Varo' }, /characters/],
    ['21 characters', 'load_scene_context', { location: 'Millbrook', characters: Array.from({ length: 21 }, (_, i) => `C${i}`) }, /characters/],
    ['a negative session', 'get_current_state', { name: 'Millbrook', layer: 'campaign', session: -1 }, /session/],
    ['a fractional session', 'get_timeline', { layer: 'campaign', from_session: 1.5 }, /from_session/],
    ['a layer with a slash', 'list_entities', { layer: '../setting' }, /layer/],
    ['limit 10000', 'list_entities', { limit: 10000 }, /limit/],
    ['a forged cursor', 'list_entities', { cursor: 'bm90IGEgY3Vyc29y' }, /cursor/],
    ['a cursor from another tool', 'get_problems', { cursor: Buffer.from(JSON.stringify({ t: 'list_entities', k: 'x', o: 1 })).toString('base64url') }, /cursor is not valid for get_problems/],
    ['from_session after to_session', 'get_timeline', { layer: 'campaign', from_session: 5, to_session: 2 }, /from_session/],
    ['an unknown layer', 'get_current_state', { name: 'Millbrook', layer: 'nowhere' }, /no layer named "nowhere"/],
  ];
  for (const [what, tool, args, msg] of cases) {
    it(`${tool}: ${what} is an isError result with a clear message`, async () => {
      const r = await h.call(tool, args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(msg);
      expect(textOf(r).length).toBeLessThan(4000); // the message never echoes a huge argument back
      await stillServing();
    });
  }
});
