/**
 * Full-text search on Kùzu's FTS extension. Three indexes over Entity:
 * fts_names (name + aliases), fts_tags, fts_body. Each is queried separately;
 * a field's BM25 score is normalised to (0.5, 1] against the best score of
 * that field for this query, then weighted names 10, tags 3, body 1. So any
 * name/alias match outranks any tag-only match (≥5 vs ≤4), which outranks
 * any body-only match (≥1.5 vs ≤1); within a tier BM25 decides.
 *
 * Kùzu 0.11.3 maintains FTS indexes on insert, update and delete (tested in
 * kuzu-store.search.test.ts), so applyDelta needs no extra bookkeeping; only
 * rebuild() (a fresh database) drops them. After a rebuild they are built in
 * bulk from tokens counted while the graph loaded (fts-bulk.ts: the same
 * index, ~2.5x faster); otherwise, or if that fails, by CREATE_FTS_INDEX.
 */
import type { EntitySummary, SearchHit } from '../../../shared/types.js';
import { type Conn, type Params, type Row, allSettled } from './db.js';
import { type FtsColumn, type FtsTokens, buildFtsBulk, internalPrefix } from './fts-bulk.js';
import { storedBodyText } from './fts-text.js';
import { replaceLinks } from '../../../shared/wikilinks.js';
import { entitiesByIds } from './queries.js';
import { rowToSummary, summaryProjection } from './rows.js';
import type { SummaryCache } from './summaries.js';

const INDEXES = [
  { name: 'fts_names', column: 'names_text', weight: 10 },
  { name: 'fts_tags', column: 'tags_text', weight: 3 },
  { name: 'fts_body', column: 'body', weight: 1 },
] as const;

/** The indexed columns, for the bulk build's tokenizer (fts-bulk.ts). */
export const FTS_COLUMNS: readonly FtsColumn[] = INDEXES.map((i) => ({ index: i.name, column: i.column }));

/** Drop the internal tables/macro a failed CREATE_FTS_INDEX may have left (Entity is table 0, but match any id). */
async function dropPartial(c: Conn, index: string): Promise<void> {
  const prefix = (await internalPrefix(c))(index);
  // the index's tables are internal: invisible to DROP unless the internal catalog is enabled
  await c.query('CALL enable_internal_catalog=true');
  try {
    for (const t of ['appears_in', 'appears_info', 'docs', 'terms', 'stopwords']) {
      await c.query(`DROP TABLE IF EXISTS \`${prefix}_${t}\``);
    }
  } finally {
    await c.query('CALL enable_internal_catalog=false');
  }
}

type Field = (typeof INDEXES)[number]['name'];

interface Cand {
  entity: EntitySummary;
  name: string;
  aliases: string[];
  body: string;
  parts: Map<Field, number>;
  score: number;
}

export class SearchIndex {
  private ready = false;
  /** how this process last built the indexes (null: it did not; tests and diagnostics) */
  builtBy: 'bulk' | 'create_fts_index' | null = null;

  get isReady(): boolean {
    return this.ready;
  }

  reset(): void {
    this.ready = false;
  }

  /** After open(): are the indexes already in the database? */
  async detect(c: Conn): Promise<void> {
    const rows = await c.query('CALL show_indexes() RETURN index_name AS n');
    const have = new Set(rows.map((r) => String(r.n)));
    this.ready = INDEXES.every((i) => have.has(i.name));
  }

  /**
   * Create whichever index is missing (write connection, write queue).
   * CREATE_FTS_INDEX runs as several auto-committed statements; when one
   * fails (e.g. its checkpoint times out waiting for a concurrent read) it
   * leaves internal tables behind that make every later attempt fail with
   * "Table ... already exists". So a failed attempt drops its partial state
   * and tries once more (leftovers may also come from an earlier session);
   * a second failure drops its partial state too before rethrowing. (The
   * build forces a checkpoint, which fails when a reader stays active too
   * long: the store then retries with reads held back.)
   */
  async ensure(c: Conn, tokens?: FtsTokens): Promise<void> {
    if (this.ready) return;
    const rows = await c.query('CALL show_indexes() RETURN index_name AS n');
    const have = new Set(rows.map((r) => String(r.n)));
    if (tokens && have.size === 0) {
      // right after a bulk load: the same indexes from tokens counted while the graph loaded (fts-bulk.ts)
      try {
        await buildFtsBulk(c, tokens);
        this.ready = true;
        this.builtBy = 'bulk';
        return;
      } catch {
        // whatever it left (an index registered, tables of one that was not): start over the standard way
        const left = new Set((await c.query('CALL show_indexes() RETURN index_name AS n')).map((r) => String(r.n)));
        for (const i of INDEXES) if (left.has(i.name)) await c.query(`CALL DROP_FTS_INDEX('Entity', '${i.name}')`);
        for (const i of INDEXES) await dropPartial(c, i.name);
      }
    }
    for (const i of INDEXES) {
      if (have.has(i.name)) continue;
      const create = (): Promise<unknown> => c.query(`CALL CREATE_FTS_INDEX('Entity', '${i.name}', ['${i.column}'], stemmer := 'porter')`);
      try {
        await create();
      } catch {
        // leftovers of an earlier failed build ("already exists") or this attempt's own partial state
        await dropPartial(c, i.name);
        try {
          await create();
        } catch (err) {
          await dropPartial(c, i.name).catch(() => undefined);
          throw err;
        }
      }
    }
    this.ready = true;
    this.builtBy = 'create_fts_index';
  }

