/**
 * What every tool group is handed: the core host, the optional write-back
 * editor and timeline (adapted to the small surfaces the tools need), the
 * mode and the output budget. Also the schema-derived vocabulary used to
 * write tool descriptions ("types: npc, faction…; relationships: MEMBER_OF…").
 */
import type { EntitySummary, EntityView } from '../../shared/types.js';
import type { Core, EntityQuery } from '../core/index.js';
import { CoreError } from '../domain/errors.js';
import type { Schema } from '../core/index.js';
import type { McpEditor, McpTimeline } from './adapters.js';

export type McpMode = 'read' | 'read-write';

/** Who the server answers for: the GM (everything) or the players (main/core/audience.ts) at a layer and session. */
export interface McpAudience {
  audience: 'gm' | 'players';
  layer?: string;
  /** players: the latest session they know (default: after every event) */
  session?: number | null;
}

/** The core as the MCP server uses it (main/core/index.ts's CoreHost is a Core). */
export type McpHost = Core;

export interface McpContext {
  host: McpHost;
  editor?: McpEditor;
  timeline?: McpTimeline;
  mode: McpMode;
  /** 'players': every read is the players' view; resources are rendered from it, never read from the file */
  audience: 'gm' | 'players';
  budgetTokens: number;
  /** characters allowed for one result's structuredContent */
  maxChars: number;
  /** query_graph's time limit in ms; unset: the core's default (LORECRAFT_QUERY_TIMEOUT_MS, else 5 s) */
  queryTimeoutMs?: number;
  log: (line: string) => void;
}

export interface Vocabulary {
  types: string[];
  relationships: string[];
  layers: string[];
  eventType: string;
}

export function vocabulary(host: McpHost): Vocabulary {
  const schema: Schema = host.schema();
  const rels: string[] = [];
  for (const r of schema.relationship_types) {
    rels.push(r.name);
    if (r.inverse) rels.push(r.inverse);
  }
  return {
    types: schema.entity_types.map((t) => t.name),
    relationships: rels,
    layers: host.config().layers.map((l) => l.name),
    eventType: schema.events?.type ?? 'event',
  };
}

function list(names: string[], max = 40): string {
  if (names.length === 0) return '(none defined)';
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')}, … (${names.length - max} more; see get_schema)`;
}

export function describeTypes(v: Vocabulary): string { return `Entity types in this vault: ${list(v.types)}.`; }
export function describeRels(v: Vocabulary): string { return `Relationship types: ${list(v.relationships)}.`; }
export function describeLayers(v: Vocabulary): string { return `Layers: ${list(v.layers)}.`; }

export function summary(e: EntitySummary): EntitySummary {
  return { id: e.id, name: e.name, type: e.type, layer: e.layer, path: e.path, placeholder: e.placeholder, tags: e.tags };
}

/** getEntity or a not-found error that lists the closest names. */
export async function requireEntity(host: McpHost, name: string, q?: EntityQuery): Promise<EntityView> {
  const e = await host.getEntity(name, q);
  if (e) return e;
  let near = (await host.lookup(name, 5).catch(() => [])).map((m) => m.entity);
  if (!near.length) near = (await host.suggest(name, 5).catch(() => [])).map((m) => m.entity);
  if (!near.length) near = (await host.search(name, { limit: 5 }).catch(() => [])).map((h) => h.entity);
  const hint = near.length ? `; did you mean ${near.map((e) => `"${e.name}" (${e.type ?? 'untyped'}, ${e.layer})`).join(', ')}?` : '; try search_lore or lookup';
  const scope = [q?.type && `type ${q.type}`, q?.layer && `layer ${q.layer}`].filter(Boolean).join(', ');
  throw new CoreError('not-found', `no entity named "${name}"${scope ? ` (${scope})` : ''}${hint}`);
}

/** Make Kùzu / core values JSON-safe (bigint, Date, nested). */
export function jsonSafe(v: unknown, depth = 0): unknown {
  if (depth > 20) return '[too deep]';
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map((x) => jsonSafe(x, depth + 1));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = jsonSafe(x, depth + 1);
    return out;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return v;
}

export function clipValue(v: unknown, max: number): unknown {
  if (typeof v === 'string') return v.length > max ? v.slice(0, max - 1) + '…' : v;
  if (Array.isArray(v)) return v.slice(0, 50).map((x) => clipValue(x, max));
  if (v && typeof v === 'object') {
    const s = JSON.stringify(v);
    return s.length > max ? s.slice(0, max - 1) + '…' : v;
  }
  return v;
}
