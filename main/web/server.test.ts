/**
 * The web shell's server over the real core (a temp copy of the sample world,
 * real Kùzu, real watcher) and a real WebSocket client.
 */
import { cp, mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EventName } from '../../shared/contract.js';
import type { Reply, WsServerMessage } from '../../shared/rpc.js';
import { createHandlers } from '../app/handlers/index.js';
import { bundledSampleWorld } from './paths.js';
import { startWebServer, type WebServer } from './server.js';
import { CoreSession } from '../core/index.js';

let dir: string;
let server: WebServer;
let session: CoreSession;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-web-'));
  await cp(bundledSampleWorld(), join(dir, 'vault'), { recursive: true, filter: (s) => !s.includes('.lorecraft') });
  await mkdir(join(dir, 'renderer', 'assets'), { recursive: true });
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir, 'secret.txt'), 'outside the renderer');
  session = new CoreSession((event, payload) => server?.emit(event, payload));
  server = await startWebServer({ rendererDir: join(dir, 'renderer'), handlers: createHandlers(session) });
  await session.open(join(dir, 'vault'));
});

afterAll(async () => {
  await server?.close();
  await session?.close();
  await rm(dir, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((ok, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

function connect(query: string, origin = `http://127.0.0.1:${server.port}`): Promise<WebSocket | number> {
  return new Promise((ok) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws${query}`, { headers: { origin } });
    ws.on('open', () => ok(ws));
    ws.on('unexpected-response', (_q, res) => ok(res.statusCode ?? 0));
  });
}

function client(ws: WebSocket) {
  let id = 0;
  const pending = new Map<number, (r: Reply) => void>();
  const events: Array<{ event: EventName; payload: unknown }> = [];
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as WsServerMessage;
    if (m.kind === 'reply') pending.get(m.id)?.(m.reply); else events.push({ event: m.event, payload: m.payload });
  });
  return {
    events,
    call: (channel: string, payload: unknown) => new Promise<Reply>((ok) => {
      const i = ++id;
      pending.set(i, ok);
      ws.send(JSON.stringify({ id: i, channel, payload }));
    }),
  };
}

describe('web shell server', () => {
  it('serves the renderer only with the token (URL once, then the cookie it sets) and the right Host', async () => {
    expect((await get('/')).status).toBe(403);
    expect((await get('/?token=wrong')).status).toBe(403);
    const first = await get(`/?token=${server.token}`);
    expect(first.status).toBe(200);
    expect(String(first.headers['content-security-policy'])).toContain("script-src 'self'");
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toBe(`lorecraft_token=${server.token}`);
    expect((await get('/assets/app.js', { cookie })).body).toBe('console.log(1)');
    expect((await get('/assets/app.js', { cookie: 'lorecraft_token=nope' })).status).toBe(403);
    expect((await get(`/?token=${server.token}`, { host: `evil.example:${server.port}` })).status).toBe(403);
  });

  it('serves a file as it is on disk now (read anew per request), a big one whole, and a client-side route as index.html', async () => {
    const cookie = `lorecraft_token=${server.token}`;
    // bigger than the promise API's 512 kB read chunks, not ASCII-only
    const big = Array.from({ length: 120_000 }, (_, i) => `/* ${i} ė */`).join('\n');
    await writeFile(join(dir, 'renderer', 'assets', 'big.js'), big);
    const a = await new Promise<{ type: string; body: Buffer }>((ok, fail) => {
      const req = httpRequest({ host: '127.0.0.1', port: server.port, path: '/assets/big.js', headers: { cookie } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => ok({ type: String(res.headers['content-type']), body: Buffer.concat(parts) }));
      });
      req.on('error', fail);
      req.end();
    });
    expect(a.type).toMatch(/javascript/);
    expect(a.body.equals(Buffer.from(big))).toBe(true);
    await writeFile(join(dir, 'renderer', 'assets', 'big.js'), 'changed');
    expect((await get('/assets/big.js', { cookie })).body).toBe('changed');
    expect((await get('/some/route', { cookie })).body).toBe(await readFile(join(dir, 'renderer', 'index.html'), 'utf8'));
  });

  it('never serves a file outside the renderer folder', async () => {
    const res = await get(`/..%2Fsecret.txt?token=${server.token}`);
    expect(res.body).not.toContain('outside the renderer');
    const res2 = await get(`/%2e%2e/secret.txt?token=${server.token}`);
    expect(res2.body).not.toContain('outside the renderer');
  });

  it('refuses a WebSocket without the token or from a foreign origin', async () => {
    expect(await connect('')).toBe(403);
    expect(await connect('?token=nope')).toBe(403);
    expect(await connect(`?token=${server.token}`, 'http://evil.example')).toBe(403);
  });

  it('answers contract calls over the socket, validating payloads', async () => {
    const ws = await connect(`?token=${server.token}`);
    if (typeof ws === 'number') throw new Error(`refused ${ws}`);
    const c = client(ws);
    const status = await c.call('vault-status', {});
    expect(status).toMatchObject({ ok: true, value: { project: 'westlands' } });
    const varo = await c.call('entity-get', { nameOrId: 'Captain Varo' });
    expect(varo).toMatchObject({ ok: true, value: { id: 'setting/captain varo', path: 'setting/npcs/Captain Varo.md' } });
    expect(await c.call('entity-get', { nameOrId: 7 })).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await c.call('vault-delete', {})).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    ws.close();
  });

  it('pushes vault-changed and sync-status when a note changes on disk', async () => {
    const ws = await connect(`?token=${server.token}`);
    if (typeof ws === 'number') throw new Error(`refused ${ws}`);
    const c = client(ws);
    const file = join(dir, 'vault', 'setting', 'npcs', 'Tobin Reed.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('role: innkeeper', 'role: brewer'));
    // (the shell serves once the model answers: the open's own sync may push its vault-changed first)
    const ofTobin = () => c.events.find((e) => e.event === 'vault-changed' && (e.payload as { paths: string[] }).paths.length > 0);
    await expect.poll(() => Boolean(ofTobin()) && c.events.some((e) => e.event === 'sync-status'), { timeout: 10_000 }).toBe(true);
    const changed = ofTobin()!.payload as { paths: string[]; upserted: string[] };
    expect(changed.paths).toContain('setting/npcs/Tobin Reed.md');
    expect(changed.upserted).toContain('setting/tobin reed');
    const tobin = await c.call('entity-get', { nameOrId: 'Tobin Reed' });
    expect(tobin).toMatchObject({ ok: true, value: { properties: { role: 'brewer' } } });
    ws.close();
  });

  it('closes a socket that sends malformed messages', async () => {
    const ws = await connect(`?token=${server.token}`);
    if (typeof ws === 'number') throw new Error(`refused ${ws}`);
    const code = await new Promise<number>((ok) => { ws.on('close', (c) => ok(c)); ws.send('not json'); });
    expect(code).toBe(1003);
  });
});
