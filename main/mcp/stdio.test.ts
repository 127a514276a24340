/**
 * `lorecraft mcp` as a real child process: the SDK's StdioClientTransport
 * against `node bin/lorecraft.mjs mcp --vault <temp>`; stdout carries only
 * JSON-RPC; a second process for the same vault relays to the first; and with
 * the web shell holding the vault, the stdio process relays to it (writes land
 * on disk through the web shell's core).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO, tempSampleVault } from './testkit.js';

const ENDPOINT = (dir: string) => join(dir, '.lorecraft', 'mcp-endpoint.json');

function stdioClient(args: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [CLI, 'mcp', ...args], cwd: REPO, stderr: 'pipe',
    env: { ...process.env, LORECRAFT_FROM_SOURCE: '1' } as Record<string, string>,
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => { stderr += c.toString(); });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  return { client, transport, stderr: () => stderr, connect: () => client.connect(transport) };
}

async function waitFor(cond: () => boolean, ms = 30_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const structured = (r: unknown) => (r as CallToolResult).structuredContent as Record<string, unknown>;

let dir: string;
beforeAll(async () => { dir = await tempSampleVault(); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('lorecraft mcp over stdio', () => {
  it('writes nothing but JSON-RPC on stdout, logs on stderr, and exits 0 when stdin closes', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--vault', dir], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
    const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await waitFor(() => out.includes('"id":1'), 60_000, 'initialize reply');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lookup', arguments: { name: 'Varo' } } });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_relationships', arguments: { name: 'Millbrook', depth: 99 } } });
    await waitFor(() => out.includes('"id":4'), 30_000, 'replies');
    expect(existsSync(ENDPOINT(dir))).toBe(true);
    expect(statSync(ENDPOINT(dir)).mode & 0o777).toBe(0o600);
    const exit = new Promise<number | null>((ok) => child.once('exit', (c) => ok(c)));
    child.stdin.end();
    expect(await exit).toBe(0);
    const lines = out.split('\n').filter((l) => l.length > 0);
    expect(lines.length).toBe(4);
    for (const l of lines) expect(JSON.parse(l)).toMatchObject({ jsonrpc: '2.0' });
    const byId = Object.fromEntries(lines.map((l) => JSON.parse(l) as { id: number; result: Record<string, unknown> }).map((m) => [m.id, m.result]));
    expect((byId[2]!.tools as unknown[]).length).toBe(14);
    expect(JSON.stringify(byId[3])).toContain('Captain Varo');
    expect(byId[4]!.isError).toBe(true);
    expect(err).toContain('serving');
    expect(existsSync(ENDPOINT(dir))).toBe(false); // the advertisement is removed on shutdown
    expect(existsSync(join(dir, '.lorecraft', 'lock'))).toBe(false);
  });

  it('serves the SDK client; a second process for the same vault relays to the first', async () => {
    const a = stdioClient(['--vault', dir, '--read-write']);
    await a.connect();
    const tools = await a.client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('create_entity');
    await waitFor(() => existsSync(ENDPOINT(dir)), 30_000, 'endpoint file');

    const b = stdioClient(['--vault', dir, '--read-write']);
    await b.connect();
    const r = await b.client.callTool({ name: 'get_entity', arguments: { name: 'Kira Ashwood' } });
    expect((structured(r).entity as { path: string }).path).toBe('setting/npcs/Kira Ashwood.md');
    expect(b.stderr()).toContain('relaying');
    const w = await b.client.callTool({ name: 'update_entity', arguments: { name: 'Kira Ashwood', set: { role: 'warden captain' } } });
    expect(w.isError, JSON.stringify(w.content)).toBeFalsy();
    expect(await readFile(join(dir, 'setting/npcs/Kira Ashwood.md'), 'utf8')).toContain('role: warden captain');
    // the owner sees the relayed write at once (same core)
    const seen = await a.client.callTool({ name: 'get_entity', arguments: { name: 'Kira Ashwood' } });
    expect((structured(seen).entity as { properties: Record<string, unknown> }).properties.role).toBe('warden captain');

    // the holder watches the files: an edit made outside Lorecraft shows up
    const note = join(dir, 'setting/npcs/Old Marrow.md');
    await writeFile(note, (await readFile(note, 'utf8')).replace(/^title: Old Marrow$/m, 'title: Old Marrow\nhonorific: the Cartographer'));
    let props: Record<string, unknown> = {};
    for (let i = 0; i < 100 && props.honorific !== 'the Cartographer'; i++) {
      await new Promise((ok) => setTimeout(ok, 200));
      const g = await b.client.callTool({ name: 'get_entity', arguments: { name: 'Old Marrow' } });
      props = (structured(g).entity as { properties: Record<string, unknown> }).properties;
    }
    expect(props.honorific).toBe('the Cartographer');

    // a read-only relay gets no write tools
    const c = stdioClient(['--vault', dir]);
    await c.connect();
    expect((await c.client.listTools()).tools.map((t) => t.name)).not.toContain('create_entity');
    await c.client.close();
    await b.client.close();
    await a.client.close();
    await waitFor(() => !existsSync(ENDPOINT(dir)), 30_000, 'endpoint removal');
  });

  it('a read-only holder refuses a read-write relay; a relay exits when its holder quits', async () => {
    const a = stdioClient(['--vault', dir]);
    await a.connect();
    await waitFor(() => existsSync(ENDPOINT(dir)), 30_000, 'endpoint file');
    const rw = spawn(process.execPath, [CLI, 'mcp', '--vault', dir, '--read-write'], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
    let rwErr = '';
    rw.stderr.on('data', (c: Buffer) => { rwErr += c.toString(); });
    expect(await new Promise((ok) => rw.once('exit', ok))).toBe(1);
    expect(rwErr).toMatch(/refused the MCP connection: .*read-write/);
    // it says who holds the vault and how to get write access
    expect(rwErr).toMatch(/holds this vault read-only .*To get write access, stop that server .* start `lorecraft mcp --read-write`/s);

    const b = spawn(process.execPath, [CLI, 'mcp', '--vault', dir], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
    let bErr = '';
    b.stderr.on('data', (c: Buffer) => { bErr += c.toString(); });
    await waitFor(() => bErr.includes('relaying'), 30_000, 'relay');
    const exited = new Promise((ok) => b.once('exit', ok));
    await a.client.close(); // the holder quits
    expect(await exited).toBe(0);
    expect(bErr).toContain('relay closed');
  });

  it('a bridge refuses a wrong token, and a stale endpoint file is ignored', async () => {
    await mkdir(join(dir, '.lorecraft'), { recursive: true });
    // stale: a dead pid. The process opens the vault itself and replaces the file.
    await writeFile(ENDPOINT(dir), JSON.stringify({ version: 1, host: '127.0.0.1', port: 9, token: 'x'.repeat(43), pid: 999_999_9 }));
    const a = stdioClient(['--vault', dir]);
    await a.connect();
    expect((await a.client.listTools()).tools.length).toBe(14);
    expect(a.stderr()).not.toContain('relaying');
    await waitFor(() => existsSync(ENDPOINT(dir)) && JSON.parse(readFileSync(ENDPOINT(dir), 'utf8')).pid !== 999_999_9, 30_000, 'fresh endpoint');
    const ep = JSON.parse(readFileSync(ENDPOINT(dir), 'utf8')) as { port: number };
    const { connect } = await import('node:net');
    const reply = await new Promise<string>((ok) => {
      const s = connect({ host: '127.0.0.1', port: ep.port }, () => s.write(JSON.stringify({ token: 'y'.repeat(43), mode: 'read' }) + '\n'));
      let got = '';
      s.on('data', (c) => { got += c.toString(); });
      s.on('close', () => ok(got));
    });
    expect(JSON.parse(reply)).toEqual({ ok: false, error: 'wrong token' });
    expect((await a.client.callTool({ name: 'lookup', arguments: { name: 'Varo' } })).isError).toBeFalsy();
    await a.client.close();
  });
});

describe('the bridge with the web shell running', () => {
  let web: ChildProcess | null = null;
  afterAll(async () => {
    if (web && web.exitCode === null) {
      const done = new Promise((ok) => web!.once('exit', ok));
      web.kill('SIGTERM');
      await done;
    }
  });

  it('relays a stdio client to the web shell that holds the vault; writes land on disk', async () => {
    const renderer = await mkdtemp(join(tmpdir(), 'lorecraft-renderer-'));
    await writeFile(join(renderer, 'index.html'), '<!doctype html><title>test</title>');
    web = spawn(process.execPath, [CLI, 'web', '--vault', dir, '--port', '0', '--renderer', renderer], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    web.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
    web.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
    await waitFor(() => out.includes('LORECRAFT_URL=') || web!.exitCode !== null, 60_000, 'web shell');
    expect(web.exitCode, err).toBeNull();
    await waitFor(() => existsSync(ENDPOINT(dir)), 30_000, 'endpoint file');
    const ep = JSON.parse(readFileSync(ENDPOINT(dir), 'utf8')) as { pid: number };
    expect(ep.pid).toBe(web.pid);

    const m = stdioClient(['--vault', dir, '--read-write']);
    await m.connect();
    const names = (await m.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['get_current_state', 'record_event']));
    const r = await m.client.callTool({ name: 'create_entity', arguments: { name: 'Bridge Keeper', type: 'npc', properties: { role: 'toll keeper' } } });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(structured(r).paths).toEqual(['setting/npcs/Bridge Keeper.md']);
    expect(await readFile(join(dir, 'setting/npcs/Bridge Keeper.md'), 'utf8')).toContain('role: toll keeper');
    expect(m.stderr()).toContain(`relaying to it`);
    await m.client.close();

    // shutting the web shell down removes the endpoint
    const done = new Promise((ok) => web!.once('exit', ok));
    web.kill('SIGTERM');
    await done;
    expect(existsSync(ENDPOINT(dir))).toBe(false);
    await rm(renderer, { recursive: true, force: true });
  });
});
