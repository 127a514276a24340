/**
 * Defect 14i: query_graph's time limit and cancellation, with the real SDK client.
 * kuzu 0.11.3's Node binding cannot interrupt a running query (its native connection
 * offers only setQueryTimeout), so: a running query stops at the time limit (set by
 * `lorecraft mcp --query-timeout-ms N`), a cancelled request ends at once for the
 * client, and a query cancelled while it waits for the connection never reaches Kùzu.
 */
import { rm } from 'node:fs/promises';
import kuzu from 'kuzu';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TaskQueue } from '../domain/queue.js';
import { CLI, REPO, openHarness, tempSampleVault, textOf, type Harness } from './testkit.js';

// ~8e9 rows: runs for minutes unless Kùzu stops it (the `tag` makes each query's text unique)
const heavy = (tag: string) => `UNWIND range(1, 2000) AS a UNWIND range(1, 2000) AS b UNWIND range(1, 2000) AS c WITH a * b + c AS s WHERE s % 7 = 3 RETURN count(*) AS ${tag}`;

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i > 600) throw new Error(`never saw ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('lorecraft mcp --query-timeout-ms (child process, stdio)', () => {
  let dir: string;
  beforeAll(async () => { dir = await tempSampleVault(); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  it('stops a running query at the limit given on the command line, then serves again', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath, args: [CLI, 'mcp', '--vault', dir, '--query-timeout-ms', '300'], cwd: REPO, stderr: 'pipe',
      env: { ...process.env, LORECRAFT_FROM_SOURCE: '1', LORECRAFT_QUERY_TIMEOUT_MS: '600000' } as Record<string, string>,
    });
    const client = new Client({ name: 'query-limits', version: '1.0.0' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: 'query_graph', arguments: { cypher: heavy('n') } })) as CallToolResult;
      expect(r.isError).toBe(true);
      // the flag wins over the environment variable
      expect(textOf(r)).toMatch(/\(300 ms\).*--query-timeout-ms.*\[timeout\]/);
      const ok = (await client.callTool({ name: 'query_graph', arguments: { cypher: 'RETURN 1 AS x' } })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      expect(ok.structuredContent).toMatchObject({ rows: [{ x: 1 }] });
    } finally {
      await client.close();
    }
  });

  it('refuses a limit that is not a positive integer', async () => {
    const { spawnSync } = await import('node:child_process');
    for (const bad of ['0', '-5', '1.5', 'soon']) {
      const r = spawnSync(process.execPath, [CLI, 'mcp', '--vault', dir, '--query-timeout-ms', bad], { cwd: REPO, encoding: 'utf8', input: '' });
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toContain('--query-timeout-ms must be a positive integer');
    }
  });
});

describe('query_graph cancellation (real SDK client, InMemoryTransport)', () => {
  let h: Harness;
  beforeAll(async () => { h = await openHarness({ queryTimeoutMs: 1500 }); });
  afterAll(async () => { await h?.close(); });

  it('a cancelled running query ends at once for the client and stops at the limit; a cancelled queued one never reaches Kùzu', async () => {
    // what reaches Kùzu, and how each ended (a spy that calls through to the real connection)
    const reached = new Map<string, string>();
    const real = kuzu.Connection.prototype.query;
    const spy = vi.spyOn(kuzu.Connection.prototype, 'query').mockImplementation(function (this: InstanceType<typeof kuzu.Connection>, statement: string, ...rest: unknown[]) {
      reached.set(statement, 'running');
      const p = (real as (...a: unknown[]) => Promise<unknown>).call(this, statement, ...rest);
      p.then(() => reached.set(statement, 'done'), (e: unknown) => reached.set(statement, `failed: ${e instanceof Error ? e.message : String(e)}`));
      return p as ReturnType<typeof real>;
    });
    const runs = vi.spyOn(TaskQueue.prototype, 'run');
    try {
      const first = new AbortController();
      const second = new AbortController();
      const running = h.client.callTool({ name: 'query_graph', arguments: { cypher: heavy('first') } }, undefined, { signal: first.signal });
      await until(() => reached.has(heavy('first')), 'the first query reach Kùzu');
      // cancel the second once it waits in the store's read queue (behind the first)
      const queuedBefore = runs.mock.calls.length;
      const queued = h.client.callTool({ name: 'query_graph', arguments: { cypher: heavy('second') } }, undefined, { signal: second.signal });
      await until(() => runs.mock.calls.length > queuedBefore, 'the second query wait for the connection');
      first.abort('user cancelled');
      second.abort('user cancelled');
      await expect(running).rejects.toThrow();
      await expect(queued).rejects.toThrow();
      // the next query waits for the connection: it runs once Kùzu stopped the first at its limit
      const next = (await h.client.callTool({ name: 'query_graph', arguments: { cypher: 'RETURN 2 AS y' } })) as CallToolResult;
      expect(next.structuredContent).toMatchObject({ rows: [{ y: 2 }] });
      expect(reached.get(heavy('first'))).toMatch(/^failed: Interrupted/);
      expect(reached.has(heavy('second'))).toBe(false);
    } finally {
      spy.mockRestore();
      runs.mockRestore();
    }
  });
});
