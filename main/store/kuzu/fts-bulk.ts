/**
 * Bulk build of the full-text indexes right after rebuild() loaded a fresh
 * Entity table: the same index Kùzu's CREATE_FTS_INDEX makes, at a fraction
 * of its cost.
 *
 * Why: CREATE_FTS_INDEX (kuzu 0.11.3, extension/fts create_fts_index.cpp) is
 * a rewrite into Cypher that first materialises every token of every
 * document as a row of a temporary node table with a SERIAL key (~1.7M rows
 * for 10k notes of prose: ~1.6 s of its ~2.3 s), then groups them into the
 * index's three tables. Here the tokens are counted in JS instead, while
 * Kùzu is still busy loading the graph (tokenize(), run by rebuild() in
 * short slices once its own JS work is done), and the three tables are
 * COPYed from files in one transaction; Kùzu's own `_CREATE_FTS_INDEX` then
 * registers the index (document count, average length) exactly as at the end
 * of CREATE_FTS_INDEX. The result is the same index: the same rows in the
 * internal docs / terms / appears_in tables, the same scores, maintained by
 * Kùzu on later inserts, updates and deletes (fts-bulk.test.ts compares both
 * builds table by table and query by query, also after updates).
 *
 * What is replicated, from CREATE_FTS_INDEX with the defaults we use
 * (stemmer porter, default English stop words, default ignore pattern):
 * - tokens: `string_split(lower(regexp_replace(text, IGNORE, ' ', 'g')), ' ')`,
 *   empty tokens and stop words (before stemming) dropped, then STEM(t, 'porter');
 *   lower() and STEM() are Kùzu's own (asked once per distinct word), only
 *   ASCII lower-casing is done in JS (identical);
 * - docs: (docID = node offset, len = tokens kept), only documents with a token;
 * - terms: (term, df = documents containing it);
 * - appears_in: term -> doc with tf;
 * - the default stop-word table, created as Kùzu creates it, if missing.
 * Not replicated: the tokenize macro CREATE_FTS_INDEX leaves behind (nothing
 * but CREATE_FTS_INDEX reads it, and it creates it when missing).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { literal } from './bulk.js';
import type { Conn, Row } from './db.js';
import { KUZU_DEFAULT_STOPWORDS } from './fts-stopwords.js';
import { IGNORE, NON_ASCII, STOP, pieces } from './fts-text.js';

export { pieces };

/** marks a token that still needs Kùzu's lower() (it has non-ASCII characters) */
const RAW = '\u0000';

export interface FtsColumn { index: string; column: string }

/** One indexed column's documents: entity id, distinct word ids with their counts, tokens kept so far. */
interface Doc { id: string; words: Int32Array; counts: Int32Array; len: number }

export interface FtsTokens {
  columns: Array<FtsColumn & { docs: Doc[] }>;
  /** distinct words by id: ASCII tokens lower-cased, non-ASCII tokens as written (RAW-prefixed) */
  words: string[];
}

/** Grows an Int32Array to hold index i (zero-filled). */
function fit(a: Int32Array<ArrayBuffer>, i: number): Int32Array<ArrayBuffer> {
  if (i < a.length) return a;
  const b = new Int32Array(Math.max(i + 1, a.length * 2));
  b.set(a);
  return b;
}

/** Sliced work: after `sliceMs` of work, `pause()` (rebuild passes a setImmediate tick). */
export async function tokenize(
  rows: ReadonlyArray<{ id: string }>,
  columns: readonly FtsColumn[],
  pause?: () => Promise<void>,
  sliceMs = 4,
): Promise<FtsTokens> {
  const out: FtsTokens = { columns: columns.map((c) => ({ ...c, docs: [] })), words: [] };
  const ids = new Map<string, number>();
  let seen = new Int32Array(1024);
  const touched: number[] = [];
  let sliceEnd = performance.now() + sliceMs;
  for (const row of rows) {
    for (const col of out.columns) {
      const text = (row as Record<string, unknown>)[col.column];
      if (typeof text !== 'string' || text.length === 0) continue;
      let len = 0;
      for (const piece of pieces(text)) {
        const ascii = !NON_ASCII.test(piece);
        const parts = (ascii ? piece.toLowerCase() : piece).replace(IGNORE, ' ').split(' ');
        for (let t of parts) {
          if (t.length === 0) continue;
          if (!ascii) t = NON_ASCII.test(t) ? RAW + t : t.toLowerCase();
          if (STOP.has(t)) continue;
          let w = ids.get(t);
          if (w === undefined) { w = out.words.length; ids.set(t, w); out.words.push(t); seen = fit(seen, w); }
          if (seen[w]!++ === 0) touched.push(w);
          len++;
        }
      }
      if (touched.length === 0) continue;
      const words = new Int32Array(touched);
      const counts = new Int32Array(words.length);
      for (let i = 0; i < words.length; i++) { counts[i] = seen[words[i]!]!; seen[words[i]!] = 0; }
      touched.length = 0;
      col.docs.push({ id: row.id, words, counts, len });
    }
    if (pause && performance.now() >= sliceEnd) { await pause(); sliceEnd = performance.now() + sliceMs; }
  }
  return out;
}

