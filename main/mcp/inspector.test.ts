/**
 * Smoke run of the MCP Inspector CLI (a client we did not write) against
 * `lorecraft mcp`: tools/list and one tools/call. Needs the npm registry or
 * npx's cache for @modelcontextprotocol/inspector@0.15.0.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO, tempSampleVault } from './testkit.js';

const run = promisify(execFile);
const inspector = (dir: string, ...method: string[]) => run('npx', [
  '-y', '@modelcontextprotocol/inspector@0.15.0', '--cli', process.execPath, CLI, 'mcp', '--vault', dir, ...method,
], { cwd: REPO, timeout: 240_000, env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }, maxBuffer: 16 * 1024 * 1024 });

let dir: string;
beforeAll(async () => { dir = await tempSampleVault(); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('MCP Inspector CLI', () => {
  it('lists the tools with their schemas and calls one', async () => {
    const list = JSON.parse((await inspector(dir, '--method', 'tools/list')).stdout) as { tools: Array<{ name: string; outputSchema?: unknown; annotations?: unknown }> };
    expect(list.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search_lore', 'lookup', 'get_entity', 'query_graph']));
    expect(list.tools.every((t) => t.outputSchema && t.annotations)).toBe(true);
    const call = JSON.parse((await inspector(dir, '--method', 'tools/call', '--tool-name', 'lookup', '--tool-arg', 'name=Varo')).stdout) as { structuredContent: { matches: Array<{ entity: { name: string } }> } };
    expect(call.structuredContent.matches[0]!.entity.name).toBe('Captain Varo');
  }, 300_000);
});
