/**
 * The note cache (stat-cache.ts) over real files: unchanged files are not read again, a file whose content
 * changed is read again even when size and mtime were kept (its ctime or inode differ), and a racy entry (a
 * file whose timestamps lie within the margin of the snapshot) is never trusted.
 */
import { readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { LayerMap } from '../model/layers.js';
import { VaultModel } from '../model/model.js';
import { noteProperties } from '../model/refs.js';
import { decodeSnapshot, encodeSnapshot } from '../model/snapshot.js';
import { config, schemaView } from '../model/test-helpers.js';
import { loadVaultConfig } from '../config/load.js';
import type { ParsedNote } from '../parse/types.js';
import { readVault } from './engine.js';
import { unknownProperty } from '../problems/rules/schema-props.js';
import { NoteCache, PARSE_FORMAT, heavyPending, jsonExact } from './stat-cache.js';
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

/**
 * A warm open's model: `built` (a model loaded from `notes`, fresh parses) saved as a snapshot, then restored over
 * the notes read again from the cache (`cached`: their heavy parts still bytes until something reads them).
 */
async function restoredFromCache(v: ReturnType<typeof vault>, built: VaultModel, notes: ParsedNote[], sv: ReturnType<typeof schemaView>) {
  const cached = (await readWith(v)).r.read.notes;
  const decoded = decodeSnapshot(deserialize(serialize(encodeSnapshot(built, notes, 'k')!)), cached, 'k')!;
  const m = new VaultModel(config(), sv);
  m.restoreResolved(decoded.notes, decoded.idOrder, decoded.groups);
  return { m, cached };
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

  it('open() reads its file at the first whole-vault read (after the walk started), with the hits load() gives', async () => {
    const v = vault();
    await readWith(v);
    const cache = NoteCache.open(v.cacheFile, OPTS, later);
    const loaded = NoteCache.load(v.cacheFile, OPTS, later);
    const r = await readVault(v.dir, v.layers, OPTS, cache);
    expect([cache.hits, cache.misses]).toEqual([3, 0]);
    const r2 = await readVault(v.dir, v.layers, OPTS, loaded);
    expect([loaded.hits, loaded.misses]).toEqual([3, 0]);
    const sorted = (ns: typeof r.read.notes) => [...ns].sort((x, y) => x.path.localeCompare(y.path));
    expect(sorted(r.read.notes)).toEqual(sorted(r2.read.notes));
    // opened while the file is missing, the file written before the read: the read takes it (load() would not)
    rmSync(v.cacheFile);
    const gone = NoteCache.open(v.cacheFile, OPTS, later);
    await readWith(v);
    await readVault(v.dir, v.layers, OPTS, gone);
    expect([gone.hits, gone.misses]).toEqual([3, 0]);
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
    // (dated from the files' own ctime, not from the clock at the read: on a loaded machine the read can begin more
    // than a second after the write, and the files would then be outside the margin)
    const ctimeMs = Math.max(...['a.md', 'b.md', 'sub/c.md'].map((f) => statSync(join(v.dir, f)).ctimeMs));
    const first = await readWith(v, () => ctimeMs + 1000);
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

describe('note cache layout (frontmatter, links and problems read when first asked for)', () => {
  it('a cached note equals a fresh parse field by field, its heavy part deserialised only when read', async () => {
    const v = vault();
    writeFileSync(join(v.dir, 'd.md'), '---\ntitle: Delta\naliases: [D]\ntags: [x, y]\nfriends:\n  - "[[Alpha]]"\n  - { to: "[[Beta]]", since: 3 }\nbroken: [\n---\nSee [[Gamma]] #inline\n');
    utimesSync(join(v.dir, 'd.md'), 1_700_000_000, 1_700_000_000);
    await readWith(v);
    const again = await readWith(v);
    expect(again.cache.hits).toBe(4);
    const fresh = await readVault(v.dir, v.layers, OPTS);
    for (const f of fresh.read.notes) {
      const c = again.r.read.notes.find((n) => n.path === f.path)!;
      expect(heavyPending(c)).toBe(true);
      expect([c.path, c.hash, c.basename, c.title, c.aliases, c.tags, c.hasFrontmatter, c.bodyLine]).toEqual([f.path, f.hash, f.basename, f.title, f.aliases, f.tags, f.hasFrontmatter, f.bodyLine]);
      expect(heavyPending(c)).toBe(true);
      expect([c.frontmatter, c.fieldLines, c.bodyLinks, c.fieldLinks, c.problems]).toEqual([f.frontmatter, f.fieldLines, f.bodyLinks, f.fieldLinks, f.problems]);
      expect(heavyPending(c)).toBe(false);
      expect(Object.keys(c).sort()).toEqual(Object.keys(f).sort());
      expect({ ...c }).toEqual({ ...f });
    }
  });

  it("a record's properties read from a cached note leave its heavy part as bytes, equal to a fresh parse's (rss15i)", async () => {
    const v = vault();
    writeFileSync(join(v.dir, 'd.md'), '---\ntitle: Delta\naliases: [D]\ntags: [x, y]\nrank: 3\nfriends:\n  - "[[Alpha]]"\n  - { to: "[[Beta]]", since: 3 }\nlore: { era: old, list: [1, 2] }\n---\nSee [[Gamma]] #inline\n');
    utimesSync(join(v.dir, 'd.md'), 1_700_000_000, 1_700_000_000);
    await readWith(v);
    const again = await readWith(v);
    expect(again.cache.hits).toBe(4);
    const fresh = await readVault(v.dir, v.layers, OPTS);
    const sv = schemaView();
    for (const f of fresh.read.notes) {
      const c = again.r.read.notes.find((n) => n.path === f.path)!;
      expect(heavyPending(c)).toBe(true);
      expect(noteProperties(c, null, sv)).toEqual(noteProperties(f, null, sv));
      expect(noteProperties(c, null, sv)).toEqual(noteProperties(f, null, sv));
      expect(heavyPending(c)).toBe(true);
      // read as a note's field, it is decoded and kept, and its properties are the same
      expect(c.frontmatter).toEqual(f.frontmatter);
      expect(heavyPending(c)).toBe(false);
      expect(noteProperties(c, null, sv)).toEqual(noteProperties(f, null, sv));
      expect(Object.keys(c).sort()).toEqual(Object.keys(f).sort());
    }
    // through a model restored from its snapshot (a warm open): every record's properties read twice (the second kept)
    const fm = new VaultModel(config(), sv);
    fm.load(fresh.read.notes);
    const { m, cached } = await restoredFromCache(v, fm, fresh.read.notes, sv);
    expect(cached.every(heavyPending)).toBe(true);
    for (const r of m.entities()) {
      if (r.placeholder) continue;
      expect(r.properties).toEqual(fm.entity(r.id)!.properties);
      expect(r.properties).toEqual(fm.entity(r.id)!.properties);
    }
    expect(cached.every(heavyPending)).toBe(true);
  });

  it('the unknown-property rule over cached notes: the same problems, only the notes it reports decoded (rss15i)', async () => {
    const v = vault();
    writeFiles(v.dir, {
      'p1.md': '---\ntitle: P1\ntype: npc\nrank: 1\n---\nA.\n',
      'p2.md': '---\ntitle: P2\ntype: npc\nrank: 2\nmood: grim\n---\nB.\n',
    });
    for (const f of ['p1.md', 'p2.md']) utimesSync(join(v.dir, f), 1_700_000_000, 1_700_000_000);
    const sv = schemaView('entity_types:\n  - name: npc\n    properties:\n      - { name: rank, type: integer }\n');
    await readWith(v);
    const fresh = await readVault(v.dir, v.layers, OPTS);
    const fm = new VaultModel(config(), sv);
    fm.load(fresh.read.notes);
    const { m, cached } = await restoredFromCache(v, fm, fresh.read.notes, sv);
    const problems = unknownProperty.check({ model: m });
    expect(problems).toEqual(unknownProperty.check({ model: fm }));
    expect(problems.map((p) => [p.file, p.field, p.line])).toEqual([['p2.md', 'mood', 5]]);
    const pending = (p: string) => heavyPending(cached.find((n) => n.path === p)!);
    expect([pending('p1.md'), pending('a.md'), pending('p2.md')]).toEqual([true, true, false]);
  });

  it('saves never-read notes by copying their bytes: a cache saved after one change gives the same notes', async () => {
    const v = vault();
    await readWith(v);
    await readWith(v); // all from the cache, heavy parts unread
    await sleep(20);
    writeFileSync(join(v.dir, 'b.md'), '---\ntitle: Beta2\n---\nNow [[Alpha]].\n');
    const changed = await readWith(v); // b read again, a and c copied as bytes into the new file
    expect([changed.cache.hits, changed.cache.misses]).toEqual([2, 1]);
    expect(changed.r.read.notes.filter((n) => n.path !== 'b.md').every(heavyPending)).toBe(true);
    const next = await readWith(v, () => Date.now() + 10_000);
    expect(next.cache.hits).toBe(3);
    const fresh = await readVault(v.dir, v.layers, OPTS);
    const sorted = (ns: typeof fresh.read.notes) => [...ns].sort((x, y) => x.path.localeCompare(y.path)).map((n) => ({ ...n }));
    expect(sorted(next.r.read.notes)).toEqual(sorted(fresh.read.notes));
  });

  it('refuses a cache whose notes region was damaged (CRC), or of the older layout', async () => {
    const v = vault();
    await readWith(v);
    const stored = deserialize(readFileSync(v.cacheFile)) as { heavy: Uint8Array; entries?: unknown };
    stored.heavy[Math.floor(stored.heavy.length / 2)]! ^= 0x20;
    writeFileSync(v.cacheFile, serialize(stored));
    const damaged = await readWith(v);
    expect([damaged.cache.hits, damaged.cache.misses]).toEqual([0, 3]);
    // the layout before it (one v8 value of every parsed note): its key no longer matches
    const old = { key: `${PARSE_FORMAT}\n${JSON.stringify({ t: 'title', m: null })}`, takenAtNs: String(BigInt(Date.now() + 10_000) * 1_000_000n), entries: damaged.r.read.notes.map((n) => ['x', 'y', n]) };
    writeFileSync(v.cacheFile, serialize(old));
    const older = await readWith(v);
    expect([older.cache.hits, older.cache.misses]).toEqual([0, 3]);
    const after = await readWith(v);
    expect(after.cache.hits).toBe(3);
  });
});

describe('note cache heavy parts as JSON text when JSON gives them back exactly (mem15d)', () => {
  it('jsonExact: plain JSON values yes; -0, NaN, ±Infinity, undefined, holes, Dates, symbols, accessors, class instances no', () => {
    expect(jsonExact([{ a: 'x', b: [1, 2.5, -3], c: { d: null, e: true } }, {}, [], [], []])).toBe(true);
    const holey: unknown[] = [1];
    holey[2] = 3;
    const withExtra = Object.assign([1, 2], { extra: 1 });
    const accessor = Object.defineProperty({}, 'a', { get: () => 1, enumerable: true });
    for (const v of [-0, NaN, Infinity, -Infinity, undefined, holey, withExtra, new Date(0), { [Symbol('s')]: 1 }, accessor,
      new Map(), Object.create(null), JSON.parse('{"__proto__": 1}'), { a: { b: [undefined] } }, 1n]) {
      expect(jsonExact(v)).toBe(false);
    }
  });

  it('round-trips JSON-safe and v8-only frontmatter (.inf, .nan, -0) exactly, each in its own encoding', async () => {
    const v = vault();
    writeFileSync(join(v.dir, 'e.md'), '---\ntitle: Eps\nbig: .inf\nsmall: -.inf\nnope: .nan\nzero: -0\nlist: [1, -0.0, x]\n---\nEps [[Alpha]].\n');
    writeFileSync(join(v.dir, 'f.md'), '---\ntitle: Phi\ncount: 3\nratio: 0.5\nnested:\n  - { to: "[[Beta]]", since: 3, \u00e9t\u00e9: "\u2603 \ud83d\ude00" }\nempty:\n---\nPhi.\n');
    for (const f of ['e.md', 'f.md']) utimesSync(join(v.dir, f), 1_700_000_000, 1_700_000_000);
    await readWith(v);
    const stored = deserialize(readFileSync(v.cacheFile)) as { rel: string[]; off: Float64Array; heavy: Uint8Array };
    const first = (rel: string) => stored.heavy[stored.off[stored.rel.indexOf(rel)]!];
    expect(first('f.md')).toBe(0x5b); // JSON text
    expect(first('a.md')).toBe(0x5b);
    expect(first('e.md')).toBe(0xff); // v8 bytes: JSON would turn Infinity, NaN and -0 into null and 0
    const again = await readWith(v);
    expect(again.cache.hits).toBe(5);
    const fresh = await readVault(v.dir, v.layers, OPTS);
    const e = fresh.read.notes.find((n) => n.path === 'e.md')!;
    expect(e.frontmatter.big).toBe(Infinity);
    expect(Object.is(e.frontmatter.zero, -0)).toBe(true);
    for (const f of fresh.read.notes) {
      const c = again.r.read.notes.find((n) => n.path === f.path)!;
      expect({ ...c }).toEqual({ ...f });
      expect(Object.is((c.frontmatter as Record<string, unknown>).zero, (f.frontmatter as Record<string, unknown>).zero)).toBe(true);
      expect(Object.keys(c.frontmatter)).toEqual(Object.keys(f.frontmatter));
    }
  });
});
