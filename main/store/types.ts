/**
 * The one store interface the rest of the core uses. Kùzu (main/store/kuzu/*)
 * is its only implementation; nothing outside main/store imports 'kuzu'.
 * All writes are serialised through one queue inside the implementation.
 */
import type {
  EntityRecord, EntitySummary, PathResult, RelationshipRecord, SearchHit, Traversal,
} from '../../shared/types.js';
import type { Schema } from '../config/types.js';
import type { Direction, ListFilter } from '../core/api.js';

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

export interface GraphStore {
  /** Open (creating if needed). Returns false when the stored fingerprint differs from `fingerprint` (caller rebuilds). */
  open(schema: Schema, fingerprint: string): Promise<boolean>;
  /** Drop everything and bulk-load (COPY FROM). The graph is queryable when this resolves. */
  rebuild(entities: EntityRecord[], edges: RelationshipRecord[]): Promise<void>;
  /** Build/refresh the full-text index (may be called after rebuild, off the critical path). */
  ensureSearchIndex(): Promise<void>;
  applyDelta(delta: GraphDelta): Promise<void>;
  /** path -> hash of every stored non-placeholder entity (for incremental sync at start-up) */
  storedHashes(): Promise<Map<string, string>>;
  getEntity(id: string): Promise<EntityRecord | null>;
  /** edges touching id, both directions, canonical type names */
  edgesOf(id: string): Promise<RelationshipRecord[]>;
  list(filter: ListFilter): Promise<{ items: EntitySummary[]; total: number }>;
  neighbours(id: string, opts: { depth: number; type?: string; direction: Direction }): Promise<Traversal>;
  shortestPath(fromId: string, toId: string, maxDepth: number): Promise<PathResult | null>;
  search(text: string, opts: { layer?: string; type?: string; limit: number }): Promise<SearchHit[]>;
  /** read-only Cypher; throws CoreError('cypher-refused') for anything that writes or loads */
  cypher(query: string, params?: Record<string, unknown>): Promise<Record<string, unknown>[]>;
  counts(): Promise<GraphCounts>;
  /** every entity summary and edge (canvas) */
  snapshot(filter?: { layer?: string }): Promise<{ nodes: EntitySummary[]; edges: RelationshipRecord[] }>;
  close(): Promise<void>;
}
