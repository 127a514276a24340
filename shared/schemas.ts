/**
 * The zod schemas of the payloads the contract carries (mirroring shared/types.ts;
 * `satisfies` keeps them in step) and the `handler()` helper. Kept apart from
 * contract.ts so the handler groups in contract-*.ts (which contract.ts imports)
 * and the MCP tools can use them without an import cycle.
 */
import { z } from 'zod';
import type {
  ChangeEvent, EntitySummary, EntityView, GraphSnapshot, Problem, RelationView, SearchHit,
  SyncReport, SyncStatus, Traversal, TraversalStep,
} from './types.js';

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
  properties: z.record(z.string(), z.unknown()).optional(),
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
  alias: z.string().optional(),
}) satisfies z.ZodType<SearchHit>;

/** one step of a traversal (the contract's and MCP's get_relationships / find_path steps) */
export const TraversalStepZ = z.object({
  depth: z.number(),
  from: z.string(),
  to: z.string(),
  type: z.string(),
  label: z.string(),
  direction: z.enum(['out', 'in', 'both']),
  properties: z.record(z.string(), z.unknown()).optional().describe("the relationship's own properties for the direction walked (attitude, trust, since, until…)"),
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
  progress: z.object({
    phase: z.enum(['reading', 'loading', 'indexing']),
    done: z.number().int().min(0).optional(),
    total: z.number().int().min(0).optional(),
  }).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
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
  /** the schema declares entity types (false: the app offers the schema setup) */
  hasSchema: z.boolean().optional(),
  /** repository files at the vault root (README, LICENSE...): not entities */
  vaultFiles: z.array(z.string()).optional(),
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
    /** the relationship's own declared properties (the canvas's edge panel; since / until are always understood) */
    properties: z.array(z.object({
      name: z.string(), type: z.string(), values: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
    })).optional(),
  })),
  eventType: z.string(),
  /** the properties whose dead value means dead (schema.events.status_fields or the timeline's defaults) */
  statusFields: z.array(z.string()).optional(),
});
export type SchemaView = z.infer<typeof SchemaViewZ>;

// ---------------------------------------------------------------------------
// Handler definitions

export interface HandlerDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  req: Req;
  res: Res;
}
export function handler<Req extends z.ZodType, Res extends z.ZodType>(req: Req, res: Res): HandlerDef<Req, Res> {
  return { req, res };
}
