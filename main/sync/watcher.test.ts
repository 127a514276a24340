/**
 * The vault watcher on real folders: which folders it watches, and that
 * created / renamed / moved / removed folders, atomic rename-over writes and
 * in-place writes reach a batch, while dot-folders, node_modules and excluded
 * folders never do. No timing assertions: every wait is for an event, with a
 * generous deadline that only turns a hang into a failure.
 */
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEngine, dumpStore, openEngine, tempDir, writeFiles } from './test-helpers.js';
import { VaultWatcher } from './watcher.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });
function vaultDir(): string { const d = tempDir('lc-watch-'); tmp.push(d); return d; }

const EXCLUDED = ['Templates', 'private'];
const isExcluded = (rel: string) => rel.split('/').some((s) => EXCLUDED.includes(s));

/** A watcher plus a stand-in for the model: the set of notes seen to exist, and every path batched. */
async function watched(root: string, known: string[] = []) {
  const notes = new Set(known);
  const batched: string[] = [];
  const waiters: Array<{ pred: () => boolean; resolve: () => void }> = [];
  const w = new VaultWatcher({
    root,
    isNote: (rel) => rel.endsWith('.md') && !isExcluded(rel) && !rel.split('/').some((s) => s.startsWith('.')),
    isIgnoredDir: isExcluded,
    knownUnder: (dir) => [...notes].filter((p) => p.startsWith(dir + '/')),
    onBatch: async (paths) => {
      for (const p of paths) {
        batched.push(p);
        if (existsSync(join(root, p))) notes.add(p); else notes.delete(p);
      }
      for (const x of [...waiters]) if (x.pred()) { waiters.splice(waiters.indexOf(x), 1); x.resolve(); }
    },
    quietMs: 8,
    maxWaitMs: 100,
  });
  await w.start();
  /** resolves once every path was batched (after `since` batched entries) */
  const sees = (paths: string[], since = batched.length): Promise<void> => new Promise((resolve, reject) => {
    const pred = () => paths.every((p) => batched.slice(since).includes(p));
    if (pred()) { resolve(); return; }
    const t = setTimeout(() => reject(new Error(`not batched within 45 s: ${paths.filter((p) => !batched.slice(since).includes(p)).join(', ')}`)), 45_000);
    waiters.push({ pred, resolve: () => { clearTimeout(t); resolve(); } });
  });
  return { w, notes, batched, sees };
}

