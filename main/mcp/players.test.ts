/**
 * Leak tests of `lorecraft mcp --audience players` (issue 17, point 5) on the canary vault of the export
 * leak suite (e2e/vaults/player-secrets, main/export/leaks.test.ts): the real SDK client calls every tool
 * the server lists (every visible entity, every canary asked for by name and searched for), follows every
 * cursor of every page and reads every resource. No secret canary comes back (except echoed from the
 * question itself), every control canary does, and a canary revealed at session 3 is absent from a
 * server capped at sessions 1 and 2 and present from 3 on. Writes are not even listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openCore, type CoreHost } from '../core/index.js';
import { createMcpServer } from './server.js';
import { wireMcp } from './wire.js';

const VAULT = fileURLToPath(new URL('../../e2e/vaults/player-secrets', import.meta.url));
export const SECRET = ['QSECRETGMNAME', 'QSECRETGMBODY', 'QSECRETALIAS', 'QSECRETPROP', 'QSECRETCOMMENT', 'QSECRETCALLOUT', 'QSECRETGMCALLOUT', 'QSECRETGMEVENT', 'QSECRETTARGET'];
export const CONTROL = ['QCONTROLNAME', 'QCONTROLBODY', 'QCONTROLALIAS', 'QCONTROLPROP', 'QCONTROLEVENT'];
export const REVEALED = ['QREVEALNOTE', 'QREVEALPROP'];

/** The arguments each tool is called with, from the entities the server listed; a tool missing here fails the test. */
function argsFor(tool: string, names: string[], layer: string): Array<Record<string, unknown>> {
  const asked = [...names, ...SECRET, ...CONTROL, ...REVEALED];
  const out: Record<string, Array<Record<string, unknown>>> = {
    search_lore: [...SECRET, ...CONTROL, ...REVEALED, 'guild', 'cabal', 'vault', 'the'].map((q) => ({ query: q, limit: 1 })),
    lookup: asked.map((n) => ({ name: n })),
    get_entity: [...asked.map((n) => ({ name: n })), ...names.map((n) => ({ name: n, layer, session: 3 }))],
    get_relationships: names.flatMap((n) => [{ name: n, depth: 3 }, { name: n, depth: 1, direction: 'in' }]),
    find_path: names.flatMap((a) => names.map((b) => ({ from: a, to: b }))),
    list_entities: [{ limit: 1 }, { limit: 1, placeholders: true }].map(({ limit }) => ({ limit })),
    load_scene_context: names.map((n) => ({ location: n, characters: names.slice(0, 5) })),
    check_consistency: names.map((n) => ({ entity: n, claim: 'the cabal owns the guild vault motive' })),
    get_current_state: names.map((n) => ({ name: n, layer })),
    get_timeline: [{ layer }, ...names.map((n) => ({ layer, entity: n }))],
    get_schema: [{}],
    get_problems: [{}],
    query_graph: [{ cypher: 'MATCH (n:Entity) RETURN n.name, n.body, n.props' }],
  };
  const a = out[tool];
  if (!a) throw new Error(`the players' leak test has no arguments for tool ${tool}: add it to argsFor`);
  return a;
}

interface Served { text: string; core: CoreHost; tools: string[]; dir: string; errors: Record<string, string[]> }

/** Everything a players' server capped at `session` answers, as one lowercase text (question echoes removed). */
async function harvest(session: number | null): Promise<Served> {
  const dir = await mkdtemp(join(tmpdir(), 'lorecraft-players-mcp-'));
  await cp(VAULT, dir, { recursive: true });
  const core = await openCore({ vaultDir: dir });
  const wiring = wireMcp(core, 'read-write');
  // asked for read-write with an editor: the players' audience must still list no write tool
  const server = createMcpServer({ host: core, mode: 'read-write', editor: wiring.editor, timeline: wiring.timeline, log: () => {}, audience: { audience: 'players', layer: 'campaign', session } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'players-leak-test', version: '1.0.0' });
  await client.connect(b);
  const parts: string[] = [];
  const errors: Record<string, string[]> = {};
  /** a response with the question's own words taken out: echoing what was asked is not a leak */
  const keep = (response: string, args: Record<string, unknown>) => {
    let t = response.toLowerCase();
    for (const v of Object.values(args).flat()) if (typeof v === 'string' && v.length >= 3) t = t.split(v.toLowerCase()).join(' ');
    parts.push(t);
  };
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const listed = (await client.callTool({ name: 'list_entities', arguments: { limit: 500 } })) as CallToolResult;
  const names = ((listed.structuredContent as { entities: Array<{ name: string }> }).entities).map((e) => e.name);
  for (const tool of tools) {
    for (const args of argsFor(tool, names, 'campaign')) {
      let a: Record<string, unknown> = args;
      for (let page = 0; page < 200; page++) {
        const r = (await client.callTool({ name: tool, arguments: a })) as CallToolResult;
        keep(JSON.stringify(r), args);
        if (r.isError) (errors[tool] ??= []).push(JSON.stringify(r.content));
        const next = (r.structuredContent as { next_cursor?: string | null } | undefined)?.next_cursor;
        if (!next) break;
        a = { ...args, cursor: next };
      }
    }
  }
  const resources = await client.listResources();
  parts.push(JSON.stringify(resources).toLowerCase());
  for (const res of resources.resources) parts.push(JSON.stringify(await client.readResource({ uri: res.uri })).toLowerCase());
  const templates = await client.listResourceTemplates();
  parts.push(JSON.stringify(templates).toLowerCase());
  // a resource asked for by a hidden note's name is not there
  for (const n of ['The QSECRETGMNAME Cabal', 'QSECRETALIAS']) {
    const uri = `lore://entity/setting/${encodeURIComponent(n)}`;
    const r = await client.readResource({ uri }).then((x) => JSON.stringify(x), (e: unknown) => String(e));
    keep(r.split(encodeURIComponent(n)).join(' '), { n });
  }
  await client.close();
  await server.close();
  await core.close();
  await rm(dir, { recursive: true, force: true });
  return { text: parts.join('\n'), core, tools, dir, errors };
}

