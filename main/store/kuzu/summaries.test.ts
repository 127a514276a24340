/** The summary cache never outlives a write: traversals and paths show what the last write left. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKuzuStore } from '../kuzu-store.js';
import { edge, ent, testSchema } from '../test-helpers.js';
import type { GraphStore } from '../types.js';

let dir: string;
let store: GraphStore;
const id = (n: string): string => `main/${n.toLowerCase()}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-summaries-'));
  store = createKuzuStore(join(dir, 'db'));
  await store.open(testSchema(), 'fp');
  await store.rebuild(['Varo', 'Red Hand', 'Vale'].map((n) => ent(n)), [edge('Varo', 'Red Hand', 'MEMBER_OF'), edge('Red Hand', 'Vale', 'LOCATED_IN')]);
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('summaries in traversals after writes', () => {
  it('an upsert, a removal and a rebuild each show in the next traversal and path', async () => {
    const first = await store.neighbours(id('Varo'), { depth: 2, direction: 'both' });
    expect(first.entities.map((e) => [e.name, e.tags])).toEqual([['Red Hand', []], ['Vale', []]]);
    // the caller owns what it got: mutating it does not leak into the next answer
    first.entities[0]?.tags.push('mutated');
    first.root.tags.push('mutated');

    await store.applyDelta({ removeEntities: [], upsertEntities: [ent('Red Hand', { tags: ['faction'], type: 'faction' })], removeEdges: [], addEdges: [] });
    const second = await store.neighbours(id('Varo'), { depth: 2, direction: 'both' });
    expect(second.root.tags).toEqual([]);
    expect(second.entities.find((e) => e.name === 'Red Hand')).toMatchObject({ tags: ['faction'], type: 'faction' });
    expect((await store.shortestPath(id('Varo'), id('Vale'), 4))?.entities.map((e) => e.type)).toEqual([null, 'faction', null]);

    await store.applyDelta({ removeEntities: [id('Vale')], upsertEntities: [], removeEdges: [], addEdges: [] });
    expect((await store.neighbours(id('Varo'), { depth: 2, direction: 'both' })).entities.map((e) => e.name)).toEqual(['Red Hand']);
    await expect(store.neighbours(id('Vale'), { depth: 1, direction: 'both' })).rejects.toMatchObject({ code: 'not-found' });

    await store.rebuild([ent('Varo', { tags: ['npc'] }), ent('Vale')], [edge('Varo', 'Vale', 'LINKS_TO')]);
    const after = await store.neighbours(id('Varo'), { depth: 2, direction: 'both' });
    expect(after.root.tags).toEqual(['npc']);
    expect(after.entities.map((e) => e.name)).toEqual(['Vale']);
  });

  it('reads running while a write is under way never keep its old summaries', async () => {
    const writes: Array<Promise<void>> = [];
    const reads: Array<Promise<unknown>> = [];
    for (let i = 0; i < 6; i++) {
      writes.push(store.applyDelta({ removeEntities: [], upsertEntities: [ent('Vale', { tags: [`v${i}`] })], removeEdges: [], addEdges: [] }));
      reads.push(store.neighbours(id('Varo'), { depth: 1, direction: 'both' }));
    }
    await Promise.all([...writes, ...reads]);
    const t = await store.neighbours(id('Varo'), { depth: 1, direction: 'both' });
    expect(t.entities.find((e) => e.name === 'Vale')?.tags).toEqual(['v5']);
  });

  it('search hits built from cached summaries equal fresh ones and follow writes', async () => {
    await store.rebuild([ent('Varo', { body: 'a storm over the harbour' }), ent('Storm Keep', { aliases: ['the Gale'], tags: ['fort'] })], [edge('Varo', 'Storm Keep', 'LINKS_TO')]);
    await store.ensureSearchIndex();
    const cold = await store.search('storm gale', { limit: 5 });
    await store.neighbours(id('Varo'), { depth: 1, direction: 'both' }); // fills the cache with both summaries
    const warm = await store.search('storm gale', { limit: 5 });
    expect(warm).toEqual(cold);
    expect(warm.map((h) => [h.entity.name, h.matched])).toEqual([['Storm Keep', 'name'], ['Varo', 'body']]);
    expect(warm[1]?.snippet).toContain('«storm»');
    await store.applyDelta({ removeEntities: [], upsertEntities: [ent('Storm Keep', { aliases: ['the Gale'], tags: ['ruin'] })], removeEdges: [], addEdges: [] });
    expect((await store.search('storm', { limit: 5 })).find((h) => h.entity.name === 'Storm Keep')?.entity.tags).toEqual(['ruin']);
  });
});
