/**
 * The app's open (issue 15 point 6): CoreSession's real opener is interactive and reports its progress. With
 * the store's load held back (a real Kùzu store handed to openCore through its `store` port, whose load and
 * search index wait for the test), the session has pushed "files read / total", then `vault-opened`, and the
 * core answers list, name search and the entity panel, all while the graph is still loading; then
 * "indexing search…", then a status without progress once search is ready.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { progressLabel } from '../../shared/progress.js';
import type { SyncStatus } from '../../shared/types.js';
import { createKuzuStore } from '../store/kuzu-store.js';
import type { GraphStore } from '../store/types.js';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import type { PlayersLenses } from './audience.js';
import { GC_QUIET_MS } from './memory.js';
import { CoreSession, watchedOpener } from './session.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((res) => { open = res; });
  return { wait, open };
}

/** A real Kùzu store whose bulk load (RebuildSession.finish) and search index wait for their gates. */
function heldStore(load: Promise<void>, search: Promise<void>, log: string[]): (dbDir: string) => GraphStore {
  return (dbDir) => {
    const real = createKuzuStore(dbDir);
    return new Proxy(real, {
      get(target, key, receiver) {
        if (key === 'beginRebuild') {
          return async () => {
            const s = await real.beginRebuild();
            if (!s) return s;
            return {
              copyEntities: (es: Parameters<typeof s.copyEntities>[0]) => s.copyEntities(es),
              finish: async (es: Parameters<typeof s.finish>[0], edges: Parameters<typeof s.finish>[1]) => { await load; log.push('store loaded'); return s.finish(es, edges); },
              abort: () => s.abort(),
            };
          };
        }
        if (key === 'ensureSearchIndex') return async () => { await search; log.push('search indexed'); return real.ensureSearchIndex(); };
        const v = Reflect.get(target, key, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  };
}

describe('the app opens a vault interactively, with progress', () => {
  it('answers list, lookup and the entity before the store has loaded, and pushes reading / indexing progress', async () => {
    const dir = tempDir('lc-session-open-');
    const db = tempDir('lc-session-open-db-');
    tmp.push(dir, db);
    writeFiles(dir, {
      'Captain Varo.md': '---\naliases: [The Captain]\n---\nVaro burned [[Millbrook]].\n',
      'Millbrook.md': 'A quiet village.\n',
      'Wren.md': 'A thief who loves the harbour. [[Captain Varo]]\n',
    });
    const load = gate();
    const search = gate();
    const log: string[] = [];
    const pushed: Array<{ event: string; status?: SyncStatus }> = [];
    const session = new CoreSession((event, payload) => {
      pushed.push(event === 'sync-status' ? { event, status: payload as SyncStatus } : { event });
      if (event === 'vault-opened') log.push('vault-opened');
    }, watchedOpener({ dbDir: db, store: heldStore(load.wait, search.wait, log) }));
    try {
      const info = await session.open(dir);
      // open returned with the load still held back: the graph is not queryable yet
      expect(info.status.state).toBe('syncing');
      const core = session.current();
      // the session's open did not finish the model's edge maps for its status: the first answers come before them
      expect(core.engine.model.edgesPending()).toBe(true);
      expect(info.status.progress?.phase).toBe('loading');
      expect((await core.list()).items.map((e) => e.name)).toEqual(['Captain Varo', 'Millbrook', 'Wren']);
      expect((await core.lookup('The Captain'))[0]?.entity.name).toBe('Captain Varo');
      expect((await core.getEntity('Wren'))?.relations.map((r) => r.other.name)).toEqual(['Captain Varo']);
      expect(core.engine.model.edgesPending()).toBe(true);
      log.push('model answered');
      const labels = () => pushed.filter((p) => p.event === 'sync-status').map((p) => progressLabel(p.status!.progress))
        .filter((l, i, a) => i === 0 || l !== a[i - 1]);
      expect(labels()).toEqual(['reading 0 / 3 files', 'reading 3 / 3 files', 'loading the graph…']);
      expect(pushed.findIndex((p) => p.event === 'vault-opened')).toBeGreaterThan(pushed.findIndex((p) => p.status?.progress?.phase === 'loading'));

      // a note changed on disk while the graph loads is seen once the load is done (the watcher runs already)
      writeFileSync(join(dir, 'Millbrook.md'), 'A quiet village near [[Wren]].\n');
      const stored = core.store.counts();
      load.open();
      expect(await stored).toMatchObject({ entities: 3, relationships: 2, placeholders: 0 });
      await core.engine.settled();
      expect(core.status()).toMatchObject({ state: 'idle', progress: { phase: 'indexing' } });
      expect(labels().at(-1)).toBe('indexing search…');
      search.open();
      await core.searchReady();
      await new Promise((r) => setImmediate(r));
      expect(labels()).toEqual(['reading 0 / 3 files', 'reading 3 / 3 files', 'loading the graph…', 'indexing search…', '']);
      const last = pushed.filter((p) => p.event === 'sync-status').at(-1)!.status!;
      expect(last.state).toBe('idle');
      expect(last.progress).toBeUndefined();
      expect(core.status().progress).toBeUndefined();
      expect(log).toEqual(['vault-opened', 'model answered', 'store loaded', 'search indexed']);
      expect((await core.search('harbour', { limit: 5 })).map((h) => h.entity.name)).toEqual(['Wren']);
      await expect.poll(async () => (await core.getEntity('Millbrook'))?.body, { timeout: 10_000 }).toContain('near [[Wren]]');
      expect((await core.store.edgesOf(core.resolveEntity('Millbrook')!.id)).map((e) => e.to)).toContain(core.resolveEntity('Wren')!.id);
    } finally {
      load.open();
      search.open();
      await session.close();
    }
  }, 30_000);

  it('releases memory once, when the open has finished its background work, and not for a core closed before', async () => {
    const dir = tempDir('lc-session-release-');
    const db = tempDir('lc-session-release-db-');
    tmp.push(dir, db);
    writeFiles(dir, { 'A.md': 'Links [[B]].\n', 'B.md': 'Plain.\n' });
    const load = gate();
    const search = gate();
    const log: string[] = [];
    let released = 0;
    let preparedAtRelease: boolean | null = null;
    let busyFor: (() => number) | null = null;
    const session = new CoreSession(() => undefined, watchedOpener({ dbDir: db, store: heldStore(load.wait, search.wait, log) }), (_still, busy) => {
      released++;
      busyFor = busy;
      // the players' view's preparation (it starts 300 ms after search is ready) has ended: its garbage is collected too
      preparedAtRelease = (session.current() as unknown as { players: PlayersLenses }).players.prepared();
    });
    try {
      await session.open(dir);
      const core = session.current();
      load.open();
      await core.engine.settled();
      await new Promise((r) => setTimeout(r, 50));
      expect(released).toBe(0); // search still indexing
      search.open();
      await core.engine.backgroundDone();
      await expect.poll(() => released, { timeout: 5_000 }).toBe(1);
      expect(preparedAtRelease).toBe(true);
      expect(log).toEqual(['store loaded', 'search indexed']);
      // the release's collections wait while the app is in use: busy for GC_QUIET_MS after a command asked for the core
      await new Promise((r) => setTimeout(r, GC_QUIET_MS + 50));
      expect(busyFor!()).toBe(0);
      session.current();
      expect(busyFor!()).toBeGreaterThan(GC_QUIET_MS - 100);
      expect(busyFor!()).toBeLessThanOrEqual(GC_QUIET_MS);
      await new Promise((r) => setTimeout(r, GC_QUIET_MS + 50));
      expect(busyFor!()).toBe(0);
    } finally {
      load.open();
      search.open();
      await session.close();
    }
    // a core closed before its background work ends is not released for
    const dir2 = tempDir('lc-session-release2-');
    const db2 = tempDir('lc-session-release2-db-');
    tmp.push(dir2, db2);
    writeFiles(dir2, { 'C.md': 'Plain.\n' });
    const search2 = gate();
    let released2 = 0;
    const s2 = new CoreSession(() => undefined, watchedOpener({ dbDir: db2, store: heldStore(Promise.resolve(), search2.wait, []) }), () => { released2++; });
    await s2.open(dir2);
    const closing = s2.close();
    search2.open();
    await closing;
    await new Promise((r) => setTimeout(r, 50));
    expect(released2).toBe(0);
  }, 30_000);
});
