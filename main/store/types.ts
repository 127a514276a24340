/**
 * The one store interface the rest of the core uses. Kùzu (main/store/kuzu/*)
 * is its only implementation; nothing outside main/store imports 'kuzu'.
 * All writes are serialised through one queue inside the implementation.
 */
import type {
  EntityRecord, EntitySummary, PathResult, RelationshipRecord, SearchHit, Traversal,
} from '../../shared/types.js';
import type { Schema } from '../config/types.js';
import type { Direction, ListFilter } from '../domain/types.js';

/**
 * A note body longer than this (characters) is not stored whole: the store keeps a shortened text that
 * search finds the same words in (store/kuzu/fts-text.ts storedBody), and the sync engine lets the body
 * leave memory as soon as the graph holds it (sync/body.ts: it is read from the file when asked for).
 */
export const HUGE_BODY_CHARS = 1 << 20;

/** A change to apply to the graph. Removals are applied before upserts. */
export interface GraphDelta {
  /** entity ids to remove (with all their edges) */
  removeEntities: string[];
  /** full records; an existing id is replaced (its edges are kept unless listed in removeEdges) */
  upsertEntities: EntityRecord[];
  removeEdges: RelationshipRecord[];
  addEdges: RelationshipRecord[];
}

export interface GraphCounts { entities: number; relationships: number; placeholders: number }

/**
 * A rebuild fed in two steps, so the store copies the first entities while the caller computes the rest
 * (the sync engine: the notes' records, then the model's references). The store is held (no reads, no
 * writes) until finish() or abort() settles; the caller must call one of them.
 */
export interface RebuildSession {
  /** Synchronous: these entities start loading now, in the background. They must not change afterwards. */
  copyEntities(entities: readonly EntityRecord[]): void;
  /** The other entities (one handed over may be listed again: as the same object) and every edge; resolves once queryable. */
  finish(entities: Iterable<EntityRecord>, edges: RelationshipRecord[]): Promise<void>;
  /** Nothing is loaded (the graph is left empty, as after a failed rebuild). */
  abort(): Promise<void>;
}

/**
 * Bounds of one read-only Cypher query. timeoutMs (default LORECRAFT_QUERY_TIMEOUT_MS, else 5000):
 * Kùzu stops the query there, CoreError('timeout'). signal: an abort rejects at once with
 * CoreError('cancelled'), and a query still waiting for the connection never starts; one already
 * running stops at its timeout (kuzu 0.11.3's Node binding has no interrupt()).
 */
export interface CypherOptions { timeoutMs?: number; signal?: AbortSignal }

export interface GraphStore {
  /**
   * Open (creating if needed). Returns false when the stored fingerprint differs from `fingerprint` (caller rebuilds).
   * `after`: the database is opened once it settles (an interactive cold open builds its model first, the
   * database's opening would compete with the read for the CPU); every call made meanwhile waits for the open.
   */
  open(schema: Schema, fingerprint: string, opts?: { after?: PromiseLike<unknown> }): Promise<boolean>;
  /** Drop everything and bulk-load (COPY FROM). The graph is queryable when this resolves. */
  rebuild(entities: EntityRecord[], edges: RelationshipRecord[]): Promise<void>;
  /**
   * A rebuild in two steps (RebuildSession), offered only while the store is empty as open() created it
   * (else null: rebuild() checks the records before dropping anything).
   */
  beginRebuild(): Promise<RebuildSession | null>;
  /** Build/refresh the full-text index (may be called after rebuild, off the critical path). */
  ensureSearchIndex(): Promise<void>;
  applyDelta(delta: GraphDelta): Promise<void>;
  /** path -> hash of every stored non-placeholder entity (for incremental sync at start-up) */
  storedHashes(): Promise<Map<string, string>>;
  /**
   * The store's write generation: a token kept in the store that a write changing entities or edges replaces in
   * its own transaction (every rebuild; a delta when the token was asked for since it was last replaced, so that
   * no token anyone was given survives a later write). Two equal tokens mean nothing was written in between,
   * so the stored hashes are those seen when the token was read (the model snapshot records it: a warm open
   * whose snapshot and store carry the same token need not read storedHashes()). null: not known (a write
   * is running, failed, or the store does not keep one); a null never equals anything.
   */
  generation(): string | null;
  /** the stored record; the body of a note over 1 MiB is stored shortened (kuzu/fts-text.ts): the model has the note's own */
  getEntity(id: string): Promise<EntityRecord | null>;
  /** edges touching id, both directions, canonical type names */
  edgesOf(id: string): Promise<RelationshipRecord[]>;
  list(filter: ListFilter): Promise<{ items: EntitySummary[]; total: number }>;
  neighbours(id: string, opts: { depth: number; type?: string; direction: Direction }): Promise<Traversal>;
  shortestPath(fromId: string, toId: string, maxDepth: number): Promise<PathResult | null>;
  search(text: string, opts: { layer?: string; type?: string; limit: number }): Promise<SearchHit[]>;
  /** the number of entities search() would rank with no limit (same filters) */
  searchCount(text: string, opts: { layer?: string; type?: string }): Promise<number>;
  /** read-only Cypher; throws CoreError('cypher-refused') for anything that writes or loads */
  cypher(query: string, params?: Record<string, unknown>, opts?: CypherOptions): Promise<Record<string, unknown>[]>;
  counts(): Promise<GraphCounts>;
  /** entity id -> PageRank over every relationship (Kùzu algo extension; canvas node importance) */
  pageRank(): Promise<Map<string, number>>;
  /** every entity summary and edge (canvas) */
  snapshot(filter?: { layer?: string }): Promise<{ nodes: EntitySummary[]; edges: RelationshipRecord[] }>;
  close(): Promise<void>;
}
