import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKuzuStore } from './kuzu-store.js';
import { ent, testSchema } from './test-helpers.js';
import type { GraphStore } from './types.js';

let dir: string;
let store: GraphStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-store-'));
  store = createKuzuStore(join(dir, 'db'));
  await store.open(testSchema(), 'fp');
  await store.rebuild([
    ent('Dragon Keep', { type: 'location', body: 'An old fortress on the cliffs.' }),
    ent('Sera Vel', { type: 'npc', tags: ['Dragon'], body: 'A quiet smith.' }),
    ent('Old Mill', { type: 'location', body: 'Farmers say a dragon sleeps beneath the mill, and the miller feeds it bread.' }),
    ent('Wyrm Lord', { type: 'npc', aliases: ['The Dragon King'], body: 'Rules the north.' }),
    ent('Dragon Ghost', { placeholder: true }),
    ent('Elsewhere', { layer: 'campaign', body: 'dragon sightings' }),
  ], []);
  await store.ensureSearchIndex();
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('search', () => {
  it('ranks name/alias matches above tag matches above body matches, never placeholders', async () => {
    const hits = await store.search('dragon', { limit: 10 });
    const tier = { name: 0, alias: 0, tag: 1, body: 2 } as const;
    expect(hits.map((h) => tier[h.matched])).toEqual([0, 0, 1, 2, 2]);
    expect(hits[2]?.entity.name).toBe('Sera Vel');
    const names = hits.map((h) => h.entity.name);
    expect(new Set(names.slice(0, 2))).toEqual(new Set(['Dragon Keep', 'Wyrm Lord']));
    expect(new Set(names.slice(3))).toEqual(new Set(['Old Mill', 'Elsewhere']));
    expect(names).not.toContain('Dragon Ghost');
    const scores = hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('says which field matched and marks the matched words in the snippet', async () => {
    const hits = await store.search('dragon', { limit: 10 });
    const by = new Map(hits.map((h) => [h.entity.name, h]));
    expect(by.get('Dragon Keep')).toMatchObject({ matched: 'name', snippet: '«Dragon» Keep' });
    expect(by.get('Wyrm Lord')).toMatchObject({ matched: 'alias', snippet: 'Wyrm Lord (The «Dragon» King)' });
    expect(by.get('Sera Vel')).toMatchObject({ matched: 'tag', snippet: '#«Dragon»' });
    expect(by.get('Old Mill')?.matched).toBe('body');
    expect(by.get('Old Mill')?.snippet).toContain('a «dragon» sleeps');
  });

  it('filters by layer and type and honours the limit', async () => {
    expect((await store.search('dragon', { layer: 'campaign', limit: 10 })).map((h) => h.entity.name)).toEqual(['Elsewhere']);
    expect((await store.search('dragon', { type: 'npc', limit: 10 })).map((h) => h.entity.name).sort()).toEqual(['Sera Vel', 'Wyrm Lord']);
    expect(await store.search('dragon', { limit: 2 })).toHaveLength(2);
    expect(await store.search('   ', { limit: 5 })).toEqual([]);
  });
  it('searchCount is the number of hits with no limit, under the same filters', async () => {
    expect(await store.searchCount('dragon', {})).toBe(5);
    expect(await store.searchCount('dragon', { layer: 'campaign' })).toBe(1);
    expect(await store.searchCount('dragon', { type: 'npc' })).toBe(2);
    expect(await store.searchCount('smith fortress', {})).toBe((await store.search('smith fortress', { limit: 50 })).length);
    expect(await store.searchCount('   ', {})).toBe(0);
  });

  it('stemmed words match (dragons -> dragon) and multi-word queries combine', async () => {
    const hits = await store.search('dragons bread', { limit: 10 });
    expect(hits.map((h) => h.entity.name)).toContain('Old Mill');
    expect(hits.find((h) => h.entity.name === 'Old Mill')?.snippet).toMatch(/«bread»/);
  });

  // Finding (kuzu 0.11.3): the FTS index follows inserts, updates and deletes of the indexed columns.
  it('reflects changes made by applyDelta: changed body, new entity, removed entity', async () => {
    expect((await store.search('fortress', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Dragon Keep']);
    await store.applyDelta({
      removeEntities: ['main/old mill'],
      upsertEntities: [
        ent('Dragon Keep', { type: 'location', body: 'Now a ruin full of ash.' }),
        ent('Fort Lumen', { body: 'A shining fortress.' }),
      ],
      removeEdges: [],
      addEdges: [],
    });
    expect((await store.search('fortress', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Fort Lumen']);
    expect((await store.search('ash', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Dragon Keep']);
    expect((await store.search('bread', { limit: 5 }))).toEqual([]);
  });

  it('the index survives a reopen and is rebuilt lazily after rebuild()', async () => {
    await store.close();
    store = createKuzuStore(join(dir, 'db'));
    expect(await store.open(testSchema(), 'fp')).toBe(true);
    expect((await store.search('fortress', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Dragon Keep']);
    await store.rebuild([ent('Moon Gate', { body: 'silver fortress' })], []);
    // no ensureSearchIndex() call: search builds the index itself
    expect((await store.search('fortress', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Moon Gate']);
  });

  it('reads keep working while the index is being built after a rebuild', async () => {
    await store.rebuild(Array.from({ length: 300 }, (_, i) => ent(`Note ${i}`, { body: `river ${i} crossing` })), []);
    const building = store.ensureSearchIndex();
    const reads = await Promise.all(Array.from({ length: 20 }, (_, i) => store.getEntity(`main/note ${i}`)));
    expect(reads.every((r) => r !== null)).toBe(true);
    await building;
    expect((await store.search('crossing', { limit: 5 }))).toHaveLength(5);
  });

  it('after a rebuild the indexes are built in bulk (fts-bulk.ts), not by CREATE_FTS_INDEX', async () => {
    // beforeEach rebuilt and built the index; a silent fallback would only show as a slower search-ready
    const builtBy = (s: GraphStore): unknown => (s as unknown as { searchIdx: { builtBy: unknown } }).searchIdx.builtBy;
    expect(builtBy(store)).toBe('bulk');
    await store.rebuild([ent('Moon Gate', { body: 'silver fortress' })], []);
    await store.applyDelta({ removeEntities: [], upsertEntities: [ent('Sun Gate', { body: 'golden fortress' })], removeEdges: [], addEdges: [] });
    // a write between the rebuild and the build: the tokens are stale, the standard build runs
    await store.ensureSearchIndex();
    expect(builtBy(store)).toBe('create_fts_index');
    expect((await store.search('fortress', { limit: 5 })).map((h) => h.entity.name).sort()).toEqual(['Moon Gate', 'Sun Gate']);
  });

  // Defect 14/7a: names_text joined name and aliases with '\n', which Kùzu's tokenizer does not split on
  it('finds every word of a name and of each alias (no fused words at the joins)', async () => {
    await store.applyDelta({
      removeEntities: [], removeEdges: [], addEdges: [],
      upsertEntities: [ent('Zorblax Kingdom', { aliases: ['Quux Alpha', 'Beta Gamma'], tags: ['Realm/Old', 'Sea'] })],
    });
    for (const word of ['Kingdom', 'Quux', 'Alpha', 'Beta', 'Zorblax', 'Gamma']) {
      expect((await store.search(word, { limit: 5 })).map((h) => h.entity.name), word).toContain('Zorblax Kingdom');
    }
    expect((await store.search('Alpha', { limit: 5 }))[0]).toMatchObject({ matched: 'alias', snippet: 'Zorblax Kingdom (Quux «Alpha»)' });
    expect((await store.search('sea', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Zorblax Kingdom']);
  });

  // issue 15 point 6: a note over 1 MiB is stored as its prefix and its distinct words (kuzu/fts-text.ts), not whole
  it('finds a word that is only at the end of a note over 1 MB, loaded in bulk and written by applyDelta', async () => {
    const prose = 'The caravan crossed the salt flats at dawn and the guide sang of old roads.\n';
    const huge = (last: string): string => 'A chronicle begins with the founding of Harbour Town. ' + prose.repeat(Math.ceil(1_200_000 / prose.length)) + `At the very end: ${last}.`;
    const body = huge('Quillibrix');
    expect(body.length).toBeGreaterThan(1_048_576);
    await store.rebuild([ent('The Chronicle', { body }), ent('Salt Flats', { body: 'A caravan road.' })], []);
    await store.ensureSearchIndex();
    const hit = (await store.search('quillibrix', { limit: 5 }));
    expect(hit.map((h) => h.entity.name)).toEqual(['The Chronicle']);
    expect(hit[0]).toMatchObject({ matched: 'body', snippet: '… «Quillibrix» …' });
    // words of the stored prefix get a snippet from the note's own text
    expect((await store.search('harbour', { limit: 5 }))[0]?.snippet).toContain('founding of «Harbour» Town');
    expect((await store.search('caravan', { limit: 5 })).map((h) => h.entity.name).sort()).toEqual(['Salt Flats', 'The Chronicle']);
    // what Kùzu holds: far less than the note
    const size = async (): Promise<number> => Number((await store.cypher("MATCH (e:Entity {name: 'The Chronicle'}) RETURN size(e.body) AS n"))[0]?.n);
    expect(await size()).toBeLessThan(70_000);
    // Kùzu maintains the index on update: the old last word is gone, the new one found
    await store.applyDelta({ removeEntities: [], removeEdges: [], addEdges: [], upsertEntities: [ent('The Chronicle', { body: huge('Zanthropy') })] });
    expect(await store.search('quillibrix', { limit: 5 })).toEqual([]);
    expect((await store.search('zanthropy', { limit: 5 })).map((h) => h.entity.name)).toEqual(['The Chronicle']);
    expect(await size()).toBeLessThan(70_000);
    // and on delete
    await store.applyDelta({ removeEntities: [ent('The Chronicle').id], removeEdges: [], addEdges: [], upsertEntities: [] });
    expect(await store.search('zanthropy', { limit: 5 })).toEqual([]);
    expect((await store.search('caravan', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Salt Flats']);
  });
});
