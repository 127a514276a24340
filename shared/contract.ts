/**
 * The one typed contract between the renderer and main (Electron IPC or the
 * web shell's WebSocket). Written once, here:
 *  - request handlers, grouped per feature, channels named `domain-verb`,
 *    each with a zod schema for its request and its response;
 *  - push events main -> renderer, each with a zod payload schema.
 *
 * Adding a handler group = declare `const fooHandlers = { 'foo-verb': handler(Req, Res) }`
 * (here or in shared/contract-*.ts) and spread it into `contract` below: that is the one
 * entry. The type checker then demands an implementation in main/web/handlers/
 * (`Handlers`), and the renderer can `api.call('foo-verb', ...)` at once.
 *
 * The wire machinery (registerHandlers, createClient, envelopes) is in shared/rpc.ts.
 */
import { z } from 'zod';
import type {
  ChangeEvent, EntitySummary, EntityView, GraphSnapshot, Problem, RelationView, SearchHit,
  SyncReport, SyncStatus, Traversal, TraversalStep,
} from './types.js';
import { editHandlers } from './contract-edit.js';
import { timelineHandlers } from './contract-timeline.js';
import { canvasHandlers } from './contract-canvas.js';
import { mcpHandlers } from './contract-mcp.js';

// ---------------------------------------------------------------------------
// Domain payload schemas (mirror shared/types.ts; `satisfies` keeps them in step)

export const ProblemZ = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  code: z.string(),
  message: z.string(),
  file: z.string().optional(),
  line: z.number().optional(),
  field: z.string().optional(),
  entityId: z.string().optional(),
  hint: z.string().optional(),
}) satisfies z.ZodType<Problem>;

export const EntitySummaryZ = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  layer: z.string(),
  path: z.string().nullable(),
  placeholder: z.boolean(),
  tags: z.array(z.string()),
}) satisfies z.ZodType<EntitySummary>;

export const RelationViewZ = z.object({
  type: z.string(),
  label: z.string(),
  direction: z.enum(['out', 'in', 'both']),
  other: EntitySummaryZ,
  field: z.string().nullable(),
  source: z.string(),
}) satisfies z.ZodType<RelationView>;

/** Frontmatter values are arbitrary JSON. */
const JsonZ: z.ZodType<unknown> = z.unknown();

export const EntityViewZ = EntitySummaryZ.extend({
  hash: z.string().nullable(),
  aliases: z.array(z.string()),
  properties: z.record(z.string(), JsonZ),
  body: z.string(),
  relations: z.array(RelationViewZ),
}) satisfies z.ZodType<Omit<EntityView, 'properties'> & { properties: Record<string, unknown> }>;

export const SearchHitZ = z.object({
  entity: EntitySummaryZ,
  score: z.number(),
  snippet: z.string(),
  matched: z.enum(['name', 'alias', 'tag', 'body']),
}) satisfies z.ZodType<SearchHit>;

const TraversalStepZ = z.object({
  depth: z.number(),
  from: z.string(),
  to: z.string(),
  type: z.string(),
  label: z.string(),
  direction: z.enum(['out', 'in', 'both']),
}) satisfies z.ZodType<TraversalStep>;

export const TraversalZ = z.object({
  root: EntitySummaryZ,
  entities: z.array(EntitySummaryZ),
  steps: z.array(TraversalStepZ),
}) satisfies z.ZodType<Traversal>;

export const SyncReportZ = z.object({
  entities: z.number(),
  relationships: z.number(),
  placeholders: z.number(),
  problems: z.number(),
  errors: z.number(),
  ms: z.number(),
  full: z.boolean(),
  changedFiles: z.number(),
}) satisfies z.ZodType<SyncReport>;

export const SyncStatusZ = z.object({
  state: z.enum(['idle', 'syncing', 'error']),
  entities: z.number(),
  relationships: z.number(),
  placeholders: z.number(),
  problems: z.number(),
  lastSync: SyncReportZ.nullable(),
}) satisfies z.ZodType<SyncStatus>;

export const ChangeEventZ = z.object({
  origin: z.enum(['disk', 'app', 'mcp', 'sync']),
  paths: z.array(z.string()),
  upserted: z.array(z.string()),
  removed: z.array(z.string()),
}) satisfies z.ZodType<ChangeEvent>;

export const GraphSnapshotZ = z.object({
  nodes: z.array(EntitySummaryZ),
  edges: z.array(z.object({ from: z.string(), to: z.string(), type: z.string(), field: z.string().nullable() })),
}) satisfies z.ZodType<GraphSnapshot>;

export const LookupMatchZ = z.object({
  entity: EntitySummaryZ,
  confidence: z.number(),
  matchedOn: z.enum(['name', 'alias', 'filename', 'prefix', 'fuzzy']),
  matchedText: z.string(),
});

