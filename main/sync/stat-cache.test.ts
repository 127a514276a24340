/**
 * The note cache (stat-cache.ts) over real files: unchanged files are not read again, a file whose content
 * changed is read again even when size and mtime were kept (its ctime or inode differ), and a racy entry (a
 * file whose timestamps lie within the margin of the snapshot) is never trusted.
 */
import { readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LayerMap } from '../model/layers.js';
import { loadVaultConfig } from '../config/load.js';
import { readVault } from './engine.js';
import { NoteCache } from './stat-cache.js';
import { tempDir, writeFiles } from './test-helpers.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });
const OPTS = { titleField: 'title' };
/** a read 10 s after the files were written: none of them is racy */
const later = () => Date.now() + 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function vault(): { dir: string; cacheFile: string; layers: LayerMap } {
  const dir = tempDir('lc-statcache-');
  tmp.push(dir);
  writeFiles(dir, {
    'a.md': '---\ntitle: Alpha\n---\nAlpha meets [[Beta]].\n',
    'b.md': '---\ntitle: Beta\n---\nBeta body.\n',
    'sub/c.md': 'Gamma body.\n',
  });
  // whole seconds: utimes can set them back exactly (to the nanosecond)
  for (const f of ['a.md', 'b.md', 'sub/c.md']) utimesSync(join(dir, f), 1_700_000_000, 1_700_000_000);
  return { dir, cacheFile: join(dir, '.notes.cache'), layers: new LayerMap(loadVaultConfig(dir).config) };
}

async function readWith(v: ReturnType<typeof vault>, now: () => number = later) {
  const cache = NoteCache.load(v.cacheFile, OPTS, now);
  const r = await readVault(v.dir, v.layers, OPTS, cache);
  cache.save();
  const body = (p: string) => r.read.notes.find((n) => n.path === p)?.body;
  return { cache, r, body };
}

