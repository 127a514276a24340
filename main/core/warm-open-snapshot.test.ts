/**
 * Warm open from the model snapshot (issue 15 point 6; main/model/snapshot.ts): opening a vault again with
 * nothing changed restores the model from `<dbDir>/model.snap` instead of resolving every note, and what it
 * holds equals a cold build of the files; a file changed while closed, a damaged snapshot or a changed
 * schema mean the model is built from the notes as before (never a wrong model), and the graph follows.
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRealVault } from '../../bench/generate-real.js';
import { loadVaultModel } from '../sync/load-model.js';
import { tempDir } from '../sync/test-helpers.js';
import { modelState } from '../model/test-helpers.js';
import { openCore } from './index.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

async function openState(dir: string, db: string) {
  const core = await openCore({ vaultDir: dir, dbDir: db });
  try {
    await core.engine.searchReady();
    const cold = await loadVaultModel(dir);
    const stored = await core.store.storedHashes();
    return {
      restored: core.engine.timings.modelRestored,
      skipped: core.engine.timings.storeHashesSkipped,
      same: JSON.stringify(modelState(core.engine.model)) === JSON.stringify(modelState(cold.model)),
      state: modelState(core.engine.model),
      cold: modelState(cold.model),
      storeInStep: [...stored].every(([p, h]) => core.engine.model.note(p)?.hash === h) && stored.size === [...core.engine.model.notes()].length,
    };
  } finally {
    await core.close();
  }
}

describe('warm open from the model snapshot', () => {
  it('restores an unchanged vault, rebuilds after a change, a damaged snapshot or a schema change', async () => {
    const dir = tempDir('lc-snapopen-');
    const db = tempDir('lc-snapopen-db-');
    tmp.push(dir, db);
    const g = await generateRealVault(dir, { notes: 120, seed: 8 });
    const snap = join(db, 'model.snap');

    const first = await openState(dir, db); // cold: built from the files, the snapshot saved
    expect(first.restored).toBe(false);
    expect(existsSync(snap)).toBe(true);

    const second = await openState(dir, db); // nothing changed: restored, equal to a cold build
    expect(second.restored).toBe(true);
    expect(second.skipped).toBe(true); // the store is as the snapshot saw it: its hashes were not read
    expect(second.state).toEqual(second.cold);
    expect(second.storeInStep).toBe(true);

    // a file changed while closed: its new content is in the model (built from the notes), and in the graph
    appendFileSync(join(dir, g.paths[5]!), '\nNow it knows [[Someone New Entirely]].\n');
    const third = await openState(dir, db);
    expect(third.restored).toBe(false);
    expect(third.state).toEqual(third.cold);
    expect(third.state.entities.some((e) => e.includes('"someone new entirely"') || e.includes('Someone New Entirely'))).toBe(true);
    expect(third.storeInStep).toBe(true);
    const fourth = await openState(dir, db); // and the snapshot saved then serves the next open
    expect(fourth.restored).toBe(true);
    expect(fourth.state).toEqual(fourth.cold);

    // a truncated snapshot: ignored, no crash, the model built from the notes
    const bytes = readFileSync(snap);
    writeFileSync(snap, bytes.subarray(0, bytes.length >> 2));
    const fifth = await openState(dir, db);
    expect(fifth.restored).toBe(false);
    expect(fifth.state).toEqual(fifth.cold);

    // a schema now exists: the snapshot (of the vault without one) is not used (its key differs)
    expect((await openState(dir, db)).restored).toBe(true);
    writeFileSync(join(dir, 'schema.yaml'), 'title_field: name\nentity_types:\n  - name: character\n    folder: Characters\n');
    const sixth = await openState(dir, db);
    expect(sixth.restored).toBe(false);
    expect(sixth.state).toEqual(sixth.cold);
  }, 240_000);

  it('reads the stored hashes when the store was written after the snapshot: a note changed while open, changed back while closed', async () => {
    const dir = tempDir('lc-snapgen-');
    const db = tempDir('lc-snapgen-db-');
    tmp.push(dir, db);
    const g = await generateRealVault(dir, { notes: 60, seed: 11 });
    expect((await openState(dir, db)).restored).toBe(false); // cold: the snapshot saved with the store's generation
    const file = join(dir, g.paths[3]!);
    const before = readFileSync(file);

    // changed while open: the store takes the change (a new generation); the snapshot is not saved again (restored)
    const core = await openCore({ vaultDir: dir, dbDir: db });
    try {
      expect(core.engine.timings.modelRestored).toBe(true);
      appendFileSync(file, '\nA line only this session saw [[Someone Passing Through]].\n');
      await core.engine.applyPaths([g.paths[3]!], 'disk');
      await core.engine.searchReady();
    } finally {
      await core.close();
    }
    // changed back while closed: the notes are exactly the snapshot's again, the store still holds the change
    writeFileSync(file, before);
    const back = await openState(dir, db);
    expect(back.restored).toBe(true);
    expect(back.skipped).toBe(false); // the store's generation is not the snapshot's: its hashes are compared
    expect(back.storeInStep).toBe(true); // and the change written back: the store follows the file
    expect(back.state).toEqual(back.cold);
  }, 240_000);
});
