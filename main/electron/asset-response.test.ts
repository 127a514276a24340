/** The Electron asset protocol's answers, over the core's AssetResolver on a real temp vault. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetResolver } from '../assets/assets.js';
import { assetResponse } from './asset-response.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let dir: string;
let read: (ref: string) => Promise<{ mime: string; bytes: Buffer }>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-asset-proto-'));
  await mkdir(join(dir, 'vault', 'art'), { recursive: true });
  await writeFile(join(dir, 'vault', 'art', 'map.png'), PNG);
  await writeFile(join(dir, 'vault', 'Note.md'), '# n');
  await writeFile(join(dir, 'out.png'), PNG);
  await symlink(join(dir, 'out.png'), join(dir, 'vault', 'link.png'));
  const r = new AssetResolver(join(dir, 'vault'));
  read = (ref) => r.read(ref);
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const status = async (url: string, method = 'GET') => (await assetResponse(url, method, read)).status;

describe('lorecraft-asset://vault/<ref>', () => {
  it('serves a vault image by name or path, sandboxed', async () => {
    const res = await assetResponse('lorecraft-asset://vault/map.png', 'GET', read);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect(await status('lorecraft-asset://vault/art%2Fmap.png')).toBe(200);
  });

  it('refuses .., absolute paths, symlinks out, notes, other hosts and methods, bad encodings', async () => {
    expect(await status(`lorecraft-asset://vault/${encodeURIComponent('../out.png')}`)).toBe(403);
    expect(await status(`lorecraft-asset://vault/${encodeURIComponent(join(dir, 'out.png'))}`)).toBe(403);
    expect(await status('lorecraft-asset://vault/link.png')).toBe(403);
    expect(await status('lorecraft-asset://vault/Note.md')).toBe(403);
    expect(await status('lorecraft-asset://vault/none.png')).toBe(404);
    expect(await status('lorecraft-asset://elsewhere/map.png')).toBe(404);
    expect(await status('lorecraft-asset://vault/map.png', 'POST')).toBe(404);
    expect(await status('lorecraft-asset://vault/%E0%A4%A')).toBe(400);
  });
});
