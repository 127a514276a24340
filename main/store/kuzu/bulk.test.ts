/**
 * The bulk load's row building and JSON in steps (bulk.ts STEP_ROWS): the files hold JSON.stringify's very
 * text, and the event loop runs between steps of a chunk, so a process serving pages during its opening load
 * (the web shell) answers calls within a step rather than after a whole 2,500-row chunk (issue 19 point 2).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ent, testSchema } from '../test-helpers.js';
import { BulkLoad, STEP_ROWS, jsonInSteps } from './bulk.js';
import { type OpenedDb, closeDatabase, openDatabase } from './db.js';
import { RelRegistry } from './rels.js';

/** Calls `see` at every turn of the event loop (setImmediate) until the returned stop() */
function everyTurn(see: () => void): () => void {
  let on = true;
  const tick = (): void => { if (!on) return; see(); setImmediate(tick); };
  setImmediate(tick);
  return () => { on = false; };
}

describe('jsonInSteps', () => {
  const row = (i: number) => ({ id: `e${i}`, name: `Näme "${i}"\n✓`, tags: i % 3 ? ['a/b', 'c'] : [], props: JSON.stringify({ n: i, s: '\u2028' }), body: i % 5 ? 'x'.repeat(i % 40) : '', placeholder: i % 7 === 0, n: i % 11 ? i / 3 : null });
  it('gives JSON.stringify\'s text for any length, with a step boundary or not', async () => {
    for (const n of [0, 1, 9, 10, 11, 39, 40, 41, 123]) {
      const rows = Array.from({ length: n }, (_, i) => row(i));
      expect(await jsonInSteps(rows, 10)).toBe(JSON.stringify(rows));
    }
    const big = Array.from({ length: 3 * STEP_ROWS + 7 }, (_, i) => row(i));
    expect(await jsonInSteps(big)).toBe(JSON.stringify(big));
  });

  it('lets the event loop run between steps', async () => {
    let turns = 0;
    const stop = everyTurn(() => { turns++; });
    await jsonInSteps(Array.from({ length: 100 }, (_, i) => row(i)), 10);
    stop();
    expect(turns).toBeGreaterThanOrEqual(9);
  });
});

describe('BulkLoad.finish in steps (real Kùzu)', () => {
  let dir: string;
  let o: OpenedDb;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lorecraft-bulk-steps-'));
    o = await openDatabase(join(dir, 'db'));
  });
  afterAll(async () => {
    await closeDatabase(o);
    await rm(dir, { recursive: true, force: true });
  });

  it('takes a chunk over several turns of the event loop and loads every row', async () => {
    const n = 2600; // a first chunk of 2,500 rows (CHUNK_ROWS), then 100
    const entities = Array.from({ length: n }, (_, i) => ent(`Entity ${i}`, { body: `note ${i} of the world` }));
    const load = new BulkLoad(o.writer, RelRegistry.fromSchema(testSchema()));
    const seen: number[] = [];
    try {
      await load.begin();
      const stop = everyTurn(() => { seen.push(load.rows.length); });
      await load.finish(entities, [], async () => undefined);
      stop();
    } finally {
      await load.dispose();
    }
    // before, the 2,500 rows of the first chunk were built (and their JSON written) in one turn: no turn saw 0 < rows < 2500
    const within = seen.filter((k) => k > 0 && k < 2500);
    expect(within.length).toBeGreaterThanOrEqual(Math.floor(2500 / STEP_ROWS) - 1);
    expect(load.rows.map((r) => r.id)).toEqual(entities.map((e) => e.id));
    const count = await o.writer.query('MATCH (e:Entity) RETURN count(e) AS n');
    expect(Number(count[0]!.n)).toBe(n);
  });
});
