/**
 * MCP bench (called by bench/run.ts; figures in milliseconds, client-side
 * round trips over stdio through the real SDK client):
 * - per-tool latency p50/p95 of `lorecraft mcp` on the generated 10k-entity
 *   vault (1k with quick): lookup, get_entity, get_relationships depth 3,
 *   search_lore, list_entities, find_path, load_scene_context, check_consistency, query_graph;
 * - in the same run the reference @modelcontextprotocol/server-memory loaded
 *   with the same entities and relations (create_entities / create_relations
 *   in batches): its open_nodes and search_nodes beside our get_entity and
 *   search_lore, with the ratio (memory / ours; > 1 means we are faster).
 * Run directly: node bin/run-ts.mjs bench/mcp.ts [--quick]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openCore } from '../main/core/index.js';
import { LINK_REL } from '../shared/types.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'bin', 'lorecraft.mjs');
const MEMORY_BIN = join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

export interface McpBenchContext {
  quick: boolean;
  tmpDir: string;
  generateVault?: (dir: string, opts: { entities: number }) => Promise<unknown>;
}

type Stat = { p50: number; p95: number; n: number };

function stat(xs: number[]): Stat {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { p50: +q(0.5).toFixed(3), p95: +q(0.95).toFixed(3), n: s.length };
}

function rng(seed: number) {
  let a = seed >>> 0;
  return () => { a = (a * 1664525 + 1013904223) >>> 0; return a / 2 ** 32; };
}

async function stdio(command: string, args: string[], env: Record<string, string> = {}): Promise<Server> {
  const transport = new StdioClientTransport({ command, args, cwd: REPO, stderr: 'pipe', env: { ...process.env, ...env } as Record<string, string> });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => { err = (err + c.toString()).slice(-4000); });
  const client = new Client({ name: 'lorecraft-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`${command} ${args.join(' ')} did not start: ${String(e)}\n${err}`, { cause: e });
  }
  return Object.assign(client, { stderrTail: () => err });
}

type Server = Client & { stderrTail(): string };

async function call(client: Server, name: string, args: Record<string, unknown>) {
  try {
    return await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  } catch (e) {
    throw new Error(`${name}(${JSON.stringify(args).slice(0, 200)}): ${String(e)}\n--- server stderr ---\n${client.stderrTail()}`, { cause: e });
  }
}

/** warm-up before timing (see bench()) */
const SETTLE_MS = 3000;

type Timed = Stat & { max_response_chars: number; failed?: number; failure?: string };

/**
 * Round-trip latency of n calls. `reopen` (the reference server) lets a call
 * that kills the connection — an answer over the SDK client's 10 MB stdio
 * buffer, the flood of modelcontextprotocol/servers#3953 — be counted as a
 * failure and the server restarted; our server must never fail.
 */
async function time(
  client: Server, name: string, argsFor: (i: number) => Record<string, unknown>, n: number,
  reopen?: () => Promise<Server>, warm = 5,
): Promise<{ stat: Timed; client: Server }> {
  process.stderr.write(`bench/mcp: ${name} x${n}\n`);
  for (let i = 0; i < warm; i++) {
    try {
      await call(client, name, argsFor(i));
    } catch (e) {
      if (!reopen) throw e;
      await client.close().catch(() => undefined);
      client = await reopen();
    }
  }
  const xs: number[] = [];
  let maxChars = 0;
  let failed = 0;
  let failure: string | undefined;
  for (let i = 0; i < n; i++) {
    const args = argsFor(i + warm);
    const t = performance.now();
    let r;
    try {
      r = await call(client, name, args);
    } catch (e) {
      if (!reopen) throw e;
      failed++;
      failure ??= `${name}(${JSON.stringify(args)}): ${String((e as Error).cause ?? e).slice(0, 200)}`;
      await client.close().catch(() => undefined);
      client = await reopen();
      continue;
    }
    xs.push(performance.now() - t);
    // as the budget counts it: the text blocks plus the structured JSON
    const size = (r.content as Array<{ text?: string }>).reduce((a, c) => a + (c.text?.length ?? 0), 0) + (r.structuredContent ? JSON.stringify(r.structuredContent).length : 0);
    maxChars = Math.max(maxChars, size);
    if (r.isError) throw new Error(`${name}(${JSON.stringify(args)}) failed: ${JSON.stringify(r.content).slice(0, 300)}`);
  }
  return { stat: { ...stat(xs), max_response_chars: maxChars, ...(failed ? { failed, failure } : {}) }, client };
}

