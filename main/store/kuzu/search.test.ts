import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKuzuStore } from '../kuzu-store.js';
import { ent, testSchema } from '../test-helpers.js';
import { createTables } from './bulk.js';
import { type OpenedDb, closeDatabase, openDatabase } from './db.js';
import { RelRegistry } from './rels.js';
import { SearchIndex } from './search.js';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'lorecraft-fts-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

describe('SearchIndex.ensure', () => {
  // Regression: a CREATE_FTS_INDEX whose forced checkpoint timed out (reads during the
  // background build) left internal tables behind, and every later search failed with
  // "Table: 0_fts_names_appears_info already exists" for the whole session.
  it('builds over the internal tables a failed earlier build left behind', async () => {
    const o: OpenedDb = await openDatabase(join(dir, 'g.kuzu'));
    try {
      const c = o.writer;
      await createTables(c, RelRegistry.fromSchema(testSchema()));
      await c.query("CREATE (:Entity {id: 'main:dragon keep', name: 'Dragon Keep', names_text: 'Dragon Keep', tags_text: '', body: 'cliffs', placeholder: false, layer: 'main'})");
      await c.query('CALL enable_internal_catalog=true');
      await c.query('CREATE NODE TABLE `0_fts_names_docs` (docID INT64, len UINT64, PRIMARY KEY(docID))');
      await c.query('CREATE NODE TABLE `0_fts_names_appears_info` (ID SERIAL, term STRING, docID INT64, PRIMARY KEY(ID))');
      await c.query('CALL enable_internal_catalog=false');
      const idx = new SearchIndex();
      await idx.ensure(c);
      expect(idx.isReady).toBe(true);
      const hits = await idx.search(o.reader, 'dragon', { limit: 5 });
      expect(hits.map((h) => h.entity.name)).toEqual(['Dragon Keep']);
    } finally {
      await closeDatabase(o);
    }
  });
});

describe('store.ensureSearchIndex', () => {
  it('is single-flight: a search during the background build waits for it and succeeds', async () => {
    const store = createKuzuStore(join(dir, 'db'));
    await store.open(testSchema(), 'fp');
    try {
      await store.rebuild([ent('Dragon Keep'), ent('Old Mill', { body: 'a dragon sleeps here' })], []);
      const bg = store.ensureSearchIndex();
      const [, , hits] = await Promise.all([bg, store.ensureSearchIndex(), store.search('dragon', { limit: 5 }), store.counts()]);
      expect(hits.map((h) => h.entity.name)).toEqual(['Dragon Keep', 'Old Mill']);
      expect(await store.search('mill', { limit: 5 })).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
