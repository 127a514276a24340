/**
 * The walk resolves only links (walk.ts): a folder listed as a folder has its parent's real path plus its name.
 * Checked against realpath: a folder reached through a link to a folder of the vault is seen once (the link is
 * a loop problem), folders under a linked folder outside the walked tree are walked, and a vault root reached
 * through a link works as the real root does.
 */
import { mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadVaultConfig } from '../config/load.js';
import { LayerMap } from '../model/layers.js';
import { tempDir, writeFiles } from './test-helpers.js';
import { walkVault } from './walk.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

describe('walk', () => {
  it('sees each real folder once, whichever way it is reached', async () => {
    const dir = tempDir('lc-walk-');
    tmp.push(dir);
    writeFiles(dir, { 'a/b/c/one.md': 'x', 'a/b/two.md': 'x', 'top.md': 'x' });
    mkdirSync(join(dir, 'z'));
    symlinkSync(join(dir, 'a'), join(dir, 'z', 'linked')); // a again, by a link: a loop, not walked twice
    const layers = new LayerMap(loadVaultConfig(dir).config);
    const w = await walkVault(dir, layers);
    expect([...w.files.keys()].sort()).toEqual(['a/b/c/one.md', 'a/b/two.md', 'top.md']);
    expect(w.problems.map((p) => `${p.code}:${p.file}`)).toEqual(['symlink-loop:z/linked']);
    for (const abs of w.files.values()) expect(realpathSync(abs).startsWith(realpathSync(dir))).toBe(true);
    // the vault opened through a link to it: the same notes, no problem
    const alias = join(tempDir('lc-walk-alias-'), 'vault');
    tmp.push(join(alias, '..'));
    symlinkSync(dir, alias);
    const viaLink = await walkVault(alias, layers);
    expect([...viaLink.files.keys()].sort()).toEqual([...w.files.keys()].sort());
    expect(viaLink.problems.map((p) => `${p.code}:${p.file}`)).toEqual(['symlink-loop:z/linked']);
  });
});