/**
 * Kùzu's lower() for the non-ASCII words, then Kùzu's STEM(…, 'porter') for every distinct word: per word id,
 * the id of its stem (-1: a stop word once lower-cased) and the stems.
 */
async function kuzuStems(c: Conn, words: string[]): Promise<{ stemOf: Int32Array; stems: string[] }> {
  const lowered: string[] = words.slice();
  const raw: number[] = [];
  for (let i = 0; i < words.length; i++) if (words[i]!.charCodeAt(0) === 0) raw.push(i);
  for (const part of chunks(raw, 20000)) {
    const rows = await c.query('UNWIND range(0, size($w) - 1) AS i RETURN i, lower($w[i + 1]) AS l', { w: part.map((i) => words[i]!.slice(1)) });
    for (const r of rows) lowered[part[Number(r.i)]!] = String(r.l);
  }
  const distinct = [...new Set(lowered)];
  const stemOfWord = new Map<string, string>();
  for (const part of chunks(distinct, 20000)) {
    for (const r of await c.query("UNWIND $w AS w RETURN w, STEM(w, 'porter') AS s", { w: part })) stemOfWord.set(String(r.w), String(r.s));
  }
  const stemIds = new Map<string, number>();
  const stems: string[] = [];
  const stemOf = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const l = lowered[i]!;
    if (words[i]!.charCodeAt(0) === 0 && STOP.has(l)) { stemOf[i] = -1; continue; }
    const s = stemOfWord.get(l);
    if (s === undefined) throw new Error(`fts bulk build: Kùzu returned no stem for '${l}'`);
    let id = stemIds.get(s);
    if (id === undefined) { id = stems.length; stemIds.set(s, id); stems.push(s); }
    stemOf[i] = id;
  }
  return { stemOf, stems };
}

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** CSV with every term quoted (a term may hold a line break or a tab, never a quote or a comma: both are in IGNORE). */
const CSV = "(HEADER=false, DELIM=',', QUOTE='\"', ESCAPE='\"', PARALLEL=false)";

interface IndexFiles { index: string; column: string; docs: string; terms: string; appears: string; empty: boolean }

/** An append-only byte buffer: the CSV files are written without a string per line (478k postings at 10k notes). */
class Bytes {
  private buf = Buffer.allocUnsafe(1 << 16);
  private n = 0;

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const b = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.n + k));
    this.buf.copy(b, 0, 0, this.n);
    this.buf = b;
  }

  raw(b: Uint8Array): void {
    this.room(b.length);
    const buf = this.buf;
    let n = this.n;
    for (let i = 0; i < b.length; i++) buf[n++] = b[i]!;
    this.n = n;
  }

  /** a non-negative integer in decimal, then `end` (an ASCII code) */
  int(v: number, end: number): void {
    this.room(24);
    const buf = this.buf;
    const start = this.n;
    let n = start;
    do { buf[n++] = 48 + (v % 10); v = Math.floor(v / 10); } while (v > 0);
    for (let i = start, j = n - 1; i < j; i++, j--) { const t = buf[i]!; buf[i] = buf[j]!; buf[j] = t; }
    buf[n++] = end;
    this.n = n;
  }

  get empty(): boolean { return this.n === 0; }
  bytes(): Buffer { return this.buf.subarray(0, this.n); }
}

const COMMA = 44;
const NL = 10;

