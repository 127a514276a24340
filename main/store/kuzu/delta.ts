/**
 * applyDelta(): per-row parameterised statements inside ONE write transaction
 * (removals first, then upserts, then edges). Runs on the writer connection,
 * inside the store's write queue. Edges are identified by
 * (from, to, type, field, source); adding an existing edge replaces it.
 */
import type { RelationshipRecord } from '../../../shared/types.js';
import type { GraphDelta } from '../types.js';
import type { Conn, Params } from './db.js';
import { canonicalEdge, type EdgeRow } from './bulk.js';
import { type RelRegistry, ident, relTableDDL } from './rels.js';
import { toEntityRow } from './rows.js';

const UPSERT = `MERGE (e:Entity {id: $id}) SET e.name = $name, e.type = $type, e.layer = $layer, e.path = $path,
  e.hash = $hash, e.tags = coalesce($tags, CAST([] AS STRING[])), e.aliases = coalesce($aliases, CAST([] AS STRING[])), e.props = $props, e.body = $body,
  e.placeholder = $placeholder, e.names_text = $names_text, e.tags_text = $tags_text`;

const delEdge = (t: string): string =>
  `MATCH (a:Entity {id: $from})-[r:${ident(t)}]->(b:Entity {id: $to}) WHERE coalesce(r.field, '') = $field AND r.source = $source DELETE r`;
const addEdge = (t: string, columns: string[]): string =>
  `MATCH (a:Entity {id: $from}), (b:Entity {id: $to}) CREATE (a)-[:${ident(t)} {field: $field, source: $source, line: $line, props: $props${columns.map((c) => `, ${ident(c)}: $c_${c}`).join('')}}]->(b)`;

/** a row's parameters: declared columns as $c_<name> (a column may be named like a base parameter) */
function rowParams(row: EdgeRow): Params {
  const { from, to, field, source, line, props, ...cols } = row;
  const out: Params = { from, to, field, source, line, props };
  for (const [k, v] of Object.entries(cols)) out[`c_${k}`] = v as Params[string];
  return out;
}

/** Register types met for the first time; returns the new ones (their tables must be created before BEGIN). */
export function newTypes(reg: RelRegistry, edges: RelationshipRecord[]): string[] {
  const before = new Set(reg.tables());
  for (const e of edges) canonicalEdge(reg, e);
  return reg.tables().filter((t) => !before.has(t));
}

export async function applyDeltaTx(conn: Conn, reg: RelRegistry, delta: GraphDelta, beforeCommit?: () => Promise<void>): Promise<void> {
  const created = newTypes(reg, [...delta.addEdges, ...delta.removeEdges]);
  for (const t of created) await conn.query(relTableDDL(t, reg.columns(t)));
  await conn.query('BEGIN TRANSACTION');
  try {
    for (const id of delta.removeEntities) {
      await conn.query('MATCH (e:Entity {id: $id}) DETACH DELETE e', { id });
    }
    const edgeOps = async (e: RelationshipRecord, add: boolean): Promise<void> => {
      const { type, row, mirror } = canonicalEdge(reg, e);
      const key = { from: row.from, to: row.to, field: row.field ?? '', source: row.source };
      await conn.query(delEdge(type), key);
      if (mirror) await conn.query(delEdge(mirror.table), { ...key, from: row.to, to: row.from });
      if (!add) return;
      await conn.query(addEdge(type, reg.columns(type).map((c) => c.name)), rowParams(row));
      if (mirror) await conn.query(addEdge(mirror.table, reg.columns(mirror.table).map((c) => c.name)), rowParams(mirror.row));
    };
    for (const e of delta.removeEdges) await edgeOps(e, false);
    for (const ent of delta.upsertEntities) {
      await conn.query(UPSERT, { ...toEntityRow(ent) });
    }
    for (const e of delta.addEdges) await edgeOps(e, true);
    await beforeCommit?.();
    await conn.query('COMMIT');
  } catch (err) {
    // Kùzu rolls back by itself after a failed statement; ROLLBACK then reports "no active transaction".
    try { await conn.query('ROLLBACK'); } catch { /* already rolled back */ }
    throw err;
  }
}
