/**
 * list()'s first pages (the app's first screen after an open) are selected from the records while the whole list is
 * not sorted yet (ViewShared.firstInOrder). Oracle: the same questions asked again once the whole list is sorted —
 * the answers that cut a page from it, as list() always did — on a generated vault with placeholders, types, tags
 * and duplicate names, for offsets, limits (0 and the largest selected page among them) and every filter.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVault } from '../../bench/generate.js';
import { tempDir } from '../sync/test-helpers.js';
import type { ListFilter } from './api.js';
import { openCore } from './index.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

describe("list()'s first pages", () => {
  it('equal the pages cut from the whole list sorted by name, for every filter', async () => {
    const dir = tempDir('lc-list-head-');
    tmp.push(dir);
    await generateVault(join(dir, 'v'), { entities: 700, avgLinks: 4, seed: 9, danglingRatio: 0.1 });
    const core = await openCore({ vaultDir: join(dir, 'v'), dbDir: join(dir, 'db'), full: true });
    try {
      const filters: ListFilter[] = [];
      for (const f of [{}, { placeholders: true }, { type: 'npc' }, { type: 'NPC', placeholders: true }, { tag: '#location' }, { tag: 'nosuchtag' }, { layer: 'world' }, { layer: 'nowhere' }]) {
        for (const [offset, limit] of [[0, 50], [0, 1], [5, 10], [0, 0], [40, 60], [0, 500], [495, 5], [690, 5]] as const) {
          filters.push({ ...f, offset, limit });
        }
      }
      // before the whole list is sorted: selected (nothing has asked for more than a first page yet)
      const selected = [];
      for (const f of filters) selected.push(await core.list(f));
      // the whole list sorted (a page past the first ones), then the same questions
      expect((await core.list({ offset: 600, limit: 10 })).items.length).toBe(10);
      const cut = [];
      for (const f of filters) cut.push(await core.list(f));
      expect(selected).toEqual(cut);
      // and both are the whole list's slices
      const all = (await core.list({ placeholders: true })).items;
      expect(all.length).toBeGreaterThan(700);
      expect(cut[filters.findIndex((f) => f.placeholders && f.offset === 40 && !f.type && !f.tag && !f.layer)]!.items).toEqual(all.slice(40, 100));
      // the questions reached pages of every kind: empty, partial, full, placeholders among them
      expect(selected.some((r) => r.items.length === 0 && r.total > 0)).toBe(true);
      expect(selected.some((r) => r.items.some((e) => e.placeholder))).toBe(true);
      expect(selected.some((r) => r.items.length === 500)).toBe(true);
    } finally {
      await core.close();
    }
  }, 60_000);
});
