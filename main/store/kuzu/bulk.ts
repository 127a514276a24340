/**
 * Bulk load for rebuild(): the database is recreated empty, entities and edges
 * are written as JSON files to a temp dir and loaded with COPY FROM (one COPY
 * per table; per-statement CREATE is ~100x slower). JSON needs no CSV quoting
 * rules for commas, quotes, newlines in bodies or unicode, and loads lists
 * natively; measured here: 10k nodes + 50k edges ≈ 0.2 s.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityRecord, RelationshipRecord } from '../../../shared/types.js';
import { CoreError } from '../../core/api.js';
import type { Conn } from './db.js';
import { META_DDL, NODE_DDL, type RelRegistry, ident, relTableDDL } from './rels.js';
import { toEntityRow } from './rows.js';

export interface EdgeRow { from: string; to: string; field: string | null; source: string; line: number }

/**
 * Map an edge to its canonical table (an inverse name is flipped to the
 * canonical direction; an unknown type is registered as a directed type).
 */
export function canonicalEdge(reg: RelRegistry, e: RelationshipRecord): { type: string; row: EdgeRow } {
  let r = reg.resolve(e.type);
  if (!r) {
    reg.add({ name: e.type, symmetric: false });
    r = { canonical: e.type, inverted: false };
  }
  const row: EdgeRow = r.inverted
    ? { from: e.to, to: e.from, field: e.field, source: e.source, line: e.line }
    : { from: e.from, to: e.to, field: e.field, source: e.source, line: e.line };
  return { type: r.canonical, row };
}

export async function createTables(conn: Conn, reg: RelRegistry): Promise<void> {
  await conn.query(NODE_DDL);
  await conn.query(META_DDL);
  for (const t of reg.tables()) await conn.query(relTableDDL(t));
}

const literal = (p: string): string => `'${p.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export async function bulkLoad(conn: Conn, reg: RelRegistry, entities: EntityRecord[], edges: RelationshipRecord[]): Promise<void> {
  const ids = new Set<string>();
  for (const e of entities) {
    if (ids.has(e.id)) throw new CoreError('store-duplicate-id', `rebuild: entity id "${e.id}" appears twice (${e.path ?? 'placeholder'})`);
    ids.add(e.id);
  }
  const byType = new Map<string, EdgeRow[]>();
  for (const e of edges) {
    const { type, row } = canonicalEdge(reg, e);
    for (const end of [row.from, row.to]) {
      if (!ids.has(end)) {
        throw new CoreError('store-dangling-edge', `rebuild: ${e.type} edge ${e.from} -> ${e.to} (${e.source}:${e.line}) refers to "${end}", which is not among the entities (create a placeholder for it)`);
      }
    }
    let list = byType.get(type);
    if (!list) byType.set(type, (list = []));
    list.push(row);
  }
  await createTables(conn, reg);
  const dir = await mkdtemp(join(tmpdir(), 'lorecraft-copy-'));
  try {
    if (entities.length > 0) {
      const f = join(dir, 'entities.json');
      await writeFile(f, JSON.stringify(entities.map(toEntityRow)));
      await conn.query(`COPY Entity FROM ${literal(f)}`);
    }
    let n = 0;
    for (const [type, rows] of byType) {
      const def = reg.get(type);
      const f = join(dir, `rel${n++}.json`);
      await writeFile(f, JSON.stringify(rows));
      await conn.query(`COPY ${ident(type)} FROM ${literal(f)}`);
      if (def?.inverse) {
        const m = join(dir, `rel${n++}.json`);
        await writeFile(m, JSON.stringify(rows.map((r) => ({ ...r, from: r.to, to: r.from }))));
        await conn.query(`COPY ${ident(def.inverse)} FROM ${literal(m)}`);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
