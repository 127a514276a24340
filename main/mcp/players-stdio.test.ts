/**
 * `lorecraft mcp --audience players` as a real child process over stdio (the SDK's StdioClientTransport), and
 * a second players' client relayed through the first one's bridge: both list no write tool, neither finds
 * the GM-only note by its alias, both see the control canary. Bad flag combinations are usage errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, REPO } from './testkit.js';

const VAULT = fileURLToPath(new URL('../../e2e/vaults/player-secrets', import.meta.url));
let dir: string;

async function connect(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [CLI, 'mcp', ...args], cwd: REPO, stderr: 'pipe',
    env: { ...process.env, LORECRAFT_FROM_SOURCE: '1' } as Record<string, string>,
  });
  const client = new Client({ name: 'players-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-players-stdio-'));
  await cp(VAULT, join(dir, 'vault'), { recursive: true });
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('lorecraft mcp --audience players (stdio)', () => {
  it('serves the players view itself and to a relayed players client; no write tool', async () => {
    const vault = join(dir, 'vault');
    const first = await connect(['--vault', vault, '--audience', 'players', '--layer', 'campaign']);
    try {
      const second = await connect(['--vault', vault, '--audience', 'players', '--session', '2']);
      try {
        for (const c of [first, second]) {
          const tools = (await c.listTools()).tools.map((t) => t.name);
          expect(tools).toContain('get_entity');
          expect(tools).not.toContain('update_entity');
          const hidden = await c.callTool({ name: 'get_entity', arguments: { name: 'QSECRETALIAS' } });
          expect(hidden.isError).toBe(true);
          expect(JSON.stringify(hidden)).not.toMatch(/QSECRETGMBODY|QSECRETGMNAME/);
          const mira = JSON.stringify((await c.callTool({ name: 'get_entity', arguments: { name: 'Mira Vell' } })).structuredContent);
          expect(mira).toContain('QCONTROLPROP');
          expect(mira).not.toMatch(/QSECRET/);
        }
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  }, 90_000);

  it('refuses --read-write with --audience players, an unknown audience, and --session without players', () => {
    const run = (...a: string[]) => spawnSync(process.execPath, [CLI, 'mcp', '--vault', join(dir, 'vault'), ...a], { cwd: REPO, encoding: 'utf8', env: { ...process.env, LORECRAFT_FROM_SOURCE: '1' } });
    const rw = run('--audience', 'players', '--read-write');
    expect(rw.status).toBe(2);
    expect(rw.stderr).toContain('--read-write cannot go with --audience players');
    expect(run('--audience', 'everyone').status).toBe(2);
    expect(run('--session', '2').stderr).toContain('--layer and --session go with --audience players');
  });
});