async function writeFiles(dir: string, tokens: FtsTokens, offsets: Map<string, number>, st: { stemOf: Int32Array; stems: string[] }): Promise<IndexFiles[]> {
  const out: IndexFiles[] = [];
  /** `"stem",` in UTF-8 */
  const quoted = st.stems.map((s) => Buffer.from(`"${s}",`));
  const tf = new Int32Array(st.stems.length);
  const touched: number[] = [];
  for (const col of tokens.columns) {
    const docs = new Bytes();
    const posts = new Bytes();
    const df = new Int32Array(st.stems.length);
    for (const d of col.docs) {
      const o = offsets.get(d.id);
      if (o === undefined) throw new Error(`fts bulk build: entity ${d.id} is not in the Entity table`);
      let len = d.len;
      for (let i = 0; i < d.words.length; i++) {
        const s = st.stemOf[d.words[i]!]!;
        const k = d.counts[i]!;
        if (s < 0) { len -= k; continue; }
        if (tf[s] === 0) touched.push(s);
        tf[s]! += k;
      }
      if (len > 0) {
        docs.int(o, COMMA);
        docs.int(len, NL);
        for (const s of touched) {
          df[s]!++;
          posts.raw(quoted[s]!);
          posts.int(o, COMMA);
          posts.int(tf[s]!, NL);
        }
      }
      for (const s of touched) tf[s] = 0;
      touched.length = 0;
    }
    const terms = new Bytes();
    for (let s = 0; s < df.length; s++) if (df[s]! > 0) { terms.raw(quoted[s]!); terms.int(df[s]!, NL); }
    const f = { index: col.index, column: col.column, docs: join(dir, `${col.index}-docs.csv`), terms: join(dir, `${col.index}-terms.csv`), appears: join(dir, `${col.index}-appears.csv`), empty: docs.empty };
    await Promise.all([writeFile(f.docs, docs.bytes()), writeFile(f.terms, terms.bytes()), writeFile(f.appears, posts.bytes())]);
    out.push(f);
  }
  return out;
}

const STOPWORDS_TABLE = 'default_english_stopwords';

/** Kùzu names an FTS index's internal tables `<Entity's table id>_<index>_…`: the prefix for an index. */
export async function internalPrefix(c: Conn): Promise<(index: string) => string> {
  const ids = await c.query("CALL show_tables() WHERE name = 'Entity' RETURN id");
  const id = Number(ids[0]?.id ?? 0);
  return (index) => `${id}_${index}`;
}

/**
 * Build every index of `tokens` on `c` (the write connection, write queue held; none of these
 * indexes may exist yet). On failure everything is rolled back, except an index whose
 * registration failed: the caller drops its partial state (SearchIndex.ensure).
 */
export async function buildFtsBulk(c: Conn, tokens: FtsTokens): Promise<void> {
  const prefix = await internalPrefix(c);
  const offsets = new Map<string, number>();
  for (const r of await c.query('MATCH (e:Entity) RETURN e.id AS id, OFFSET(ID(e)) AS o')) offsets.set(String(r.id), Number(r.o));
  const stems = await kuzuStems(c, tokens.words);
  const dir = await mkdtemp(join(tmpdir(), 'lorecraft-fts-'));
  try {
    const files = await writeFiles(dir, tokens, offsets, stems);
    await c.query('CALL enable_internal_catalog=true');
    try {
      await c.query('BEGIN TRANSACTION');
      try {
        const have: Row[] = await c.query(`CALL show_tables() WHERE name = '${STOPWORDS_TABLE}' RETURN name`);
        if (have.length === 0) {
          await c.query(`CREATE NODE TABLE \`${STOPWORDS_TABLE}\` (sw STRING, PRIMARY KEY(sw))`);
          await c.query(`UNWIND $w AS word CREATE (s:\`${STOPWORDS_TABLE}\` {sw: word})`, { w: [...KUZU_DEFAULT_STOPWORDS] });
        }
        const stmts: string[] = [];
        for (const f of files) {
          const p = prefix(f.index);
          stmts.push(
            `CREATE NODE TABLE \`${p}_docs\` (docID INT64, len UINT64, PRIMARY KEY(docID))`,
            `CREATE NODE TABLE \`${p}_terms\` (term STRING, df UINT64, PRIMARY KEY(term))`,
            `CREATE REL TABLE \`${p}_appears_in\` (FROM \`${p}_terms\` TO \`${p}_docs\`, tf UINT64)`,
          );
          // COPY from an empty file is refused: an index over no text keeps empty tables
          if (!f.empty) stmts.push(`COPY \`${p}_docs\` FROM ${literal(f.docs)} ${CSV}`, `COPY \`${p}_terms\` FROM ${literal(f.terms)} ${CSV}`, `COPY \`${p}_appears_in\` FROM ${literal(f.appears)} ${CSV}`);
        }
        // one statement at a time: a multi-statement query that creates a table and COPYs into it segfaults kuzu 0.11.3
        for (const st of stmts) await c.query(st);
        await c.query('COMMIT');
      } catch (err) {
        try { await c.query('ROLLBACK'); } catch { /* Kùzu already rolled back */ }
        throw err;
      }
      // registration (numDocs, avgDocLen, the index entry): Kùzu's own last step of CREATE_FTS_INDEX
      for (const f of files) {
        await c.query(`CALL _CREATE_FTS_INDEX('Entity', '${f.index}', ['${f.column}'], stemmer := 'porter', stopWords := 'default')`);
      }
    } finally {
      await c.query('CALL enable_internal_catalog=false');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