describe('VaultWatcher', () => {
  it('watches folders only, skipping dot-folders, node_modules, excluded folders and symlinked folders', async () => {
    const root = vaultDir();
    writeFiles(root, {
      'A.md': 'a', 'npcs/B.md': 'b', 'npcs/deep/C.md': 'c', '.obsidian/w.md': 'x', '.git/x': 'x',
      'node_modules/m/r.md': 'x', 'Templates/t.md': 't', 'npcs/private/p.md': 'p',
    });
    symlinkSync(join(root, 'npcs'), join(root, 'linked'));
    const { w } = await watched(root);
    try {
      expect(w.watchedDirs()).toEqual(['', 'npcs', 'npcs/deep']);
    } finally { await w.close(); }
  });

  it('sees in-place writes, creations, deletions and a file replaced by a rename (then written in place again)', async () => {
    const root = vaultDir();
    writeFiles(root, { 'A.md': 'a', 'sub/B.md': 'b' });
    const { w, sees } = await watched(root, ['A.md', 'sub/B.md']);
    try {
      let s = sees(['A.md']);
      writeFileSync(join(root, 'A.md'), 'a2');
      await s;
      s = sees(['sub/N.md']);
      writeFileSync(join(root, 'sub/N.md'), 'new');
      await s;
      // another editor's atomic save: temp file beside the note, renamed over it
      s = sees(['sub/B.md']);
      writeFileSync(join(root, 'sub/.B.md.swp'), 'b2');
      renameSync(join(root, 'sub/.B.md.swp'), join(root, 'sub/B.md'));
      await s;
      // the replaced file (a new inode) is still watched through its folder
      s = sees(['sub/B.md']);
      writeFileSync(join(root, 'sub/B.md'), 'b3');
      await s;
      s = sees(['A.md']);
      rmSync(join(root, 'A.md'));
      await s;
    } finally { await w.close(); }
  });

  it('follows the vault folder itself when it is a symbolic link', async () => {
    const real = vaultDir();
    const parent = vaultDir();
    writeFiles(real, { 'sub/A.md': 'a' });
    const root = join(parent, 'vault-link');
    symlinkSync(real, root);
    const { w, sees } = await watched(root, ['sub/A.md']);
    try {
      expect(w.watchedDirs()).toEqual(['', 'sub']);
      const s = sees(['sub/A.md']);
      writeFileSync(join(real, 'sub/A.md'), 'a2');
      await s;
    } finally { await w.close(); }
  });

  it('a folder created with notes in it (nested) is announced and watched', async () => {
    const root = vaultDir();
    writeFiles(root, { 'A.md': 'a' });
    const { w, sees } = await watched(root, ['A.md']);
    try {
      const s = sees(['new/X.md', 'new/deeper/Y.md']);
      mkdirSync(join(root, 'new/deeper'), { recursive: true });
      writeFileSync(join(root, 'new/X.md'), 'x');
      writeFileSync(join(root, 'new/deeper/Y.md'), 'y');
      await s;
      expect(w.watchedDirs()).toEqual(['', 'new', 'new/deeper']);
      const s2 = sees(['new/deeper/Z.md']);
      writeFileSync(join(root, 'new/deeper/Z.md'), 'z');
      await s2;
    } finally { await w.close(); }
  });

  it('a renamed folder announces the old and the new paths and is watched under its new name', async () => {
    const root = vaultDir();
    writeFiles(root, { 'old/A.md': 'a', 'old/in/B.md': 'b' });
    const { w, sees } = await watched(root, ['old/A.md', 'old/in/B.md']);
    try {
      const s = sees(['old/A.md', 'old/in/B.md', 'new/A.md', 'new/in/B.md']);
      renameSync(join(root, 'old'), join(root, 'new'));
      await s;
      expect(w.watchedDirs()).toEqual(['', 'new', 'new/in']);
      const s2 = sees(['new/in/C.md']);
      writeFileSync(join(root, 'new/in/C.md'), 'c');
      await s2;
    } finally { await w.close(); }
  });

  it('folders moved in from outside the vault and out of it, removed, and re-created under the same name', async () => {
    const root = vaultDir();
    const outside = vaultDir();
    writeFiles(outside, { 'pack/P.md': 'p', 'pack/sub/Q.md': 'q' });
    writeFiles(root, { 'gone/G.md': 'g', 'keep/K.md': 'k' });
    const { w, sees } = await watched(root, ['gone/G.md', 'keep/K.md']);
    try {
      let s = sees(['pack/P.md', 'pack/sub/Q.md']);
      renameSync(join(outside, 'pack'), join(root, 'pack'));
      await s;
      s = sees(['pack/P.md', 'pack/sub/Q.md']);
      renameSync(join(root, 'pack'), join(outside, 'pack'));
      await s;
      s = sees(['gone/G.md']);
      rmSync(join(root, 'gone'), { recursive: true });
      await s;
      expect(w.watchedDirs()).toEqual(['', 'keep']);
      // removed and re-created at once: the new folder (another inode) is the one watched
      s = sees(['keep/K2.md']);
      rmSync(join(root, 'keep'), { recursive: true });
      mkdirSync(join(root, 'keep'));
      writeFileSync(join(root, 'keep/K2.md'), 'k2');
      await s;
      s = sees(['keep/K3.md']);
      writeFileSync(join(root, 'keep/K3.md'), 'k3');
      await s;
      expect(w.watchedDirs()).toEqual(['', 'keep']);
    } finally { await w.close(); }
  });

  it('never batches dot-folders, node_modules, excluded folders or non-notes', async () => {
    const root = vaultDir();
    writeFiles(root, { 'A.md': 'a', 'Templates/T.md': 't' });
    const { w, batched, sees } = await watched(root, ['A.md']);
    try {
      writeFiles(root, {
        '.lorecraft/db.md': 'x', '.git/HEAD': 'x', 'node_modules/m/r.md': 'x', 'Templates/T.md': 't2',
        'Templates/new/N.md': 'n', 'private/P.md': 'p', 'notes.txt': 'x', '.hidden.md': 'x',
      });
      mkdirSync(join(root, 'x/private'), { recursive: true });
      writeFileSync(join(root, 'x/private/Q.md'), 'q');
      // a marker written last: once it is batched, everything before it was seen
      const s = sees(['marker.md']);
      writeFileSync(join(root, 'marker.md'), 'm');
      await s;
      await w.flushNow();
      expect(batched).toEqual(['marker.md']);
      expect(w.watchedDirs()).toEqual(['', 'x']);
    } finally { await w.close(); }
  });
});

describe('SyncEngine with the watcher', () => {
  it('a folder renamed outside the app moves its notes in model and store (equal to a fresh sync)', async () => {
    const vault = vaultDir();
    const db = vaultDir();
    writeFiles(vault, { 'Places/Millbrook.md': 'near [[Oldmere]]\n', 'Places/far/Oldmere.md': 'old\n', 'Hub.md': '[[Millbrook]]\n' });
    const e = await openEngine(vault, db);
    try {
      await e.syncAll();
      await e.startWatching();
      const done = new Promise<void>((resolve) => {
        const off = e.onChange((ev) => { if (ev.paths.includes('Lands/far/Oldmere.md') || e.model.note('Lands/far/Oldmere.md')) { off(); resolve(); } });
      });
      renameSync(join(vault, 'Places'), join(vault, 'Lands'));
      await done;
      await e.settled();
      expect([...e.model.notes()].map((n) => n.path).sort()).toEqual(['Hub.md', 'Lands/Millbrook.md', 'Lands/far/Oldmere.md']);
      expect((await e.store.getEntity('main/millbrook'))?.path).toBe('Lands/Millbrook.md');
      const db2 = vaultDir();
      const f = await openEngine(vault, db2);
      try {
        await f.syncAll({ full: true });
        expect(await dumpStore(e.store)).toEqual(await dumpStore(f.store));
      } finally { await closeEngine(f); }
    } finally { await closeEngine(e); }
  });
});