describe('note cache', () => {
  it('takes unchanged notes from the cache, equal to a fresh parse', async () => {
    const v = vault();
    const first = await readWith(v);
    expect([first.cache.hits, first.cache.misses]).toEqual([0, 3]);
    const second = await readWith(v);
    expect([second.cache.hits, second.cache.misses]).toEqual([3, 0]);
    const fresh = await readVault(v.dir, v.layers, OPTS);
    const sorted = (ns: typeof fresh.read.notes) => [...ns].sort((x, y) => x.path.localeCompare(y.path));
    expect(sorted(second.r.read.notes)).toEqual(sorted(fresh.read.notes));
  });

  it('one cache, several whole-vault reads: after save() the snapshot comes back from the file (not kept in memory)', async () => {
    const v = vault();
    const cache = NoteCache.load(v.cacheFile, OPTS, later);
    await readVault(v.dir, v.layers, OPTS, cache);
    cache.save();
    expect([cache.hits, cache.misses]).toEqual([0, 3]);
    expect(cache.holds('a.md')).toBe(false); // let go until the next read begins
    const second = await readVault(v.dir, v.layers, OPTS, cache);
    expect([cache.hits, cache.misses]).toEqual([3, 0]);
    cache.save();
    // a file changed since: read again, the others still taken; equal to a fresh parse
    await sleep(20);
    writeFileSync(join(v.dir, 'b.md'), '---\ntitle: Beta\n---\nBeta, changed.\n');
    const third = await readVault(v.dir, v.layers, OPTS, cache);
    expect([cache.hits, cache.misses]).toEqual([2, 1]);
    const fresh = await readVault(v.dir, v.layers, OPTS);
    const sorted = (ns: typeof fresh.read.notes) => [...ns].sort((x, y) => x.path.localeCompare(y.path));
    expect(sorted(third.read.notes)).toEqual(sorted(fresh.read.notes));
    expect(second.read.notes.length).toBe(3);
  });

  it('re-reads a file rewritten with the same size and its mtime restored (ctime differs)', async () => {
    const v = vault();
    await readWith(v);
    const before = statSync(join(v.dir, 'b.md'), { bigint: true });
    await sleep(20);
    writeFileSync(join(v.dir, 'b.md'), '---\ntitle: Beta\n---\nBeta BODY.\n');
    utimesSync(join(v.dir, 'b.md'), 1_700_000_000, 1_700_000_000);
    const after = statSync(join(v.dir, 'b.md'), { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const again = await readWith(v);
    expect([again.cache.hits, again.cache.misses]).toEqual([2, 1]);
    expect(again.body('b.md')).toBe('Beta BODY.\n');
  });

  it('re-reads a file replaced by another of the same size and mtime (inode differs)', async () => {
    const v = vault();
    await readWith(v);
    writeFileSync(join(v.dir, 'c.tmp'), 'GAMMA body.\n');
    utimesSync(join(v.dir, 'c.tmp'), 1_700_000_000, 1_700_000_000);
    renameSync(join(v.dir, 'c.tmp'), join(v.dir, 'sub/c.md'));
    const again = await readWith(v);
    expect(again.cache.misses).toBe(1);
    expect(again.body('sub/c.md')).toBe('GAMMA body.\n');
  });

  it('never trusts an entry whose file was stamped within the margin of the snapshot (racy)', async () => {
    const v = vault();
    // the snapshot is taken 1 s after the files' ctime: a write in that second could keep every stat field
    const first = await readWith(v, () => Date.now() + 1000);
    expect(first.cache.misses).toBe(3);
    const again = await readWith(v);
    expect([again.cache.hits, again.cache.misses]).toEqual([0, 3]);
    // the same stat, outside the margin, is trusted
    const cache = NoteCache.load(v.cacheFile, OPTS);
    const st = statSync(join(v.dir, 'a.md'), { bigint: true });
    expect(cache.get('a.md', st, join(v.dir, 'a.md'))).toBeDefined();
  });

  it('ignores a cache of other parser options, and a damaged cache file', async () => {
    const v = vault();
    await readWith(v);
    const other = NoteCache.load(v.cacheFile, { titleField: 'name' }, later);
    await readVault(v.dir, v.layers, { titleField: 'name' }, other);
    expect(other.hits).toBe(0);
    writeFileSync(v.cacheFile, 'not a snapshot');
    const damaged = await readWith(v);
    expect([damaged.cache.hits, damaged.cache.misses]).toEqual([0, 3]);
    // a snapshot cut short (a crash while another process wrote it by hand, a full disk): ignored, read again
    const whole = readFileSync(v.cacheFile);
    for (const cut of [whole.length - 1, Math.floor(whole.length / 2), 8]) {
      writeFileSync(v.cacheFile, whole.subarray(0, cut));
      const truncated = await readWith(v);
      expect([truncated.cache.hits, truncated.cache.misses]).toEqual([0, 3]);
    }
  });

  it('stores no bodies: a cached note reads its body from its file, as it is now', async () => {
    const v = vault();
    await readWith(v);
    const raw = readFileSync(v.cacheFile).toString('latin1');
    expect(raw).toContain('Alpha');
    expect(raw).not.toContain('Beta body.');
    expect(raw).not.toContain('Gamma body.');
    const again = await readWith(v);
    expect(again.cache.hits).toBe(3);
    expect(again.body('a.md')).toBe('Alpha meets [[Beta]].\n');
    expect(again.body('sub/c.md')).toBe('Gamma body.\n');
    // changed since it was read: the body is the file's current one; deleted: ''
    writeFileSync(join(v.dir, 'b.md'), '\ufeff---\ntitle: Beta\n---\nBeta, rewritten.\n');
    expect(again.body('b.md')).toBe('Beta, rewritten.\n');
    rmSync(join(v.dir, 'sub/c.md'));
    expect(again.body('sub/c.md')).toBe('');
  });
});
