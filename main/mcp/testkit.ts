/**
 * Test helpers: a temp copy of the bundled sample world, the real core opened
 * on it, and the real SDK client connected to our server over InMemoryTransport.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openCore, type CoreHost } from '../core/index.js';
import type { McpMode } from './context.js';
import { createMcpServer } from './server.js';
import { wireMcp } from './wire.js';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SAMPLE_WORLD = join(REPO, 'resources', 'sample-world');
export const CLI = join(REPO, 'bin', 'lorecraft.mjs');

export async function tempSampleVault(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lorecraft-mcp-'));
  await cp(SAMPLE_WORLD, dir, { recursive: true, filter: (src) => !src.includes('.lorecraft') });
  return dir;
}

export interface Harness {
  dir: string;
  host: CoreHost;
  client: Client;
  logs: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** call, assert success, return structuredContent */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

export async function openHarness(opts: { mode?: McpMode; budgetTokens?: number; dir?: string; queryTimeoutMs?: number } = {}): Promise<Harness> {
  const mode = opts.mode ?? 'read';
  const dir = opts.dir ?? await tempSampleVault();
  const host = await openCore({ vaultDir: dir });
  const wiring = wireMcp(host, mode);
  const logs: string[] = [];
  const server = createMcpServer({
    host, mode, editor: wiring.editor, timeline: wiring.timeline, budgetTokens: opts.budgetTokens, log: (l) => logs.push(l),
    ...(opts.queryTimeoutMs !== undefined ? { queryTimeoutMs: opts.queryTimeoutMs } : {}),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'lorecraft-test', version: '1.0.0' });
  await client.connect(b);
  await client.listTools(); // the client then validates structuredContent against each outputSchema
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    dir, host, client, logs, call,
    async ok<T>(name: string, args: Record<string, unknown> = {}) {
      const r = await call(name, args);
      if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
      return r.structuredContent as T;
    },
    async close() {
      await client.close();
      await server.close();
      wiring.dispose();
      await host.close();
      if (!opts.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

export function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
