import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKuzuStore } from '../kuzu-store.js';
import { edge, ent, testSchema } from '../test-helpers.js';
import { RelRegistry } from './rels.js';
import { createTables } from './bulk.js';
import { type OpenedDb, closeDatabase, openDatabase } from './db.js';
import { readMeta, setMeta } from './meta.js';

const dir = mkdtempSync(join(tmpdir(), 'lorecraft-meta-'));
let o: OpenedDb;
beforeAll(async () => {
  o = await openDatabase(join(dir, 'graph.kuzu'));
  await createTables(o.writer, RelRegistry.fromSchema(testSchema()));
});
afterAll(async () => {
  await closeDatabase(o);
  rmSync(dir, { recursive: true, force: true });
});

describe("the store's record (Entity's table comment)", () => {
  it('is empty in a new database, keeps other keys when one is set, and takes any text', async () => {
    expect(await readMeta(o.reader)).toEqual({});
    await setMeta(o.writer, { fingerprint: "kuzu-store-5:it's \\ \"quoted\" ünïcode", rels: '{"a":[1]}' });
    await setMeta(o.writer, { generation: 'g1' });
    expect(await readMeta(o.reader)).toEqual({ fingerprint: "kuzu-store-5:it's \\ \"quoted\" ünïcode", rels: '{"a":[1]}', generation: 'g1' });
  });

  it('goes with the transaction: a ROLLBACK restores it, a COMMIT keeps it with the rows', async () => {
    const c = o.writer;
    await c.query('BEGIN TRANSACTION');
    await c.query("CREATE (:Entity {id: 'rolled'})");
    await setMeta(c, { generation: 'g2' });
    expect((await readMeta(c)).generation).toBe('g2'); // seen inside the transaction
    await c.query('ROLLBACK');
    expect((await readMeta(o.reader)).generation).toBe('g1');
    await c.query('BEGIN TRANSACTION');
    await c.query("CREATE (:Entity {id: 'kept'})");
    await setMeta(c, { generation: 'g3' });
    await c.query('COMMIT');
    expect((await readMeta(o.reader)).generation).toBe('g3');
    expect((await o.reader.query('MATCH (e:Entity) RETURN e.id AS id')).map((r) => r.id)).toEqual(['kept']);
  });

  it('reads a comment that is not its own as no record (the graph is then rebuilt)', async () => {
    await o.writer.query("COMMENT ON TABLE Entity IS 'a note by someone else'");
    expect(await readMeta(o.reader)).toEqual({});
    await setMeta(o.writer, { generation: 'g4' });
    expect(await readMeta(o.reader)).toEqual({ generation: 'g4' });
  });
});

describe('a stored graph', () => {
  it('has no node table but Entity (every node table costs kuzu memory while open), and opens again without a rebuild', async () => {
    const d = mkdtempSync(join(tmpdir(), 'lorecraft-meta-store-'));
    try {
      const store = createKuzuStore(join(d, 'db'));
      expect(await store.open(testSchema(), 'fp')).toBe(false);
      await store.rebuild([ent('A'), ent('B')], [edge('A', 'B', 'LINKS_TO')]);
      const gen = store.generation();
      expect(gen).toBeTruthy();
      await store.close();
      const again = createKuzuStore(join(d, 'db'));
      expect(await again.open(testSchema(), 'fp')).toBe(true);
      expect(again.generation()).toBe(gen);
      await again.close();
      const db = await openDatabase(join(d, 'db', 'graph.kuzu'));
      try {
        const nodes = (await db.reader.query("CALL show_tables() WHERE type = 'NODE' RETURN name")).map((r) => r.name);
        expect(nodes).toEqual(['Entity']);
      } finally {
        await closeDatabase(db);
      }
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});
