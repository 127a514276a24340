/**
 * Entity importance: PageRank over every relationship table (typed and body
 * links, in their stored direction), by Kùzu's algo extension, which is
 * statically linked in kuzu 0.11 (no INSTALL, works offline). Runs on Kùzu's
 * thread pool: the caller's event loop is free while it computes.
 */
import type { Conn } from './db.js';
import { ident, type RelRegistry } from './rels.js';

let seq = 0;

/** Entity id -> PageRank (sums to ~1 over the graph); empty for an empty graph. */
export async function pageRank(c: Conn, reg: RelRegistry): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const tables = reg.names().map((t) => ident(t));
  // a projected graph lives in the connection's catalog: a unique name, always dropped
  const g = `lc_rank_${process.pid}_${++seq}`;
  await c.query(`CALL project_graph('${g}', ['Entity'], [${tables.map((t) => `'${t.replace(/`/g, '')}'`).join(', ')}])`);
  try {
    const rows = await c.query(`CALL page_rank('${g}') RETURN node.id AS id, rank`);
    for (const r of rows) if (typeof r.id === 'string') out.set(r.id, Number(r.rank));
  } finally {
    await c.query(`CALL drop_projected_graph('${g}')`);
  }
  return out;
}