const has = (t: string, c: string) => t.includes(c.toLowerCase());

describe("lorecraft mcp --audience players: every tool, cursor and resource", () => {
  const served = new Map<number | null, Served>();
  beforeAll(async () => {
    for (const s of [1, 2, 3, null]) served.set(s, await harvest(s));
  }, 120_000);
  afterAll(() => served.clear());

  it('lists no write tool, and refuses raw Cypher with a clear error', () => {
    const s = served.get(null)!;
    for (const w of ['create_entity', 'update_entity', 'add_relationship', 'remove_relationship', 'record_event']) expect(s.tools).not.toContain(w);
    expect(s.tools).toEqual(expect.arrayContaining(['search_lore', 'get_entity', 'get_relationships', 'get_current_state', 'load_scene_context', 'get_schema', 'query_graph']));
    expect(s.errors.query_graph?.[0]).toMatch(/raw Cypher cannot be filtered for players/);
  });

  it.each([[1], [2], [3], [null]])('capped at session %s: no secret canary, every control canary', (session) => {
    const t = served.get(session)!.text;
    for (const c of SECRET) expect(has(t, c), `${c} leaked`).toBe(false);
    for (const c of CONTROL) expect(has(t, c), `${c} missing`).toBe(true);
  });

  it('a revealed canary is absent before session 3 and present from it on', () => {
    for (const c of REVEALED) {
      expect(has(served.get(1)!.text, c), `${c} at session 1`).toBe(false);
      expect(has(served.get(2)!.text, c), `${c} at session 2`).toBe(false);
      expect(has(served.get(3)!.text, c), `${c} at session 3`).toBe(true);
      expect(has(served.get(null)!.text, c), `${c} after every session`).toBe(true);
    }
  });

  it('the secret property is not in get_schema, and a session past the cap is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lorecraft-players-mcp-'));
    await cp(VAULT, dir, { recursive: true });
    const core = await openCore({ vaultDir: dir });
    try {
      const server = createMcpServer({ host: core, mode: 'read', log: () => {}, audience: { audience: 'players', layer: 'campaign', session: 2 } });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(a);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(b);
      const schema = JSON.stringify((await client.callTool({ name: 'get_schema', arguments: {} })).structuredContent);
      expect(schema).toContain('motto');
      expect(schema).not.toContain('secret_motive');
      expect(schema).not.toContain('patron');
      const later = (await client.callTool({ name: 'get_current_state', arguments: { name: 'Mira Vell', layer: 'campaign', session: 3 } })) as CallToolResult;
      expect(later.isError).toBe(true);
      expect(JSON.stringify(later.content)).toMatch(/after session 2, the latest/);
      await client.close();
      await server.close();
      // the GM's server on the same core still sees everything
      const gm = createMcpServer({ host: core, mode: 'read', log: () => {} });
      const [c, d] = InMemoryTransport.createLinkedPair();
      await gm.connect(c);
      const gmClient = new Client({ name: 't', version: '1' });
      await gmClient.connect(d);
      const cabal = (await gmClient.callTool({ name: 'get_entity', arguments: { name: 'QSECRETALIAS' } })) as CallToolResult;
      expect(JSON.stringify(cabal.structuredContent)).toContain('QSECRETGMBODY');
      await gmClient.close();
      await gm.close();
    } finally {
      await core.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