  /**
   * How many entities search() would rank with no limit: the distinct ids any index matches under
   * the same filters (ids only, no scores or details). search() itself reads a bounded top per index.
   */
  async count(c: Conn, text: string, opts: { layer?: string; type?: string }): Promise<number> {
    const terms = queryTerms(text);
    if (terms.length === 0) return 0;
    const where = ['e.placeholder = false'];
    const p: Params = { q: terms.join(' ') };
    if (opts.layer !== undefined) { where.push('e.layer = $layer'); p.layer = opts.layer; }
    if (opts.type !== undefined) { where.push('e.type = $type'); p.type = opts.type; }
    const ids = new Set<string>();
    for (const idx of INDEXES) {
      const rows = await c.query(`CALL QUERY_FTS_INDEX('Entity', '${idx.name}', $q) WITH node AS e WHERE ${where.join(' AND ')} RETURN e.id AS id`, p);
      for (const r of rows) ids.add(String(r.id));
    }
    return ids.size;
  }

  /**
   * `also`: a second read connection, idle for the duration of the call: the body index (the costly one,
   * ~2/3 of the index time) is then queried on it while names and tags run on `c`. `cache`: the store's
   * summary cache (read and filled here).
   */
  async search(c: Conn, text: string, opts: { layer?: string; type?: string; limit: number }, also?: Conn, cache?: SummaryCache): Promise<SearchHit[]> {
    const terms = queryTerms(text);
    if (terms.length === 0) return [];
    const limit = Math.max(1, Math.min(500, Math.floor(opts.limit || 20)));
    const where = ['e.placeholder = false'];
    const p: Params = { q: terms.join(' ') };
    if (opts.layer !== undefined) { where.push('e.layer = $layer'); p.layer = opts.layer; }
    if (opts.type !== undefined) { where.push('e.type = $type'); p.type = opts.type; }
    const perIndex = limit * 3 + 20;
    // Not `top := perIndex` (a bounded heap while scoring, ~1.5 ms less on the body index at 10k): in kuzu
    // 0.11.3 its top documents differ from ORDER BY score LIMIT's beyond ties (measured), so hits would change.
    const query = (idx: (typeof INDEXES)[number]): string =>
      `CALL QUERY_FTS_INDEX('Entity', '${idx.name}', $q) WITH node AS e, score WHERE ${where.join(' AND ')}
         RETURN e.id AS id, score ORDER BY score DESC LIMIT ${perIndex}`;
    // Per index: ids and scores only (result conversion is the main cost); details for the final hits in one query.
    const [names, tags, body] = INDEXES;
    const [nameRows, tagRows, bodyRows] = also
      ? await allSettled<[readonly [Row[], Row[]], Row[]]>([c.query(query(names), p).then(async (n) => [n, await c.query(query(tags), p)] as const), also.query(query(body), p)])
        .then(([[n, t], b]) => [n, t, b] as const)
      : [await c.query(query(names), p), await c.query(query(tags), p), await c.query(query(body), p)];
    const scores = new Map<string, Map<Field, number>>();
    for (const [idx, rows] of [[names, nameRows], [tags, tagRows], [body, bodyRows]] as const) {
      const best = rows.length ? Number(rows[0]?.score) || 1 : 1;
      for (const r of rows) {
        const id = String(r.id);
        let parts = scores.get(id);
        if (!parts) scores.set(id, (parts = new Map()));
        parts.set(idx.name, idx.weight * (0.5 + 0.5 * (Number(r.score) / best)));
      }
    }
    const total = (m: Map<Field, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
    const top = [...scores.entries()].map(([id, parts]) => ({ id, parts, score: total(parts) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
    if (top.length === 0) return [];
    // Reading a column costs per column (~0.4-2 ms for 20 rows at 10k): fetch only what the hits need. Summaries
    // come from the traversal cache when it has them all; aliases only for name hits, the body only for body hits.
    const best = new Map(top.map((t) => [t.id, bestField(t.parts)]));
    const cached = cache ? top.map((t) => cache.peek(t.id)) : [];
    const fromCache = cache !== undefined && cached.every((x) => x !== undefined);
    const token = cache?.token() ?? null;
    const cols = [fromCache ? 'e.id AS id' : summaryProjection('e')];
    if ([...best.values()].includes('fts_names')) cols.push('e.aliases AS aliases');
    if ([...best.values()].includes('fts_body')) cols.push('e.body AS body');
    const rows = await entitiesByIds(c, top.map((t) => t.id), cols.join(', '));
    const detail = new Map(rows.map((r) => [String(r.id), r]));
    const hits: SearchHit[] = [];
    for (const [i, t] of top.entries()) {
      const r = detail.get(t.id);
      if (!r) continue;
      const entity = fromCache ? cached[i] as EntitySummary : rowToSummary(r);
      if (!fromCache) cache?.put(token, entity);
      const aliases = Array.isArray(r.aliases) ? r.aliases.map(String) : [];
      hits.push(toHit({ entity, name: entity.name, aliases, body: typeof r.body === 'string' ? r.body : '', parts: t.parts, score: t.score }, terms));
    }
    return hits;
  }
}

/** Lower-case word terms of the query (FTS query syntax is not exposed to users). */
export function queryTerms(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

/** Crude English stem so the JS highlighter agrees with the porter-stemmed index on common forms. */
function stem(w: string): string {
  return w.toLowerCase().replace(/(ies|es|s|ed|ing|ly)$/u, '') || w.toLowerCase();
}

function wordMatches(word: string, terms: string[]): boolean {
  const s = stem(word);
  return terms.some((t) => { const ts = stem(t); return s === ts || (ts.length >= 3 && s.startsWith(ts)); });
}

/** Wrap matched words of `text` in « ». */
export function mark(text: string, terms: string[]): string {
  return text.replace(/[\p{L}\p{N}]+/gu, (w) => (wordMatches(w, terms) ? `«${w}»` : w));
}

const SNIPPET = 160;

/** `[[Target|label]]` -> label, `[[folder/Target#Heading]]` -> Target: a snippet shows links as the words they read as. */
export function linksAsText(text: string): string {
  return replaceLinks(text, (l, _embed, all, inner) => (l ? (l.label ?? l.name) : inner.replace(/\\?\|.*$/, '').replace(/#/g, ' ').trim() || all));
}

/** A window of the body around its first matched word, with matches marked. */
export function bodySnippet(body: string, terms: string[]): string | null {
  const flat = linksAsText(body).replace(/\s+/g, ' ').trim();
  const re = /[\p{L}\p{N}]+/gu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(flat)) !== null) {
    if (!wordMatches(m[0], terms)) continue;
    let start = Math.max(0, m.index - SNIPPET / 3);
    if (start > 0) { const sp = flat.indexOf(' ', start); start = sp >= 0 && sp < m.index ? sp + 1 : start; }
    let end = Math.min(flat.length, start + SNIPPET);
    if (end < flat.length) { const sp = flat.lastIndexOf(' ', end); end = sp > m.index ? sp : end; }
    return (start > 0 ? '…' : '') + mark(flat.slice(start, end), terms) + (end < flat.length ? '…' : '');
  }
  return null;
}

/** `… «word» …` for the first word of `words` (a huge note's distinct words) that matches, or null. */
function wordsSnippet(words: string, terms: string[]): string | null {
  const w = (words.match(/[\p{L}\p{N}]+/gu) ?? []).find((x) => wordMatches(x, terms));
  return w === undefined ? null : `… «${w}» …`;
}

/** The field whose weighted score is highest: it decides `matched` and the snippet. */
function bestField(parts: Map<Field, number>): Field {
  let best: Field = 'fts_body';
  let bestPart = -1;
  for (const [f, v] of parts) if (v > bestPart) { bestPart = v; best = f; }
  return best;
}

function toHit(c: Cand, terms: string[]): SearchHit {
  const best = bestField(c.parts);
  let matched: SearchHit['matched'] = 'body';
  let snippet: string;
  let alias: string | undefined;
  if (best === 'fts_names') {
    const nameHit = c.name.match(/[\p{L}\p{N}]+/gu)?.some((w) => wordMatches(w, terms)) ?? false;
    alias = nameHit ? undefined : c.aliases.find((a) => a.match(/[\p{L}\p{N}]+/gu)?.some((w) => wordMatches(w, terms)));
    matched = alias !== undefined ? 'alias' : 'name';
    snippet = alias !== undefined ? `${c.name} (${mark(alias, terms)})` : mark(c.name, terms);
  } else if (best === 'fts_tags') {
    matched = 'tag';
    snippet = c.entity.tags.map((t) => '#' + mark(t, terms)).join(' ');
  } else {
    // a huge note's stored body is its prefix and its other words (fts-text.ts): the snippet shows the prefix, or
    // the matched word alone when only the rest of the note has it
    const { text, shortened } = storedBodyText(c.body);
    snippet = bodySnippet(text, terms) ?? (shortened ? wordsSnippet(c.body.slice(text.length), terms) : null)
      ?? linksAsText(text).replace(/\s+/g, ' ').trim().slice(0, SNIPPET);
  }
  const hit: SearchHit = { entity: c.entity, score: Math.round(c.score * 1000) / 1000, snippet, matched };
  if (alias !== undefined) hit.alias = alias;
  return hit;
}
