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

async function stdio(command: string, args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({ command, args, cwd: REPO, stderr: 'pipe', env: { ...process.env, ...env } as Record<string, string> });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => { err = (err + c.toString()).slice(-4000); });
  const client = new Client({ name: 'lorecraft-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`${command} ${args.join(' ')} did not start: ${String(e)}\n${err}`);
  }
  return client;
}

async function time(client: Client, name: string, argsFor: (i: number) => Record<string, unknown>, n: number, warm = 5): Promise<Stat> {
  for (let i = 0; i < warm; i++) await client.callTool({ name, arguments: argsFor(i) });
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const args = argsFor(i + warm);
    const t = performance.now();
    const r = await client.callTool({ name, arguments: args });
    xs.push(performance.now() - t);
    if (r.isError) throw new Error(`${name}(${JSON.stringify(args)}) failed: ${JSON.stringify(r.content).slice(0, 300)}`);
  }
  return stat(xs);
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
  const edges = [...host.engine.model.edges()].filter((e) => e.type !== LINK_REL);
  const counts = { entities: ents.length, relationships: edges.length };
  await host.close();
  const r = rng(7);
  const names = Array.from({ length: 400 }, () => ents[Math.floor(r() * ents.length)]!.name);
  const words = Array.from({ length: 400 }, (_, i) => names[i]!.split(' ')[0]!.replace(/[^\p{L}]/gu, '') || 'road');
  const npcs = ents.filter((e) => e.type === 'npc').map((e) => e.name);
  const locs = ents.filter((e) => e.type === 'location').map((e) => e.name);

  // 2. Ours over stdio.
  const ours = await stdio(process.execPath, [CLI, 'mcp', '--vault', dir]);
  const lat: Record<string, Stat> = {};
  try {
    lat.lookup = await time(ours, 'lookup', (i) => ({ name: names[i % names.length]! }), iter);
    lat.get_entity = await time(ours, 'get_entity', (i) => ({ name: names[i % names.length]! }), iter);
    lat.get_relationships_depth3 = await time(ours, 'get_relationships', (i) => ({ name: names[i % names.length]!, depth: 3 }), iter);
    lat.search_lore = await time(ours, 'search_lore', (i) => ({ query: words[i % words.length]! }), iter);
    lat.list_entities = await time(ours, 'list_entities', (i) => ({ type: ['npc', 'location', 'faction'][i % 3]! }), iter);
    lat.find_path = await time(ours, 'find_path', (i) => ({ from: names[i % names.length]!, to: names[(i * 7 + 3) % names.length]!, max_depth: 4 }), Math.min(iter, 50));
    lat.load_scene_context = await time(ours, 'load_scene_context', (i) => ({
      location: locs[i % locs.length]!, characters: [npcs[i % npcs.length]!, npcs[(i + 1) % npcs.length]!, npcs[(i + 2) % npcs.length]!],
    }), Math.min(iter, 50));
    lat.check_consistency = await time(ours, 'check_consistency', (i) => ({ entity: names[i % names.length]!, claim: 'is a dead smith of the guild' }), Math.min(iter, 50));
    lat.query_graph = await time(ours, 'query_graph', (i) => ({ cypher: `MATCH (n:Entity {type:'npc'})-[r]->(m:Entity) WHERE n.name = '${names[i % names.length]!.replace(/'/g, "\\'")}' RETURN m.name` }), Math.min(iter, 50));
  } finally {
    await ours.close();
  }

  // 3. The reference memory server, loaded with the same entities and relations.
  const memDir = mkdtempSync(join(tmpdir(), 'lorecraft-memory-'));
  const mem = await stdio(process.execPath, [MEMORY_BIN], { MEMORY_FILE_PATH: join(memDir, 'memory.jsonl') });
  let memLat: Record<string, Stat>;
  const load = { entities_ms: 0, relations_ms: 0 };
  try {
    let t = performance.now();
    for (let i = 0; i < ents.length; i += 500) {
      await mem.callTool({ name: 'create_entities', arguments: { entities: ents.slice(i, i + 500).map((e) => ({
        name: e.name, entityType: e.type ?? 'note',
        observations: [e.body.slice(0, 300), ...Object.entries(e.properties).map(([k, v]) => `${k}: ${JSON.stringify(v)}`)].filter(Boolean),
      })) } });
    }
    load.entities_ms = +(performance.now() - t).toFixed(1);
    t = performance.now();
    const rels = edges.map((e) => ({ from: byId.get(e.from)?.name ?? e.from, to: byId.get(e.to)?.name ?? e.to, relationType: e.type }));
    for (let i = 0; i < rels.length; i += 1000) await mem.callTool({ name: 'create_relations', arguments: { relations: rels.slice(i, i + 1000) } });
    load.relations_ms = +(performance.now() - t).toFixed(1);
    memLat = {
      open_nodes: await time(mem, 'open_nodes', (i) => ({ names: [names[i % names.length]!] }), iter),
      search_nodes: await time(mem, 'search_nodes', (i) => ({ query: words[i % words.length]! }), iter),
    };
  } finally {
    await mem.close();
    rmSync(memDir, { recursive: true, force: true });
  }

  const ratio = (a: Stat, b: Stat) => ({ p50: +(a.p50 / b.p50).toFixed(2), p95: +(a.p95 / b.p95).toFixed(2) });
  return {
    entities: counts.entities,
    relationships: counts.relationships,
    first_open_sync_ms: +syncMs.toFixed(1),
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
  bench({ quick, tmpDir: tmp, generateVault: (d, o) => generateVault(d, o) })
    .then((r) => { process.stdout.write(JSON.stringify(r, null, 2) + '\n'); })
    .finally(() => rmSync(tmp, { recursive: true, force: true }));
}
