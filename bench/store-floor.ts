/**
 * The store's own floor: Kùzu loading a vault's graph with nothing else to do. The records a cold sync
 * produced are written as COPY files beforehand (not timed); then, into a fresh database opened as the
 * store opens it: BEGIN, the tables, one COPY per table (Entity, every REL table and mirror), COMMIT —
 * the statements BulkLoad runs, without the JavaScript around them (model, serialising, waiting).
 * A cold sync has to do this work as well as reading the notes (read_parse_floor_ms), and the REL COPYs and
 * the COMMIT cannot start before the last note is read (a reference needs every name).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EntityRecord, RelationshipRecord } from '../shared/types.js';
import type { Schema } from '../main/config/types.js';
import { copyStmt, createTables, edgeTables } from '../main/store/kuzu/bulk.js';
import { closeDatabase, openDatabase } from '../main/store/kuzu/db.js';
import { RelRegistry } from '../main/store/kuzu/rels.js';
import { toEntityRow } from '../main/store/kuzu/rows.js';

export interface StoreFloor { total: number; entities: number; edges: number; commit: number; rel_tables: number }

export async function storeLoadFloor(schema: Schema, entities: Iterable<EntityRecord>, edges: Iterable<RelationshipRecord>, tmp: string): Promise<StoreFloor> {
  const dir = mkdtempSync(join(tmp, 'store-floor-'));
  try {
    const reg = RelRegistry.fromSchema(schema);
    const entityFile = join(dir, 'entities.json');
    writeFileSync(entityFile, JSON.stringify([...entities].map(toEntityRow)));
    const relFiles = edgeTables(reg, edges).map(({ table, rows }, i) => {
      const file = join(dir, `${i}.json`);
      writeFileSync(file, JSON.stringify(rows));
      return { table, file };
    });
    const o = await openDatabase(join(dir, 'graph.kuzu'));
    try {
      const c = o.writer;
      const t0 = performance.now();
      await c.query('BEGIN TRANSACTION');
      await createTables(c, reg);
      await c.query(copyStmt('Entity', entityFile));
      const t1 = performance.now();
      for (const { table, file } of relFiles) await c.query(copyStmt(table, file));
      const t2 = performance.now();
      await c.query('COMMIT');
      const t3 = performance.now();
      const r = (x: number) => Math.round(x);
      return { total: r(t3 - t0), entities: r(t1 - t0), edges: r(t2 - t1), commit: r(t3 - t2), rel_tables: relFiles.length };
    } finally {
      await closeDatabase(o);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
