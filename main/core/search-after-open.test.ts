/**
 * Search right after an interactive open (the app's): openCore returns once the model answers, before the sync
 * has begun its store load. searchReady() and search() answer for that open's index, not for the sync before it
 * (none): a word only in a note's body is found, never an empty answer from an index of nothing. The store is the
 * real Kùzu store, its search index held back until the test lets it go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openCore, type CoreHost } from './index.js';
import { heldSearchIndexStore } from '../store/test-helpers.js';

let dir = '';
let core: CoreHost | null = null;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-search-after-open-'));
  await mkdir(join(dir, 'vault', 'People'), { recursive: true });
  for (let i = 0; i < 40; i++) {
    const body = i === 17 ? 'She hides the quarnelite shard under the altar.' : `An ordinary villager, number ${i}.`;
    await writeFile(join(dir, 'vault', 'People', `Villager ${i}.md`), `---\ntype: character\n---\n${body}\n`);
  }
});
afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('search after an interactive open', () => {
  it('waits for this open\'s search index, then finds a word only a body holds', async () => {
    const { store, release, indexed } = heldSearchIndexStore();
    core = await openCore({ vaultDir: join(dir, 'vault'), dbDir: join(dir, 'db'), interactive: true, store });
    try {
      let ready = false;
      const readyP = core.searchReady().then(() => { ready = true; });
      const hitsP = core.search('quarnelite');
      await sleep(600);
      expect(indexed()).toBe(false);
      expect(ready).toBe(false);
      release();
      await readyP;
      expect(indexed()).toBe(true);
      const hits = await hitsP;
      expect(hits.map((h) => h.entity.name)).toEqual(['Villager 17']);
      // once ready, it stays ready: a later call answers at once
      await core.searchReady();
    } finally {
      release();
    }
  }, 60_000);
});
