/**
 * A closed core lets go of the vault (warm15h, issue 15 point 6): whoever still holds the core after close()
 * (a shell's variable, a bench's list of results) holds an empty model, not the last sync's notes, records and
 * edges. A process that opens the vault again would otherwise carry the old model's heap into the new open,
 * whose collections then mark it (the bench's warm open of the real-shaped vault paid a major GC of it).
 */
import { rmSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRealVault } from '../../bench/generate-real.js';
import { tempDir } from '../sync/test-helpers.js';
import { openCore, type CoreHost } from './index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

/** weak references to what an open core holds of the vault (taken in a frame of its own: the test keeps none) */
function heldBy(core: CoreHost): { model: WeakRef<object>; note: WeakRef<object> } {
  const model = core.engine.model;
  let note: object | undefined;
  for (const n of model.notes()) { note = n; break; }
  if (!note) throw new Error('the model holds no note');
  return { model: new WeakRef(model), note: new WeakRef(note) };
}

async function collected(refs: { model: WeakRef<object>; note: WeakRef<object> }): Promise<boolean> {
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 10));
    gc();
  }
  return refs.model.deref() === undefined && refs.note.deref() === undefined;
}

describe('a closed core', () => {
  it('holds no model of the vault, whether its first sync was cold, warm or interactive', async () => {
    const dir = tempDir('lc-release-');
    tmp.push(dir);
    await generateRealVault(dir, { notes: 80, seed: 7 });
    for (const [label, opts] of [['cold', { full: true }], ['warm', {}], ['interactive', { full: true, interactive: true }]] as const) {
      const db = tempDir(`lc-release-db-${label}-`);
      tmp.push(db);
      if (label === 'warm') await (await openCore({ vaultDir: dir, dbDir: db })).close();
      const core = await openCore({ vaultDir: dir, dbDir: db, ...opts });
      expect(core.engine.model.counts().entities, label).toBeGreaterThan(0);
      expect((await core.list({ limit: 5 })).items.length, label).toBe(5);
      await core.engine.searchReady();
      const refs = heldBy(core);
      await core.close();
      expect(core.engine.model === refs.model.deref(), label).toBe(false);
      expect(core.engine.model.counts(), label).toEqual({ notes: 0, entities: 0, relationships: 0, placeholders: 0 });
      expect([...core.engine.model.notes()], label).toEqual([]);
      // `core` is still held here: what it held of the vault is garbage all the same
      expect(await collected(refs), label).toBe(true);
    }
  }, 60_000);
});
