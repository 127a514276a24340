/** AssetResolver on a real temp vault: resolution as Obsidian does it, and every refusal. */
import { mkdir, mkdtemp, rm, symlink, writeFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetResolver } from './assets.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let dir: string;
let vault: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-assets-'));
  vault = join(dir, 'vault');
  await mkdir(join(vault, 'art', 'maps', 'old'), { recursive: true });
  await mkdir(join(vault, '.obsidian'), { recursive: true });
  await writeFile(join(vault, 'art', 'maps', 'isles.png'), PNG);
  await writeFile(join(vault, 'art', 'maps', 'old', 'isles.png'), Buffer.from('old'));
  await writeFile(join(vault, 'Top.PNG'), PNG);
  await writeFile(join(vault, '.obsidian', 'hidden.png'), PNG);
  await writeFile(join(vault, 'note.md'), '# a note');
  await writeFile(join(dir, 'outside.png'), Buffer.from('outside'));
  await symlink(join(dir, 'outside.png'), join(vault, 'escape.png'));
  await symlink(dir, join(vault, 'out-folder'));
});

afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('AssetResolver', () => {
  it('reads a vault path, with its mime type', async () => {
    const a = await new AssetResolver(vault).read('art/maps/isles.png');
    expect(a).toMatchObject({ path: 'art/maps/isles.png', mime: 'image/png' });
    expect(a.bytes.equals(PNG)).toBe(true);
  });

  it('finds a bare file name anywhere in the vault, shortest path first, case-insensitively', async () => {
    const r = new AssetResolver(vault);
    expect((await r.read('isles.png')).path).toBe('art/maps/isles.png');
    expect((await r.read('old/isles.png')).path).toBe('art/maps/old/isles.png');
    expect((await r.read('top.png')).path).toBe('Top.PNG');
  });

  it('sees a file added later, and forgets one removed', async () => {
    const r = new AssetResolver(vault);
    await expect(r.read('late.gif')).rejects.toMatchObject({ code: 'not-found' });
    await writeFile(join(vault, 'art', 'late.gif'), Buffer.from('GIF89a'));
    await new Promise((ok) => setTimeout(ok, 2100)); // the index is rewalked at most every 2 s
    expect((await r.read('late.gif')).mime).toBe('image/gif');
    await unlink(join(vault, 'art', 'late.gif'));
    await expect(r.read('late.gif')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('refuses .., absolute paths, symlinks leaving the vault, non-images, dot-folders by name', async () => {
    const r = new AssetResolver(vault);
    await expect(r.read('../outside.png')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(r.read('art/../../outside.png')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(r.read(join(dir, 'outside.png'))).rejects.toMatchObject({ code: 'forbidden' });
    await expect(r.read('escape.png')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(r.read('out-folder/outside.png')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(r.read('outside.png')).rejects.toMatchObject({ code: 'not-found' }); // not found through the linked folder
    await expect(r.read('note.md')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(r.read('.obsidian/workspace.json')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(r.read('hidden.png')).rejects.toMatchObject({ code: 'not-found' });
    await expect(r.read('missing.png')).rejects.toMatchObject({ code: 'not-found' });
  });
});