/** What the renderer needs to know about the open vault. */
export const VaultInfoZ = z.object({
  vaultDir: z.string(),
  project: z.string(),
  layers: z.array(z.object({ name: z.string(), canonical: z.boolean(), depends_on: z.array(z.string()) })),
  status: SyncStatusZ,
});
export type VaultInfo = z.infer<typeof VaultInfoZ>;

/** The UI-facing view of schema.yaml: types with their canvas style, relationship names. */
export const SchemaViewZ = z.object({
  entityTypes: z.array(z.object({
    name: z.string(),
    color: z.string().optional(),
    shape: z.string().optional(),
    icon: z.string().optional(),
  })),
  relationshipTypes: z.array(z.object({
    name: z.string(),
    inverse: z.string().optional(),
    symmetric: z.boolean(),
  })),
  eventType: z.string(),
});
export type SchemaView = z.infer<typeof SchemaViewZ>;

// ---------------------------------------------------------------------------
// Handler groups

export interface HandlerDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  req: Req;
  res: Res;
}
export function handler<Req extends z.ZodType, Res extends z.ZodType>(req: Req, res: Res): HandlerDef<Req, Res> {
  return { req, res };
}

const Empty = z.object({}).strict();
const Layer = z.string().min(1).optional();

export const appHandlers = {
  /** The renderer has subscribed to events: pushes queued until now are delivered. */
  'app-ready': handler(Empty, z.object({ transport: z.enum(['ipc', 'ws']) })),
};

export const vaultHandlers = {
  'vault-status': handler(Empty, VaultInfoZ),
  /** Switch the open vault (closes the current core first). */
  'vault-open': handler(z.object({ path: z.string().min(1) }).strict(), VaultInfoZ),
  'vault-sync': handler(z.object({ full: z.boolean().optional() }).strict(), SyncReportZ),
};

export const schemaHandlers = {
  'schema-get': handler(Empty, SchemaViewZ),
};

export const entityHandlers = {
  'entity-get': handler(
    z.object({ nameOrId: z.string().min(1), type: z.string().optional(), layer: Layer }).strict(),
    EntityViewZ.nullable(),
  ),
  'entity-list': handler(
    z.object({
      type: z.string().optional(), layer: Layer, tag: z.string().optional(),
      placeholders: z.boolean().optional(),
      offset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(100_000).optional(),
    }).strict(),
    z.object({ items: z.array(EntitySummaryZ), total: z.number() }),
  ),
  'entity-suggest': handler(
    z.object({ prefix: z.string(), limit: z.number().int().min(1).max(200).optional() }).strict(),
    z.array(LookupMatchZ),
  ),
};

export const searchHandlers = {
  'search-query': handler(
    z.object({ text: z.string(), layer: Layer, type: z.string().optional(), limit: z.number().int().min(1).max(500).optional() }).strict(),
    z.array(SearchHitZ),
  ),
};

export const graphHandlers = {
  'graph-snapshot': handler(z.object({ layer: Layer }).strict(), GraphSnapshotZ),
  'relations-get': handler(
    z.object({
      nameOrId: z.string().min(1), depth: z.number().int().min(1).max(6).optional(),
      type: z.string().optional(), direction: z.enum(['out', 'in', 'both']).optional(),
    }).strict(),
    TraversalZ,
  ),
};

export const problemsHandlers = {
  'problems-list': handler(Empty, z.array(ProblemZ)),
};

/** Every handler group. Add a group with one spread here. */
export const contract = {
  ...appHandlers,
  ...vaultHandlers,
  ...schemaHandlers,
  ...entityHandlers,
  ...searchHandlers,
  ...graphHandlers,
  ...problemsHandlers,
  ...editHandlers,
  ...timelineHandlers,
  ...canvasHandlers,
  ...mcpHandlers,
};

export type Contract = typeof contract;
export type Channel = keyof Contract;
/** What a caller passes (defaults and optionals as the caller sees them). */
export type Req<C extends Channel> = z.input<Contract[C]['req']>;
/** What a handler receives after validation. */
export type ParsedReq<C extends Channel> = z.output<Contract[C]['req']>;
export type Res<C extends Channel> = z.output<Contract[C]['res']>;

/** Who called: the transport fills this in; handlers may ignore it. */
export interface CallContext {
  transport: 'ipc' | 'ws';
  /** URL of the calling frame (Electron) or the Origin header (WebSocket) */
  senderUrl?: string;
}

/** What main must implement: one function per channel. */
export type Handlers = { [C in Channel]: (req: ParsedReq<C>, ctx: CallContext) => Promise<Res<C>> };

export const CHANNELS = Object.keys(contract) as Channel[];

// ---------------------------------------------------------------------------
// Push events main -> renderer

export const events = {
  /** the graph changed (file on disk, app edit, MCP edit, resync) */
  'vault-changed': ChangeEventZ,
  'sync-status': SyncStatusZ,
  /** another vault was opened (menu, dialog, vault-open): refetch everything */
  'vault-opened': VaultInfoZ,
};
export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
export const EVENT_NAMES = Object.keys(events) as EventName[];
