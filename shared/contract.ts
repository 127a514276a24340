/**
 * The one typed contract between the renderer and main (Electron IPC or the
 * web shell's WebSocket). Written once, here:
 *  - request handlers, grouped per feature, channels named `domain-verb`,
 *    each with a zod schema for its request and its response;
 *  - push events main -> renderer, each with a zod payload schema.
 *
 * Adding a handler group = declare `const fooHandlers = { 'foo-verb': handler(Req, Res) }`
 * (here or in shared/contract-*.ts) and spread it into `contract` below: that is the one
 * entry. The type checker then demands an implementation in main/app/handlers/
 * (`Handlers`), and the renderer can `api.call('foo-verb', ...)` at once.
 *
 * The wire machinery (registerHandlers, createClient, envelopes) is in shared/rpc.ts.
 */
import { z } from 'zod';
import { ProblemZ, EntitySummaryZ, EntityViewZ, SearchHitZ, TraversalZ, SyncReportZ, SyncStatusZ, ChangeEventZ, GraphSnapshotZ, LookupMatchZ, VaultInfoZ, SchemaViewZ, handler } from './schemas.js';
export * from './schemas.js';
import { editHandlers } from './contract-edit.js';
import { timelineHandlers } from './contract-timeline.js';
import { canvasHandlers } from './contract-canvas.js';
import { CompactGraphZ } from './graph-compact.js';
import { mcpHandlers } from './contract-mcp.js';
import { assetHandlers } from './contract-assets.js';
import { schemaSetupHandlers } from './contract-schema-setup.js';
import { viewHandlers, AudienceZ } from './contract-view.js';

// ---------------------------------------------------------------------------
// Handler groups

const Empty = z.object({}).strict();
const Layer = z.string().min(1).optional();
/** the reads the players' view uses take this (shared/contract-view.ts) */
const Audience = AudienceZ.optional();

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
    z.object({ nameOrId: z.string().min(1), type: z.string().optional(), layer: Layer, audience: Audience }).strict(),
    EntityViewZ.nullable(),
  ),
  'entity-list': handler(
    z.object({
      type: z.string().optional(), layer: Layer, tag: z.string().optional(),
      placeholders: z.boolean().optional(),
      offset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(100_000).optional(), audience: Audience,
    }).strict(),
    z.object({ items: z.array(EntitySummaryZ), total: z.number() }),
  ),
  'entity-suggest': handler(
    z.object({ prefix: z.string(), limit: z.number().int().min(1).max(200).optional(), audience: Audience }).strict(),
    z.array(LookupMatchZ),
  ),
};

export const searchHandlers = {
  'search-query': handler(
    z.object({ text: z.string(), layer: Layer, type: z.string().optional(), limit: z.number().int().min(1).max(500).optional(), audience: Audience }).strict(),
    z.array(SearchHitZ),
  ),
};

export const graphHandlers = {
  'graph-snapshot': handler(z.object({ layer: Layer, audience: Audience }).strict(), GraphSnapshotZ),
  /** the same snapshot in the canvas's compact wire form (shared/graph-compact.ts: decodeGraph gives it back) */
  'graph-compact': handler(z.object({ layer: Layer, audience: Audience }).strict(), CompactGraphZ),
  'relations-get': handler(
    z.object({
      nameOrId: z.string().min(1), depth: z.number().int().min(1).max(6).optional(),
      type: z.string().optional(), direction: z.enum(['out', 'in', 'both']).optional(), audience: Audience,
    }).strict(),
    TraversalZ,
  ),
};

export const problemsHandlers = {
  'problems-list': handler(z.object({ audience: Audience }).strict(), z.array(ProblemZ)),
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
  ...assetHandlers,
  ...schemaSetupHandlers,
  ...viewHandlers,
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
  /** Electron's File > Export…: open the renderer's Export dialog */
  'export-open': z.object({}).strict(),
};
export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
export const EVENT_NAMES = Object.keys(events) as EventName[];
