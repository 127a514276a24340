/**
 * Bulk load for rebuild(): BulkLoad creates the tables and COPYs every file
 * inside ONE transaction (per-COPY commits cost ~50-150 ms each; DDL + all
 * COPYs in one transaction measured ~0.4 s for 10k nodes + 50k edges, versus
 * ~0.8 s with auto-commit). Kùzu copies on its own thread while JS goes on:
 * - copyEntities() writes a batch synchronously and starts its COPY at once,
 *   so it runs while the caller keeps the main thread (the sync engine hands
 *   over the notes' records before the model resolves references);
 * - finish() writes the remaining Entity rows in chunks (chunk k+1's JSON
 *   while Kùzu copies chunk k; COPY into the non-empty table measured as
 *   fast), the edge files while the last Entity COPY runs, then COPYs the
 *   edges and commits.
 * One statement is in flight on the connection at any time. JSON needs no
 * CSV quoting rules for commas, quotes, newlines or unicode, and loads lists
 * natively (CSV measured no faster for the edge tables).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityRecord, RelationshipRecord } from '../../../shared/types.js';
import { CoreError } from '../../domain/errors.js';
import type { Conn } from './db.js';
import { NODE_DDL, RelRegistry, columnValue, ident, relTableDDL } from './rels.js';
import { type EntityRow, toEntityRow } from './rows.js';

/** A REL table row: the base columns, `props` (JSON or null) and one key per declared property column. */
export type EdgeRow = { from: string; to: string; field: string | null; source: string; line: number; props: string | null } & Record<string, unknown>;

/** the row of `e` in `table`, holding `props` (the relationship's own properties, or none on this side) */
function rowFor(reg: RelRegistry, table: string, from: string, to: string, e: RelationshipRecord, props: Record<string, unknown> | undefined): EdgeRow {
  const row: EdgeRow = { from, to, field: e.field, source: e.source, line: e.line, props: props ? JSON.stringify(props) : null };
  for (const c of reg.columns(table)) row[c.name] = columnValue(props?.[c.name], c.type);
  return row;
}

/**
 * Map an edge to its canonical table (an inverse name is flipped to the canonical direction; an unknown type is
 * registered as a directed type), and give its mirror row. The relationship's properties go on the row of the
 * direction they were written in — the mirror's when written under the inverse name — never on both.
 */
export function canonicalEdge(reg: RelRegistry, e: RelationshipRecord): { type: string; row: EdgeRow; mirror: { table: string; row: EdgeRow } | null } {
  let r = reg.resolve(e.type);
  if (!r) {
    reg.add({ name: e.type, symmetric: false });
    r = { canonical: e.type, inverted: false };
  }
  const [from, to] = r.inverted ? [e.to, e.from] : [e.from, e.to];
  const [own, other] = r.inverted ? [e.inverseProperties, e.properties] : [e.properties, e.inverseProperties];
  const inv = reg.get(r.canonical)?.inverse;
  // a type without a mirror table (symmetric) keeps both sides' properties on its one row
  const row = rowFor(reg, r.canonical, from, to, e, inv || !other ? own : { ...other, ...own });
  const mirror = inv ? { table: inv, row: rowFor(reg, inv, to, from, e, other) } : null;
  return { type: r.canonical, row, mirror };
}

/**
 * Every edge as a row of its canonical table, grouped by table, in order of first appearance; a type with an
 * inverse is followed by its mirror table with the same rows flipped. `each` sees every edge with its row.
 */
export function edgeTables(reg: RelRegistry, edges: Iterable<RelationshipRecord>, each?: (e: RelationshipRecord, row: EdgeRow) => void): Array<{ table: string; rows: EdgeRow[] }> {
  const byType = new Map<string, { rows: EdgeRow[]; mirror: EdgeRow[] }>();
  for (const e of edges) {
    const { type, row, mirror } = canonicalEdge(reg, e);
    each?.(e, row);
    let list = byType.get(type);
    if (!list) byType.set(type, (list = { rows: [], mirror: [] }));
    list.rows.push(row);
    if (mirror) list.mirror.push(mirror.row);
  }
  const out: Array<{ table: string; rows: EdgeRow[] }> = [];
  for (const [type, { rows, mirror }] of byType) {
    out.push({ table: type, rows });
    const inv = reg.get(type)?.inverse;
    if (inv) out.push({ table: inv, rows: mirror });
  }
  return out;
}

