/** entitiesByIds: the pk-lookup path (few ids) and the UNWIND path (many) answer alike. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OpenedDb, closeDatabase, openDatabase } from './db.js';
import { PK_UNION_MAX, entitiesByIds } from './queries.js';
import { NODE_DDL } from './rels.js';

let dir: string;
let db: OpenedDb;
const N = PK_UNION_MAX * 3;
const idOf = (i: number): string => `main/e${i}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-byids-'));
  db = await openDatabase(join(dir, 'graph.kuzu'));
  await db.writer.query(NODE_DDL);
  for (let i = 0; i < N; i++) {
    // names with quotes and a backslash: they travel as parameters, never spliced into the statement
    await db.writer.query('CREATE (:Entity {id: $id, name: $name, placeholder: false})', { id: idOf(i), name: `E'${i}\\"` });
  }
});
afterAll(async () => {
  await closeDatabase(db);
  await rm(dir, { recursive: true, force: true });
});

const names = async (ids: string[]): Promise<string[]> =>
  (await entitiesByIds(db.reader, ids, 'e.id AS id, e.name AS name')).map((r) => `${String(r.id)}=${String(r.name)}`).sort();

describe('entitiesByIds', () => {
  it('returns one row per distinct existing id, on both sides of the pk-lookup limit', async () => {
    expect(await names([])).toEqual([]);
    for (const n of [1, 2, PK_UNION_MAX, PK_UNION_MAX + 1, N]) {
      const ids = Array.from({ length: n }, (_, i) => idOf((i * 7) % N));
      const want = [...new Set(ids)].map((id) => `${id}=E'${id.slice(6)}\\"`).sort();
      // duplicates and ids of no entity add nothing
      expect(await names([...ids, ids[0]!, 'main/nobody'])).toEqual(want);
    }
  });
});
