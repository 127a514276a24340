/**
 * Entity summaries for traversal and path results, cached per database
 * generation. The graph questions (which entities, which steps) are answered
 * by Kùzu; this only saves converting the same summary rows again (~1,000
 * summaries per 3-hop traversal cost ~10-15 ms of Kùzu lookups + conversion).
 *
 * Contract with the store: every write calls beginWrite() before it touches
 * the database and endWrite() after it settled (also on failure); both clear
 * the cache. A read stores what it fetched only when no write was in flight
 * and none started or ended while it fetched, so a summary read before a
 * write can never outlive it.
 */
import type { EntitySummary } from '../../../shared/types.js';
import type { Conn } from './db.js';
import { entitiesByIds } from './queries.js';
import { rowToSummary, summaryProjection } from './rows.js';

/** Past this many entries the cache is dropped and refilled (memory bound on huge worlds). */
const MAX_ENTRIES = 200_000;

/** Callers own what they get (results travel on to API consumers): never hand out the cached object. */
const copy = (s: EntitySummary): EntitySummary => ({ ...s, tags: [...s.tags] });

export class SummaryCache {
  private readonly byId = new Map<string, EntitySummary>();
  private generation = 0;
  private writing = 0;

  beginWrite(): void {
    this.writing++;
    this.generation++;
    this.byId.clear();
  }

  endWrite(): void {
    this.writing = Math.max(0, this.writing - 1);
    this.generation++;
    this.byId.clear();
  }

  /** A cached summary (a copy), without querying. */
  peek(id: string): EntitySummary | undefined {
    const s = this.byId.get(id);
    return s ? copy(s) : undefined;
  }

  /** Taken before a fetch whose summaries go to put(): null while a write is in flight (nothing may be kept). */
  token(): number | null {
    return this.writing === 0 ? this.generation : null;
  }

  /** Keeps a summary fetched since token() was taken, unless a write started or ended meanwhile. */
  put(token: number | null, s: EntitySummary): void {
    if (token === null || token !== this.generation || this.writing !== 0) return;
    if (this.byId.size >= MAX_ENTRIES) this.byId.clear();
    this.byId.set(s.id, copy(s));
  }

  /** Summaries of `ids` (missing ids are absent from the map), fetching the uncached ones in one batched query. */
  async get(c: Conn, ids: Iterable<string>): Promise<Map<string, EntitySummary>> {
    const out = new Map<string, EntitySummary>();
    const missing: string[] = [];
    for (const id of ids) {
      const s = this.byId.get(id);
      if (s) out.set(id, copy(s));
      else if (!out.has(id)) missing.push(id);
    }
    if (missing.length === 0) return out;
    const gen = this.generation;
    const clean = this.writing === 0;
    const rows = await entitiesByIds(c, missing, summaryProjection('e'));
    const keep = clean && this.writing === 0 && gen === this.generation;
    if (keep && this.byId.size + rows.length > MAX_ENTRIES) this.byId.clear();
    for (const r of rows) {
      const s = rowToSummary(r);
      out.set(s.id, s);
      if (keep) this.byId.set(s.id, copy(s));
    }
    return out;
  }
}