export async function createTables(conn: Conn, reg: RelRegistry): Promise<void> {
  await conn.query(NODE_DDL);
  for (const t of reg.tables()) await conn.query(relTableDDL(t, reg.columns(t)));
}

/** A file path as a Cypher string literal (quotes and backslashes escaped: a temp dir may hold either). */
export const literal = (p: string): string => `'${p.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * Checks a rebuild's records before anything is written: unique ids, and every edge between
 * two of the entities. `reg` is not changed.
 */
export function validateBulk(reg: RelRegistry, entities: readonly EntityRecord[], edges: readonly RelationshipRecord[]): void {
  const scratch = RelRegistry.fromJSON(reg.toJSON());
  const ids = new Set<string>();
  for (const e of entities) {
    if (ids.has(e.id)) throw duplicateId(e);
    ids.add(e.id);
  }
  for (const e of edges) checkEnds(e, canonicalEdge(scratch, e).row, ids);
}

const duplicateId = (e: EntityRecord): CoreError =>
  new CoreError('store-duplicate-id', `rebuild: entity id "${e.id}" appears twice (${e.path ?? 'placeholder'})`);

function checkEnds(e: RelationshipRecord, row: EdgeRow, ids: { has(id: string): boolean }): void {
  for (const end of [row.from, row.to]) {
    if (!ids.has(end)) {
      throw new CoreError('store-dangling-edge', `rebuild: ${e.type} edge ${e.from} -> ${e.to} (${e.source}:${e.line}) refers to "${end}", which is not among the entities (create a placeholder for it)`);
    }
  }
}

/** Entity chunks close at this much prose or this many rows: the first COPY starts early, later ones overlap the next chunk's JSON. */
const CHUNK_BODY_CHARS = 2_000_000;
const CHUNK_ROWS = 2500;

function* entityChunks(entities: EntityRecord[]): Generator<EntityRecord[]> {
  let start = 0;
  let chars = 0;
  for (let i = 0; i < entities.length; i++) {
    chars += entities[i]!.body.length;
    if (chars >= CHUNK_BODY_CHARS || i + 1 - start >= CHUNK_ROWS) {
      yield entities.slice(start, i + 1);
      start = i + 1;
      chars = 0;
    }
  }
  if (start < entities.length) yield entities.slice(start);
}

/**
 * Rows per synchronous step of finish()'s row building and JSON: between steps the event loop runs, so a process
 * that serves pages while its opening load runs (the web shell) answers their first calls within a step instead
 * of after a whole chunk (2,500 rows: 100-300 ms of one turn on a loaded machine; issue 19 point 2).
 */
export const STEP_ROWS = 250;
const turn = (): Promise<void> => new Promise((ok) => setImmediate(ok));

/** JSON.stringify(rows), the same text, built `step` rows per turn of the event loop. */
export async function jsonInSteps(rows: readonly unknown[], step = STEP_ROWS): Promise<string> {
  if (rows.length <= step) return JSON.stringify(rows);
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i += step) {
    if (i > 0) await turn();
    parts.push(JSON.stringify(rows.slice(i, i + step)).slice(1, -1));
  }
  return `[${parts.join(',')}]`;
}

export const copyStmt = (table: string, file: string): string => `COPY ${table === 'Entity' ? 'Entity' : ident(table)} FROM ${literal(file)}`;
const noop = (): void => undefined;

/** One bulk load, one transaction: begin(), then copyEntities() any number of times, then finish() or abort(); dispose() at the end. */
export class BulkLoad {
  /** the Entity rows in COPY order (the full-text tokenizer reads them) */
  readonly rows: EntityRow[] = [];
  private readonly copied = new Map<string, EntityRecord>();
  private inflight: Promise<unknown> = Promise.resolve();
  private outstanding = 0;
  private dir = '';
  private files = 0;
  private failure: unknown = null;
  private open = false;

  constructor(private readonly conn: Conn, private readonly reg: RelRegistry) {}

  async begin(): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), 'lorecraft-copy-'));
    await this.conn.query('BEGIN TRANSACTION');
    this.open = true;
    await createTables(this.conn, this.reg);
  }

  /**
   * Synchronous: the batch's JSON is written now and its COPY starts at once (or right after the one in
   * flight). A failure is kept and thrown by finish(); the records must not change afterwards (finish()
   * checks they are the same objects).
   */
  copyEntities(entities: readonly EntityRecord[]): void {
    if (this.failure !== null || entities.length === 0) return;
    try {
      const rows = this.take(entities);
      const file = this.nextFile();
      writeFileSync(file, JSON.stringify(rows));
      this.queue(copyStmt('Entity', file));
    } catch (err) {
      this.failure = err;
    }
  }

  /**
   * Copy `entities` not handed over yet (one already copied must be the very same record) and every edge,
   * run `meta` (in the transaction), COMMIT. `idle` is called while Kùzu runs the COMMIT, the one step with
   * no JS continuation waiting on the main thread (work started earlier held up every COPY's continuation).
   */
  async finish(entities: Iterable<EntityRecord>, edges: readonly RelationshipRecord[], meta: () => Promise<void>, idle?: () => void): Promise<void> {
    if (this.failure !== null) throw this.failure;
    const rest: EntityRecord[] = [];
    const ids = new Set<string>(this.copied.keys());
    for (const e of entities) {
      const c = this.copied.get(e.id);
      if (c === undefined) {
        if (ids.has(e.id)) throw duplicateId(e);
        ids.add(e.id);
        rest.push(e);
      } else if (c !== e) {
        throw new CoreError('store-rebuild-changed', `rebuild: entity ${e.id} changed after it was handed over for copying`);
      }
    }
    const tablesBefore = new Set(this.reg.tables());
    const tables = edgeTables(this.reg, edges, (e, row) => checkEnds(e, row, ids));
    // relationship types met only now (not in the schema) get their tables in this transaction
    for (const t of this.reg.tables()) if (!tablesBefore.has(t)) this.queue(relTableDDL(t, this.reg.columns(t)));
    for (const chunk of entityChunks(rest)) this.queue(copyStmt('Entity', await this.putRows(await this.takeInSteps(chunk))));
    const edgeFiles: Array<{ table: string; file: string }> = [];
    for (const { table, rows } of tables) edgeFiles.push({ table, file: await this.putRows(rows) });
    await this.inflight;
    // one COPY per statement: several COPYs in one multi-statement query segfault kuzu 0.11.3
    for (const { table, file } of edgeFiles) await this.conn.query(copyStmt(table, file));
    await meta();
    const commit = this.conn.query('COMMIT');
    this.open = false;
    idle?.();
    await commit;
  }

  /** Roll back (after the statement in flight, if any). */
  async abort(): Promise<void> {
    await this.inflight.catch(noop);
    if (!this.open) return;
    this.open = false;
    try { await this.conn.query('ROLLBACK'); } catch { /* Kùzu already rolled back */ }
  }

  async dispose(): Promise<void> {
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }

  private take(entities: readonly EntityRecord[]): EntityRow[] {
    const rows: EntityRow[] = [];
    for (const e of entities) {
      if (this.copied.has(e.id)) throw duplicateId(e);
      this.copied.set(e.id, e);
      const r = toEntityRow(e);
      rows.push(r);
      this.rows.push(r);
    }
    return rows;
  }

  /** take(), STEP_ROWS records per turn of the event loop */
  private async takeInSteps(entities: readonly EntityRecord[]): Promise<EntityRow[]> {
    if (entities.length <= STEP_ROWS) return this.take(entities);
    const rows: EntityRow[] = [];
    for (let i = 0; i < entities.length; i += STEP_ROWS) {
      if (i > 0) await turn();
      for (const r of this.take(entities.slice(i, i + STEP_ROWS))) rows.push(r);
    }
    return rows;
  }

  private nextFile(): string {
    return join(this.dir, `${this.files++}.json`);
  }

  private async putRows(rows: unknown[]): Promise<string> {
    const file = this.nextFile();
    await writeFile(file, await jsonInSteps(rows));
    return file;
  }

  /** Start `stmt` now if nothing is outstanding, else right after the last one queued; never two at once. */
  private queue(stmt: string): void {
    const start = (): Promise<unknown> => this.conn.query(stmt);
    const p = this.outstanding === 0 ? start() : this.inflight.then(start);
    this.outstanding++;
    this.inflight = p.finally(() => { this.outstanding--; });
    this.inflight.catch(noop);
  }
}
