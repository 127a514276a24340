/**
 * The Core facade: the one object that the CLI, the web shell, the Electron
 * main process and the MCP server drive. It never imports Electron.
 * Created by `openCore()` (main/core/index.ts).
 */
import type {
  ChangeEvent, EntitySummary, EntityView, GraphSnapshot, PathResult, Problem,
  SearchHit, SyncReport, SyncStatus, Traversal,
} from '../../shared/types.js';
import type { Schema, VaultConfig } from '../config/types.js';
import type { VaultAsset } from '../assets/assets.js';
import type { TrashItem } from '../edit/trash.js';
export type { TrashItem } from '../edit/trash.js';
export type { VaultAsset } from '../assets/assets.js';

export type { Direction, ListFilter } from '../domain/types.js';
import type { Direction, ListFilter } from '../domain/types.js';

export interface EntityQuery {
  type?: string;
  layer?: string;
}

export interface LookupMatch {
  entity: EntitySummary;
  /** 1 exact name, 0.9 exact alias, 0.8 file name, <0.8 prefix/fuzzy */
  confidence: number;
  matchedOn: 'name' | 'alias' | 'filename' | 'prefix' | 'fuzzy';
  matchedText: string;
}

export interface Core {
  readonly vaultDir: string;
  config(): VaultConfig;
  schema(): Schema;
  status(): SyncStatus;

  /** Bring the graph up to date with the files (incremental by hash unless full). */
  sync(opts?: { full?: boolean }): Promise<SyncReport>;
  /** Start watching the vault; changes are applied and announced through onChange. */
  watch(): Promise<void>;
  onChange(fn: (e: ChangeEvent) => void): () => void;

  /** Resolve a name (or id) to one entity and its relations both ways; null when none. */
  getEntity(nameOrId: string, q?: EntityQuery): Promise<EntityView | null>;
  lookup(name: string, limit?: number): Promise<LookupMatch[]>;
  list(filter?: ListFilter): Promise<{ items: EntitySummary[]; total: number }>;
  relations(nameOrId: string, opts?: { depth?: number; type?: string; direction?: Direction }): Promise<Traversal>;
  path(from: string, to: string, maxDepth?: number): Promise<PathResult | null>;
  search(text: string, opts?: { layer?: string; type?: string; limit?: number }): Promise<SearchHit[]>;
  /** how many entities search() finds with no limit (the total a paged search reports) */
  searchCount(text: string, opts?: { layer?: string; type?: string }): Promise<number>;
  /** prefix / fuzzy completion over names and aliases */
  suggest(prefix: string, limit?: number): Promise<LookupMatch[]>;
  /**
   * Read-only Cypher; anything that writes or loads is refused with an error. Bounded by a time
   * limit (timeoutMs, default LORECRAFT_QUERY_TIMEOUT_MS or 5 s: 'timeout') and cancellable by
   * signal ('cancelled'; see CypherOptions in store/types.ts for what cancel can and cannot stop).
   */
  cypher(query: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<Record<string, unknown>[]>;
  problems(): Problem[];
  graph(filter?: { layer?: string }): Promise<GraphSnapshot>;
  /**
   * An image a note embeds, by vault path or (as Obsidian) by file name anywhere in the
   * vault, shortest path first. Refuses `..`, absolute paths, symlinks leaving the vault
   * and non-image types (CoreError forbidden), unknown files (not-found). main/assets.
   */
  readAsset(ref: string): Promise<VaultAsset>;
  /** The files in the vault's trash (`.lorecraft/trash`), most recently deleted first; `editor.restore(trashPath)` puts one back. */
  trash(): Promise<TrashItem[]>;

  close(): Promise<void>;
}

export { CoreError, type ErrorCode } from '../domain/errors.js';
