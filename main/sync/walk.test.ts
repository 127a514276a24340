/**
 * The walk resolves only links (walk.ts): a folder listed as a folder has its parent's real path plus its name.
 * Checked against realpath: a folder reached through a link to a folder of the vault is seen once (the link is
 * a loop problem), folders under a linked folder outside the walked tree are walked, and a vault root reached
 * through a link works as the real root does.
 */
import { mkdirSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadVaultConfig } from '../config/load.js';
import { LayerMap } from '../model/layers.js';
import { tempDir, writeFiles } from './test-helpers.js';
import { childBase, isNotePath, isSkippedDir, walkVault } from './walk.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

describe('walk', () => {
  it("childBase(dir) + name is join(dir, name) for any folder spelling", () => {
    const dirs = ['/', '/a', '/a/', '/a//b', '/a/./b/', '/a/b/..', '/a/b/../', 'a', 'a/', './a', '.', './', '', '..', '../a/.', '/a/b/c/../../d'];
    const names = ['x.md', 'Note.MD', '.hidden', '...', '..md', 'a b', 'é.md', 'x'];
    for (const d of dirs) for (const n of names) expect(childBase(d) + n).toBe(join(d, n));
  });
  it('gives each file the path join(root, rel) however the root is spelled', async () => {
    const dir = tempDir('lc-walk-root-');
    tmp.push(dir);
    writeFiles(dir, { 'A.md': '# A\n', 'sub/B.md': '# B\n', 'sub/deeper/C.md': '# C\n' });
    const layers = new LayerMap(loadVaultConfig(dir).config);
    for (const root of [dir, `${dir}/`, `${dir}//sub/..`, `${dir}/./`]) {
      const { files } = await walkVault(root, layers);
      expect([...files.keys()].sort()).toEqual(['A.md', 'sub/B.md', 'sub/deeper/C.md']);
      for (const [rel, abs] of files) expect(abs).toBe(join(root, rel));
    }
  });
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

  it('keeps exactly the files isNotePath keeps (layers, excludes, templates, repository files, case, dot files)', async () => {
    const dir = tempDir('lc-walk-notes-');
    tmp.push(dir);
    const files = [
      'top.md', 'Upper.MD', '.hidden.md', 'README.md', 'docs/README.md', 'notes.txt', 'md', 'a.md.bak',
      'A/one.md', 'A/one.Md', 'A/B/two.md', 'A/B/C/three.md', 'A/Bee/four.md', 'A/Bee/x.md', 'A/Bee/.x.md',
      'Templates/npc.md', 'x/_templates/t.md', 'Notes/Sub/s.md', 'Notes/n.md', 'W/Z/w.md', 'W/w.md',
      'Art/map.excalidraw.md', 'Campaign/secret/plan.md', 'Campaign/open.md', 'Other/o.md', '.obsidian/x.md',
      'node_modules/p/readme.md', 'A/.dot/in.md',
    ];
    writeFiles(dir, Object.fromEntries(files.map((f) => [f, `# ${f}`])));
    writeFileSync(join(dir, 'lorecraft.yaml'), [
      'layers:',
      '  - name: world',
      '    paths: [A, W, Notes, Art, top.md, Upper.MD, README.md, docs]',
      '  - name: campaign',
      '    paths: [Campaign, A/B/C, A/Bee/x.md]',
      'exclude: ["A/B/", "**/*.excalidraw.md", "Notes/Sub/", "W/*"]',
      '',
    ].join('\n'));
    const layers = new LayerMap(loadVaultConfig(dir).config);
    const all: string[] = [];
    const list = (rel: string) => {
      for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) { if (!isSkippedDir(e.name) && !layers.isExcluded(r)) list(r); } else all.push(r);
      }
    };
    list('');
    const want = all.filter((r) => isNotePath(r, layers)).sort();
    const w = await walkVault(dir, layers);
    expect([...w.files.keys()].sort()).toEqual(want);
    // the vault gives the filter something to keep and something to drop on each rule
    expect(want).toEqual(['A/Bee/four.md', 'A/Bee/x.md', 'A/one.Md', 'A/one.md', 'Campaign/open.md', 'Campaign/secret/plan.md', 'Notes/n.md', 'Upper.MD', 'docs/README.md', 'top.md'].sort());
    for (const [rel, abs] of w.files) expect(abs).toBe(join(dir, rel));
  });
});
