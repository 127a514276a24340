/**
 * The store's own record: a few keys ('fingerprint', 'rels', 'generation') kept in the database with the graph,
 * written in the same transaction as the data they describe.
 *
 * Kept as the Entity table's comment (`COMMENT ON TABLE`), a JSON object in base64, not in a node table of its own:
 * kuzu 0.11.3 holds ~6 MB of memory for every node table of an open database, whatever its rows (measured: an empty
 * database opened at +6 MB, one with 8 one-row node tables at +52 MB; relationship tables cost next to nothing),
 * so a three-row Meta table cost the web shell ~6 MB of its resident memory (issue 15 point 6). A comment is part
 * of Kùzu's catalog: a ROLLBACK restores it and a COMMIT keeps it with the rows (meta.test.ts).
 */
import type { Conn } from './db.js';

export type StoreMeta = Partial<Record<'fingerprint' | 'rels' | 'generation', string>>;

/** The record as committed (or as written so far in the open transaction); {} when there is none. */
export async function readMeta(c: Conn): Promise<StoreMeta> {
  const rows = await c.query("CALL show_tables() WHERE name = 'Entity' RETURN comment AS c");
  const text = rows[0]?.c;
  if (typeof text !== 'string' || text === '') return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: StoreMeta = {};
    for (const k of ['fingerprint', 'rels', 'generation'] as const) {
      const v = (parsed as Record<string, unknown>)[k];
      if (typeof v === 'string') out[k] = v;
    }
    return out;
  } catch {
    return {}; // not ours (a comment written by someone else): no record, so the graph is rebuilt
  }
}

/** Set these keys of the record (the others kept), in the caller's transaction. */
export async function setMeta(c: Conn, values: StoreMeta): Promise<void> {
  const next = { ...(await readMeta(c)), ...values };
  // base64: nothing in it needs escaping in a Cypher string literal
  const text = Buffer.from(JSON.stringify(next), 'utf8').toString('base64');
  await c.query(`COMMENT ON TABLE Entity IS '${text}'`);
}
