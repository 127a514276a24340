/**
 * Seams between the sync engine (main/sync) and its users: the write-back
 * (main/edit) and the Core facade. Implemented by main/sync/engine.ts.
 */
import type { ChangeEvent, EntityRecord, Problem, RelationshipRecord, SyncReport } from '../../shared/types.js';
import type { Schema, VaultConfig } from '../config/types.js';
import type { ParsedNote } from '../parse/types.js';

/** Read access to the in-memory model (the resolved vault). */
export interface ModelView {
  config(): VaultConfig;
  schema(): Schema;
  /** layer of a vault-relative path (null when excluded / outside every layer) */
  layerOf(path: string): string | null;
  note(path: string): ParsedNote | undefined;
  notes(): Iterable<ParsedNote>;
  entity(id: string): EntityRecord | undefined;
  entities(): Iterable<EntityRecord>;
  /** entity id declared by a file */
  entityIdOfPath(path: string): string | undefined;
  /** resolve a reference the way a link from `fromLayer` would; undefined when it would be a placeholder */
  resolve(name: string, fromLayer: string): EntityRecord | undefined;
  edges(): Iterable<RelationshipRecord>;
  edgesFrom(id: string): RelationshipRecord[];
  edgesTo(id: string): RelationshipRecord[];
  /** paths of files that reference an entity (frontmatter or body), for rename/delete */
  referrers(id: string): string[];
  problems(): Problem[];
}

export interface SyncEngine {
  readonly model: ModelView;
  /** full or incremental (by hash) sync of the whole vault */
  syncAll(opts?: { full?: boolean }): Promise<SyncReport>;
  /**
   * Re-read these paths now (created, changed or deleted) and apply the result to model and store.
   * Resolves when the graph answers with the change; emits one ChangeEvent with this origin.
   */
  applyPaths(paths: string[], origin: ChangeEvent['origin']): Promise<ChangeEvent>;
  /** The app is about to write `path` with content hash `hash`: the watcher's echo of it is a no-op. */
  expectWrite(path: string, hash: string): void;
  startWatching(): Promise<void>;
  onChange(fn: (e: ChangeEvent) => void): () => void;
  close(): Promise<void>;
}
