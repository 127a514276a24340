/**
 * Opening a vault (issue 15 point 6): an interactive open answers list, lookup and getEntity from the model
 * before the store's load is done; a warm open takes unchanged notes from the note cache and still sees a file
 * rewritten with the same size and its mtime restored.
 */
import { existsSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVault } from '../../bench/generate.js';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import { openCore } from './index.js';
import { createKuzuStore } from '../store/kuzu-store.js';
import type { GraphStore } from '../store/types.js';
import { nodeVaultFs, type VaultFs } from '../sync/ports.js';

const FILES: Record<string, string> = {
  'Captain Varo.md': '---\naliases: [The Captain]\ntags: [villain]\n---\nVaro burned [[Millbrook]] to the ground.\n',
  'Millbrook.md': '---\ntags: [place]\n---\nA quiet village near [[Vale]].\n',
  'Wren.md': 'A thief who loves the harbour. [[Captain Varo]]\n',
};
const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });
function vault(): { dir: string; db: string } {
  const dir = tempDir('lc-open-');
  const db = tempDir('lc-open-db-');
  tmp.push(dir, db);
  writeFiles(dir, FILES);
  return { dir, db };
}

describe('interactive open', () => {
  it('answers list, lookup and getEntity before the store has loaded the graph', async () => {
    const v = vault();
    const core = await openCore({ vaultDir: v.dir, dbDir: v.db, full: true, interactive: true });
    try {
      const order: string[] = [];
      const stored = core.store.counts().then((c) => { order.push('store'); return c; });
      expect(core.status().state).toBe('syncing');
      const page = await core.list();
      order.push('list');
      expect(page.items.map((e) => e.name)).toEqual(['Captain Varo', 'Millbrook', 'Wren']);
      expect((await core.lookup('The Captain'))[0]?.entity.name).toBe('Captain Varo');
      const varo = await core.getEntity('Captain Varo');
      order.push('entity');
      expect(varo?.relations.map((r) => r.other.name).sort()).toEqual(['Millbrook', 'Wren']);
      // the store answers once its load is done, with the whole graph
      expect(await stored).toMatchObject({ entities: 3, placeholders: 1 });
      expect(order).toEqual(['list', 'entity', 'store']);
      await core.engine.settled();
      expect(core.status().state).toBe('idle');
      expect((await core.search('harbour', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Wren']);
    } finally {
      await core.close();
    }
  });
});

describe("an interactive open of a vault's new database", () => {
  /** A real Kùzu store that notes when its open was told to wait, and when that wait ended. */
  function watchedStore(log: { after: boolean[]; settledAt: number[] }) {
    return (dbDir: string): GraphStore => {
      const s = createKuzuStore(dbDir);
      const open = s.open.bind(s);
      s.open = (schema, fp, opts) => {
        log.after.push(!!opts?.after);
        void Promise.resolve(opts?.after).then(() => log.settledAt.push(performance.now()));
        return open(schema, fp, opts);
      };
      return s;
    };
  }

  it('opens the database once the model answers, not while the notes are read; an existing one at once', async () => {
    const dir = tempDir('lc-open-defer-');
    const db = tempDir('lc-open-defer-db-');
    tmp.push(dir, db);
    await generateVault(dir, { entities: 600, avgLinks: 5, seed: 4, danglingRatio: 0.05 });
    const log = { after: [] as boolean[], settledAt: [] as number[] };
    let readAt = 0;
    const core = await openCore({
      vaultDir: dir, dbDir: db, full: true, interactive: true, store: watchedStore(log),
      onProgress: (p) => { if (p?.phase === 'reading' && p.done === p.total) readAt = performance.now(); },
    });
    try {
      expect(log.after).toEqual([true]);
      expect(readAt).toBeGreaterThan(0);
      // the wait ended after the last note was read (the model answered)
      expect(log.settledAt[0]).toBeGreaterThanOrEqual(readAt);
      // whatever the store is asked at once waits for the open and the load, and answers for the whole graph
      const counts = await core.store.counts();
      const m = core.engine.model.counts();
      expect(counts).toEqual({ entities: m.notes, relationships: m.relationships, placeholders: m.placeholders });
      expect(m.notes).toBe(600);
      expect(m.placeholders).toBeGreaterThan(0);
    } finally {
      await core.close();
    }
    const again = await openCore({ vaultDir: dir, dbDir: db, interactive: true, store: watchedStore(log) });
    await again.close();
    expect(log.after).toEqual([true, false]);
  }, 60_000);

  it('a read that fails before the model answers: the open is refused, nothing is left open or locked', async () => {
    const v = vault();
    const failing: VaultFs = { ...nodeVaultFs, read: async () => { throw new Error('the disk went away'); } };
    await expect(openCore({ vaultDir: v.dir, dbDir: v.db, full: true, interactive: true, fs: failing })).rejects.toThrow(/disk went away/);
    expect(existsSync(join(v.db, 'graph.kuzu'))).toBe(false);
    const core = await openCore({ vaultDir: v.dir, dbDir: v.db, full: true, interactive: true });
    try {
      expect((await core.list()).items.map((e) => e.name)).toEqual(['Captain Varo', 'Millbrook', 'Wren']);
      expect((await core.store.counts()).entities).toBe(3);
    } finally {
      await core.close();
    }
  }, 60_000);
});

describe("an interactive cold open's first answers", () => {
  it("are given before the model's edge maps are built, and equal the answers once everything is loaded", async () => {
    const dir = tempDir('lc-open-gen-');
    const db = tempDir('lc-open-gen-db-');
    tmp.push(dir, db);
    await generateVault(dir, { entities: 150, avgLinks: 5, seed: 21, danglingRatio: 0.1 });
    const core = await openCore({ vaultDir: dir, dbDir: db, full: true, interactive: true });
    try {
      // what the app's first screen asks: a page of the list, name searches, a few entity panels
      const ask = async () => {
        const page = await core.list({ limit: 50 });
        const all = await core.list({ placeholders: true });
        const names = page.items.slice(0, 6).map((e) => e.name);
        const lookups = await Promise.all(names.map((n) => core.lookup(n.slice(0, 3))));
        const panels = await Promise.all(page.items.slice(0, 8).map((e) => core.getEntity(e.id)));
        return JSON.stringify({ page, all, lookups, panels });
      };
      const early = await ask();
      expect(core.engine.model.edgesPending()).toBe(true);
      expect(early).toContain('"relations":[{');
      await core.engine.settled();
      expect(core.engine.model.edgesPending()).toBe(false);
      expect(await ask()).toBe(early);
    } finally {
      await core.close();
    }
  });
});

describe('warm open', () => {
  it('sees a note rewritten with the same size and its mtime restored', async () => {
    const v = vault();
    const file = join(v.dir, 'Wren.md');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    // the first open's snapshot must be taken after the racy margin (2 s) of every file's ctime
    await new Promise((r) => setTimeout(r, 2100));
    await (await openCore({ vaultDir: v.dir, dbDir: v.db })).close();
    const cached = statSync(join(v.db, 'notes.cache')).mtimeMs;
    const again = await openCore({ vaultDir: v.dir, dbDir: v.db });
    expect(again.engine.timings.notesCached).toEqual({ hits: 3, misses: 0 });
    await again.close();
    expect(statSync(join(v.db, 'notes.cache')).mtimeMs).toBe(cached);
    writeFileSync(file, 'A thief who loves the HARBOUR. [[Captain Varo]]\n');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    const core = await openCore({ vaultDir: v.dir, dbDir: v.db });
    try {
      expect(core.engine.timings.notesCached).toEqual({ hits: 2, misses: 1 });
      expect((await core.getEntity('Wren'))?.body).toContain('HARBOUR');
      expect((await core.store.getEntity((await core.getEntity('Wren'))!.id))?.body).toContain('HARBOUR');
    } finally {
      await core.close();
    }
  }, 30_000);
});
