/**
 * createMcpServer: the MCP server as a factory handed the core, separate from
 * its transports (stdio: ./stdio.ts; the app-side bridge: ./bridge.ts; tests:
 * InMemoryTransport). The mode decides whether write tools exist at all.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DEFAULT_BUDGET_TOKENS, structuredCharBudget } from './budget.js';
import { vocabulary, type McpAudience, type McpContext, type McpHost, type McpMode } from './context.js';
import type { McpEditor, McpTimeline } from './adapters.js';
import { registerPrompts, registerResources } from './resources.js';
import { readTools } from './tools/read.js';
import { sceneTools } from './tools/scene.js';
import { timeTools } from './tools/time.js';
import { worldTools } from './tools/world.js';
import { trashTools } from './tools/trash.js';
import { writeTools } from './tools/write.js';
import { registerTool } from './tool.js';
import { adaptEditor } from './wire.js';
import { CoreError, liveView, type CoreHost, type Editor } from '../core/index.js';

function isRawEditor(e: McpEditor | Editor): e is Editor {
  return typeof (e as Editor).setProperty === 'function';
}

export const SERVER_NAME = 'lorecraft';
export const SERVER_VERSION = '0.1.0';

export interface McpServerDeps {
  host: McpHost;
  /**
   * The write-back editor: main/edit's Editor (createEditor(host); adapted here, commands run
   * with origin 'mcp') or an McpEditor. Required for read-write mode.
   */
  editor?: McpEditor | Editor;
  /** the timeline adapted for MCP; without it the time tools are not registered */
  timeline?: McpTimeline;
  mode: McpMode;
  /**
   * Answer for the players (`lorecraft mcp --audience players`): every tool, resource and cursor reads the
   * players' view of the core (deps.host must be the CoreHost), query_graph is refused, and no write tool
   * exists whatever the mode. Default: the GM.
   */
  audience?: McpAudience;
  /** output budget per tool result, in tokens (~4 chars each); default 8,000 */
  budgetTokens?: number;
  /** query_graph's time limit in ms; default the core's (LORECRAFT_QUERY_TIMEOUT_MS, else 5 s) */
  queryTimeoutMs?: number;
  /** where diagnostics go (never stdout: stdout is the JSON-RPC channel); default stderr */
  log?: (line: string) => void;
}

/** The players' deps: the core's players' view (live: each call reads the current model) and timeline, read-only. */
function forPlayers(deps: McpServerDeps): McpServerDeps {
  const core = deps.host as CoreHost;
  if (typeof core.view !== 'function' || typeof core.playersTimeline !== 'function') throw new Error("the players' audience needs the core itself as host");
  const a = deps.audience!;
  const session = a.session ?? null;
  const layer = a.layer;
  if (layer !== undefined && !core.config().layers.some((l) => l.name === layer)) {
    throw new CoreError('unknown-layer', `unknown layer '${layer}' (layers: ${core.config().layers.map((l) => l.name).join(', ')})`, { layer });
  }
  return {
    ...deps, mode: 'read', editor: undefined,
    host: liveView(() => core.view({ audience: 'players', ...(layer ? { layer } : {}), session })),
    timeline: core.playersTimeline(session),
  };
}

export function createMcpServer(given: McpServerDeps): McpServer {
  const players = given.audience?.audience === 'players';
  const deps = players ? forPlayers(given) : given;
  const budgetTokens = deps.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  if (!Number.isInteger(budgetTokens) || budgetTokens < 500) throw new RangeError(`budgetTokens must be an integer ≥ 500, got ${budgetTokens}`);
  if (deps.mode === 'read-write' && !deps.editor) throw new Error('read-write mode needs the write-back editor');
  const log = deps.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const editor = deps.editor && isRawEditor(deps.editor) ? adaptEditor(deps.host as CoreHost, deps.editor) : deps.editor;
  const ctx: McpContext = {
    host: deps.host, editor, timeline: deps.timeline, mode: deps.mode, audience: players ? 'players' : 'gm',
    budgetTokens, maxChars: structuredCharBudget(budgetTokens), log,
    ...(deps.queryTimeoutMs !== undefined ? { queryTimeoutMs: deps.queryTimeoutMs } : {}),
  };
  const v = vocabulary(deps.host);
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: `Lorecraft — ${deps.host.config().project}` },
    {
      capabilities: { logging: {} },
      instructions: [
        `Lorecraft world "${deps.host.config().project}": a vault of markdown notes kept as a graph.`,
        'Start with lookup or search_lore to resolve names; get_entity gives the source file path to cite.',
        'Results are bounded: when a result says truncated, pass next_cursor to get the next page.',
        players ? "This server answers for the players: it shows only what they may know (no GM-only notes, secret properties or secret text), raw Cypher (query_graph) is refused and nothing can be written." : '',
        deps.mode === 'read-write' ? 'Write tools edit the notes through the same validated write-back as the app and return the diff written.' : 'This server is read-only.',
      ].filter(Boolean).join(' '),
    },
  );
  const specs = [
    ...readTools(ctx, v),
    ...(deps.timeline ? timeTools(ctx, v, deps.timeline) : []),
    ...sceneTools(ctx, v),
    ...worldTools(ctx, v),
    ...(deps.mode === 'read-write' && editor ? writeTools(ctx, v, editor) : []),
    // the trash holds deleted notes as written (names, paths): GM material, never the players'
    ...(players ? [] : trashTools(ctx, deps.mode === 'read-write' ? editor : undefined)),
  ];
  for (const s of specs) registerTool(server, s, { budgetTokens, log });
  registerResources(server, ctx);
  registerPrompts(server, ctx);
  return server;
}