export async function bench(ctx: McpBenchContext): Promise<Record<string, unknown>> {
  const n = ctx.quick ? 1000 : 10000;
  const iter = ctx.quick ? 30 : 200;
  const dir = join(ctx.tmpDir, 'mcp-vault');
  if (!ctx.generateVault) throw new Error('bench/mcp.ts needs ctx.generateVault (bench/generate.ts)');
  await ctx.generateVault(dir, { entities: n });

  // 1. Read the vault once in-process: names, search words, the graph for the reference server.
  const t0 = performance.now();
  const host = await openCore({ vaultDir: dir });
  const syncMs = performance.now() - t0;
  const ents = [...host.engine.model.entities()].filter((e) => !e.placeholder);
  const byId = new Map([...host.engine.model.entities()].map((e) => [e.id, e]));
  // every relationship between two notes (frontmatter and body links), as the reference server gets them
  const real = new Set(ents.map((e) => e.id));
  const edges = [...host.engine.model.edges()].filter((e) => real.has(e.from) && real.has(e.to));
  const typedEdges = edges.filter((e) => e.type !== LINK_REL).length;
  const counts = { entities: ents.length, relationships: edges.length, typed_relationships: typedEdges };
  await host.close();
  const r = rng(7);
  const names = Array.from({ length: 400 }, () => ents[Math.floor(r() * ents.length)]!.name);
  const words = Array.from({ length: 400 }, (_, i) => names[i]!.split(' ')[0]!.replace(/[^\p{L}]/gu, '') || 'road');
  const npcs = ents.filter((e) => e.type === 'npc').map((e) => e.name);
  const locs = ents.filter((e) => e.type === 'location').map((e) => e.name);

  // 2. Ours over stdio.
  const tStart = performance.now();
  const ours = await stdio(process.execPath, [CLI, 'mcp', '--vault', dir]);
  const startMs = performance.now() - tStart;
  const lat: Record<string, Timed> = {};
  try {
    // Steady state: the server answers as soon as it is connected, but for its first
    // seconds the file watcher's initial scan of the vault and V8's JIT warm-up share
    // its thread. Latency is measured after SETTLE_MS of calls (startup is reported apart).
    for (let i = 0, t = performance.now(); performance.now() - t < SETTLE_MS; i++) await call(ours, 'lookup', { name: names[i % names.length]! });
    lat.lookup = (await time(ours, 'lookup', (i) => ({ name: names[i % names.length]! }), iter)).stat;
    lat.get_entity = (await time(ours, 'get_entity', (i) => ({ name: names[i % names.length]! }), iter)).stat;
    lat.get_relationships_depth3 = (await time(ours, 'get_relationships', (i) => ({ name: names[i % names.length]!, depth: 3 }), iter)).stat;
    lat.search_lore = (await time(ours, 'search_lore', (i) => ({ query: words[i % words.length]! }), iter)).stat;
    lat.list_entities = (await time(ours, 'list_entities', (i) => ({ type: ['npc', 'location', 'faction'][i % 3]! }), iter)).stat;
    lat.find_path = (await time(ours, 'find_path', (i) => ({ from: names[i % names.length]!, to: names[(i * 7 + 3) % names.length]!, max_depth: 4 }), Math.min(iter, 50))).stat;
    lat.load_scene_context = (await time(ours, 'load_scene_context', (i) => ({
      location: locs[i % locs.length]!, characters: [npcs[i % npcs.length]!, npcs[(i + 1) % npcs.length]!, npcs[(i + 2) % npcs.length]!],
    }), Math.min(iter, 50))).stat;
    lat.check_consistency = (await time(ours, 'check_consistency', (i) => ({ entity: names[i % names.length]!, claim: 'is a dead smith of the guild' }), Math.min(iter, 50))).stat;
    lat.query_graph = (await time(ours, 'query_graph', (i) => ({ cypher: `MATCH (n:Entity {type:'npc'})-[r]->(m:Entity) WHERE n.name = '${names[i % names.length]!.replace(/'/g, "\\'")}' RETURN m.name` }), Math.min(iter, 50))).stat;
  } finally {
    await ours.close();
  }

  // 3. The reference memory server, loaded with the same entities and relations.
  const memDir = mkdtempSync(join(tmpdir(), 'lorecraft-memory-'));
  const memFile = join(memDir, 'memory.jsonl');
  let mem = await stdio(process.execPath, [MEMORY_BIN], { MEMORY_FILE_PATH: memFile });
  let memLat: Record<string, Timed>;
  const load = { entities_ms: 0, relations_ms: 0 };
  try {
    let t = performance.now();
    for (let i = 0; i < ents.length; i += 500) {
      await call(mem, 'create_entities', { entities: ents.slice(i, i + 500).map((e) => ({
        name: e.name, entityType: e.type ?? 'note',
        observations: [e.body.slice(0, 300), ...Object.entries(e.properties).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)].filter(Boolean),
      })) });
    }
    load.entities_ms = +(performance.now() - t).toFixed(1);
    t = performance.now();
    const rels = edges.map((e) => ({ from: byId.get(e.from)?.name ?? e.from, to: byId.get(e.to)?.name ?? e.to, relationType: e.type }));
    for (let i = 0; i < rels.length; i += 1000) await call(mem, 'create_relations', { relations: rels.slice(i, i + 1000) });
    load.relations_ms = +(performance.now() - t).toFixed(1);
    const reopen = () => stdio(process.execPath, [MEMORY_BIN], { MEMORY_FILE_PATH: memFile });
    const o = await time(mem, 'open_nodes', (i) => ({ names: [names[i % names.length]!] }), iter, reopen);
    const sn = await time(o.client, 'search_nodes', (i) => ({ query: words[i % words.length]! }), iter, reopen);
    mem = sn.client;
    memLat = { open_nodes: o.stat, search_nodes: sn.stat };
  } finally {
    await mem.close();
    rmSync(memDir, { recursive: true, force: true });
  }

  const ratio = (a: Stat, b: Stat) => ({ p50: +(a.p50 / b.p50).toFixed(2), p95: +(a.p95 / b.p95).toFixed(2) });
  return {
    entities: counts.entities,
    relationships: counts.relationships,
    typed_relationships: counts.typed_relationships,
    first_open_sync_ms: +syncMs.toFixed(1),
    // spawn + open (database already built) + connect, until the first call can be made
    server_start_ms: +startMs.toFixed(1),
    settle_ms_before_timing: SETTLE_MS,
    transport: 'stdio (SDK client, round trip)',
    latency_ms: lat,
    reference_memory_server: {
      load_ms: load,
      latency_ms: memLat,
      // memory server time / ours: > 1 means Lorecraft answers faster
      ratio_open_nodes_vs_get_entity: ratio(memLat.open_nodes!, lat.get_entity!),
      ratio_search_nodes_vs_search_lore: ratio(memLat.search_nodes!, lat.search_lore!),
    },
    targets_ms_p95: { lookup: 2, get_entity: 2, get_relationships_depth3: 30, search_lore: 20 },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const tmp = mkdtempSync(join(tmpdir(), 'lorecraft-bench-mcp-'));
  const { generateVault } = await import('./generate.js');
  try {
    process.stdout.write(JSON.stringify(await bench({ quick, tmpDir: tmp, generateVault: (d, o) => generateVault(d, o) }), null, 2) + '\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
