/**
 * Domain types shared by every process (core, CLI, web shell, MCP, renderer).
 * Plain data only: no functions, no classes, JSON-serialisable.
 *
 * Identity: an entity is identified by `id = "<layer>/<key>"` where key is the
 * normalised name (see `normaliseName` in shared/names.ts). Names are unique per
 * layer; a second note with the same name in the same layer is a `duplicate-name`
 * problem and never merged (the first by path order wins the id, the other is
 * kept as `<layer>/<key>#<n>`).
 */

export type Severity = 'error' | 'warning' | 'info';

export interface Problem {
  severity: Severity;
  /** stable rule code, e.g. 'yaml-syntax', 'unknown-type', 'enum-value', 'duplicate-name', 'dangling-link', 'part-of-cycle' */
  code: string;
  message: string;
  /** vault-relative posix path of the file the problem is in, when there is one */
  file?: string;
  /** 1-based line in that file */
  line?: number;
  /** frontmatter field, when the problem is about one */
  field?: string;
  /** the entity concerned, when there is one */
  entityId?: string;
  /** one-line fix hint */
  hint?: string;
}

export type Scalar = string | number | boolean | null;
export type PropertyValue = Scalar | Scalar[] | Record<string, unknown> | unknown[];

export interface EntityRecord {
  id: string;
  name: string;
  /** entity type name from the schema; null for an untyped note */
  type: string | null;
  layer: string;
  /** vault-relative posix path; null for a placeholder */
  path: string | null;
  /** sha256 hex of the file bytes; null for a placeholder */
  hash: string | null;
  tags: string[];
  aliases: string[];
  /** frontmatter values that are not relationship fields nor reserved keys */
  properties: Record<string, PropertyValue>;
  body: string;
  placeholder: boolean;
}

/** Relationship type used for body wikilinks. */
export const LINK_REL = 'LINKS_TO';
/** Relationship type produced by the built-in `related` field. */
export const RELATED_REL = 'RELATED_TO';

export interface RelationshipRecord {
  /** entity id of the source (the note that declares it, or its target for an inverse-mapped field) */
  from: string;
  to: string;
  /** canonical relationship type name (never an inverse name) e.g. MEMBER_OF, LINKS_TO, RELATED_TO */
  type: string;
  /** frontmatter field that produced it; null for a body link */
  field: string | null;
  /** vault-relative path of the file that declares it */
  source: string;
  /** 1-based line in that file */
  line: number;
  /**
   * the relationship's own properties as seen from `from` (a map item `{ to: "[[X]]", attitude: wary }` in the
   * `from` note: every key but `to`, `since` / `until` included). Absent for a plain item.
   */
  properties?: Record<string, unknown>;
  /** the properties written on the `to` note under the inverse name (`members: [{ to: X, role: … }]`): that direction's own */
  inverseProperties?: Record<string, unknown>;
}

export interface EntitySummary {
  id: string;
  name: string;
  type: string | null;
  layer: string;
  path: string | null;
  placeholder: boolean;
  tags: string[];
}

/** A relationship seen from one end. `direction: 'out'` means entity -> other. */
export interface RelationView {
  type: string;
  /** the name to show from this end: the type, or its inverse name for 'in' on an inverse type */
  label: string;
  direction: 'out' | 'in' | 'both';
  other: EntitySummary;
  field: string | null;
  source: string;
  /** the relationship's own properties for the direction shown (`attitude: wary`), when it has any */
  properties?: Record<string, unknown>;
}

export interface EntityView extends EntityRecord {
  relations: RelationView[];
}

export interface SearchHit {
  entity: EntitySummary;
  score: number;
  /** snippet with matched words wrapped in « » */
  snippet: string;
  /** which field matched best: name, alias, tag, body */
  matched: 'name' | 'alias' | 'tag' | 'body';
  /** when `matched` is 'alias': the alias (or file name) that matched, as written */
  alias?: string;
}

export interface TraversalStep {
  depth: number;
  from: string;
  to: string;
  type: string;
  label: string;
  direction: 'out' | 'in' | 'both';
  /** the relationship's own properties for the direction walked, when it has any */
  properties?: Record<string, unknown>;
}

export interface Traversal {
  root: EntitySummary;
  entities: EntitySummary[];
  steps: TraversalStep[];
}

export interface PathResult {
  entities: EntitySummary[];
  steps: TraversalStep[];
}

export interface SyncReport {
  entities: number;
  relationships: number;
  placeholders: number;
  problems: number;
  errors: number;
  ms: number;
  full: boolean;
  changedFiles: number;
}

/**
 * Where an open (or a whole-vault sync) is: files read of total, then the graph loading (the UI already answers
 * from the model), then the full-text index building. Absent when there is nothing to wait for.
 */
export interface SyncProgress {
  phase: 'reading' | 'loading' | 'indexing';
  /** reading: files read (or taken from the note cache) so far, of `total` */
  done?: number;
  total?: number;
}

export interface SyncStatus {
  state: 'idle' | 'syncing' | 'error';
  entities: number;
  relationships: number;
  placeholders: number;
  problems: number;
  lastSync: SyncReport | null;
  progress?: SyncProgress;
  /**
   * Why the last whole-vault sync, or the search index it built, failed (the graph may be empty or search
   * missing meanwhile); absent once a sync succeeds. code: the core's error code (main/domain/errors.ts).
   */
  error?: { code: string; message: string };
}

/** Emitted after the graph changed (file on disk, app edit, MCP edit). */
export interface ChangeEvent {
  /** what caused it */
  origin: 'disk' | 'app' | 'mcp' | 'sync';
  /** vault-relative paths whose content changed */
  paths: string[];
  /** entity ids added, changed or removed */
  upserted: string[];
  removed: string[];
}

export interface GraphSnapshot {
  nodes: EntitySummary[];
  edges: Array<{ from: string; to: string; type: string; field: string | null }>;
}
