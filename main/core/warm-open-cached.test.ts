/**
 * The warm open as the app does it (issue 15 point 6): nothing changed since the last run, so every note comes
 * from the note cache (stat unchanged, its frontmatter and links still bytes: sync/stat-cache.ts) and the model
 * from its snapshot (model/snapshot.ts). Oracle: what the core then answers equals a cold build of the files,
 * before and after an incremental change; a file rewritten while closed with its size and mtime kept (git's
 * racy case: only its ctime differs) is read again and its new content is in the model and the graph.
 */
import { rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRealVault } from '../../bench/generate-real.js';
import { modelState } from '../model/test-helpers.js';
import { loadVaultModel } from '../sync/load-model.js';
import { heavyPending } from '../sync/stat-cache.js';
import { tempDir } from '../sync/test-helpers.js';
import { openCore } from './index.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function storeInStep(core: Awaited<ReturnType<typeof openCore>>): Promise<boolean> {
  const stored = await core.store.storedHashes();
  return stored.size === [...core.engine.model.notes()].length && [...stored].every(([p, h]) => core.engine.model.note(p)?.hash === h);
}

describe('warm open from the note cache and the model snapshot', () => {
  it('equals a cold build, before and after a change; a racy rewrite while closed is picked up', async () => {
    const dir = tempDir('lc-warmcached-');
    const db = tempDir('lc-warmcached-db-');
    tmp.push(dir, db);
    const g = await generateRealVault(dir, { notes: 150, seed: 11 });
    // whole seconds: utimes can set them back exactly (to the nanosecond)
    for (const p of g.paths) utimesSync(join(dir, p), 1_700_000_000, 1_700_000_000);
    // the files' ctimes more than the racy margin (2 s) before the first read: the cache may trust them
    await sleep(2_300);
    const first = await openCore({ vaultDir: dir, dbDir: db });
    expect(first.engine.timings.modelRestored).toBe(false);
    await first.close();

    const warm = await openCore({ vaultDir: dir, dbDir: db });
    try {
      expect(warm.engine.timings.notesCached).toEqual({ hits: g.paths.length, misses: 0 });
      expect(warm.engine.timings.modelRestored).toBe(true);
      expect(warm.status().lastSync?.full).toBe(false);
      // nothing read the notes' frontmatter or links to open the vault
      expect([...warm.engine.model.notes()].every(heavyPending)).toBe(true);
      const cold = await loadVaultModel(dir);
      expect(modelState(warm.engine.model)).toEqual(modelState(cold.model));
      const some = [...cold.model.entities()].filter((e) => !e.placeholder).slice(0, 25);
      for (const e of some) {
        const got = await warm.getEntity(e.id);
        expect([got?.name, got?.type, got?.properties, got?.body]).toEqual([e.name, e.type, e.properties, e.body]);
        expect(warm.engine.model.referrers(e.id)).toEqual(cold.model.referrers(e.id));
      }
      // an incremental change on the restored model: equal to a cold build of the files afterwards
      const target = g.paths[3]!;
      writeFileSync(join(dir, target), `---\ntitle: Rewritten Note\ntags: [changed]\n---\nNow about [[${g.names[7]}]] and [[Nobody At All]].\n`);
      await warm.engine.applyPaths([target], 'disk');
      expect(modelState(warm.engine.model)).toEqual(modelState((await loadVaultModel(dir)).model));
      expect(await storeInStep(warm)).toBe(true);
    } finally {
      await warm.close();
    }

    // git's racy case: rewritten while closed with the same size and mtime (only the ctime moves)
    const victim = join(dir, g.paths[9]!);
    const before = statSync(victim, { bigint: true });
    const text = `---\ntitle: Same Size\n---\n`;
    writeFileSync(victim, text.padEnd(Number(before.size) - 1, 'x') + '\n');
    utimesSync(victim, 1_700_000_000, 1_700_000_000);
    const after = statSync(victim, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const again = await openCore({ vaultDir: dir, dbDir: db });
    try {
      expect(again.engine.timings.notesCached?.misses).toBeGreaterThanOrEqual(1);
      expect(again.engine.model.note(g.paths[9]!)?.title).toBe('Same Size');
      expect(modelState(again.engine.model)).toEqual(modelState((await loadVaultModel(dir)).model));
      expect(await storeInStep(again)).toBe(true);
    } finally {
      await again.close();
    }
  }, 240_000);
});
