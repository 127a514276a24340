/**
 * `GET /vault-file/<ref>` of the web shell over a real core (real Kùzu, real
 * files): images of the vault are served, with a sandboxing CSP; the token is
 * required; `..`, absolute paths, symlinks out and non-images are refused.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../app/handlers/index.js';
import { dispatch } from '../../shared/rpc.js';
import { startWebServer, type WebServer } from './server.js';
import { CoreSession } from '../core/index.js';
import { openCore } from '../core/index.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let dir: string;
let server: WebServer;
let session: CoreSession;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-asset-route-'));
  const vault = join(dir, 'vault');
  await mkdir(join(vault, 'art'), { recursive: true });
  await mkdir(join(dir, 'renderer'));
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(vault, 'Harbour.md'), '---\ntype: place\n---\n![[map of the isles.png|250]]\n');
  await writeFile(join(vault, 'art', 'map of the isles.png'), PNG);
  await writeFile(join(vault, 'art', 'evil.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  await writeFile(join(dir, 'secret.png'), Buffer.from('outside the vault'));
  await symlink(join(dir, 'secret.png'), join(vault, 'art', 'link-out.png'));
  session = new CoreSession(() => undefined, (v) => openCore({ vaultDir: v, watch: false }));
  server = await startWebServer({
    rendererDir: join(dir, 'renderer'), handlers: createHandlers(session), token: 't0k3n',
    readAsset: (ref) => session.current().readAsset(ref),
  });
  await session.open(vault);
});

afterAll(async () => {
  await server?.close();
  await session?.close();
  await rm(dir, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((ok, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}
const cookie = { cookie: 'lorecraft_token=t0k3n' };
const enc = encodeURIComponent;

describe('web shell: /vault-file/ (the vault\'s images)', () => {
  it('tells the renderer where images are served', async () => {
    const r = await dispatch('vault-asset-base', {}, { transport: 'ws' }, createHandlers(session));
    expect(r).toEqual({ ok: true, value: { base: '/vault-file/' } });
    const ipc = await dispatch('vault-asset-base', {}, { transport: 'ipc' }, createHandlers(session));
    expect(ipc).toEqual({ ok: true, value: { base: 'lorecraft-asset://vault/' } });
  });

  it('serves an image by file name (found anywhere in the vault) with the token cookie or query', async () => {
    const r = await get(`/vault-file/${enc('map of the isles.png')}`, cookie);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('image/png');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(String(r.headers['content-security-policy'])).toContain('sandbox');
    expect(r.body.equals(PNG)).toBe(true);
    expect((await get(`/vault-file/${enc('art/map of the isles.png')}?token=t0k3n`)).status).toBe(200);
  });

  it('an SVG is served sandboxed (its script cannot run in our origin)', async () => {
    const r = await get(`/vault-file/${enc('evil.svg')}`, cookie);
    expect(r.status).toBe(200);
    expect(String(r.headers['content-security-policy'])).toMatch(/default-src 'none'.*sandbox/);
  });

  it('refuses: no token, wrong token, .., absolute, symlink out, non-image, missing', async () => {
    expect((await get(`/vault-file/${enc('map of the isles.png')}`)).status).toBe(403);
    expect((await get(`/vault-file/${enc('map of the isles.png')}`, { cookie: 'lorecraft_token=nope' })).status).toBe(403);
    expect((await get(`/vault-file/${enc('../secret.png')}`, cookie)).status).toBe(403);
    expect((await get(`/vault-file/${enc('art/../../secret.png')}`, cookie)).status).toBe(403);
    expect((await get(`/vault-file/${enc(join(dir, 'secret.png'))}`, cookie)).status).toBe(403);
    expect((await get(`/vault-file/${enc('art/link-out.png')}`, cookie)).status).toBe(403);
    expect((await get(`/vault-file/${enc('link-out.png')}`, cookie)).status).toBe(403);
    expect((await get(`/vault-file/${enc('Harbour.md')}`, cookie)).status).toBe(403);
    expect((await get(`/vault-file/${enc('.lorecraft/lock')}`, cookie)).status).toBe(403);
    const missing = await get(`/vault-file/${enc('nowhere.png')}`, cookie);
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).not.toContain(dir); // no absolute path leaks
    expect((await get('/vault-file/%E0%A4%A', cookie)).status).toBe(400);
  });
});
