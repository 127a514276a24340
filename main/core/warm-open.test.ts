/**
 * Opening again on a real-shaped vault (issue 15 point 6): notes whose files are unchanged come from the note
 * cache without their bodies (main/sync/body.ts reads a body from its file when asked), and what the open
 * builds equals a cold build of the same files — entities with their bodies, relationships, problems — after
 * files were changed, added, deleted and renamed while the vault was closed, and after schema.yaml changed.
 * Once the graph and search hold the notes, no body stays in memory.
 */
import { appendFileSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRealVault } from '../../bench/generate-real.js';
import type { ParsedNote } from '../parse/types.js';
import { loadVaultModel } from '../sync/load-model.js';
import { tempDir } from '../sync/test-helpers.js';
import { modelState } from '../model/test-helpers.js';
import { openCore } from './index.js';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });
/** the note cache trusts a file only when its timestamps lie 2 s before the snapshot (stat-cache.ts RACY_MARGIN_NS) */
const pastRacyMargin = () => new Promise((r) => setTimeout(r, 2100));

const bodyHeld = (n: ParsedNote) => Object.getOwnPropertyDescriptor(n, 'body')?.get === undefined;

describe('warm open of a real-shaped vault', () => {
  it('equals a cold build after changes made while closed, and holds no note body in memory', async () => {
    const dir = tempDir('lc-warm-');
    const db = tempDir('lc-warm-db-');
    tmp.push(dir, db);
    const g = await generateRealVault(dir, { notes: 160, seed: 5 });
    await pastRacyMargin();
    const first = await openCore({ vaultDir: dir, dbDir: db });
    await first.engine.searchReady();
    await first.close();

    // while closed: a body edited, a frontmatter edit, a note added, one deleted, one renamed (its links dangle)
    const [edited, retitled, deleted, renamed] = [g.paths[10]!, g.paths[20]!, g.paths[30]!, g.paths[40]!];
    appendFileSync(join(dir, edited), '\nA new line that mentions [[Nowhere Keep]].\n');
    const t = readFileSync(join(dir, retitled), 'utf8');
    writeFileSync(join(dir, retitled), t.replace(/^---\n/, '---\naliases: [The Renamed One]\n'));
    writeFileSync(join(dir, 'Characters/Newcomer.md'), `---\ntags: [npc]\n---\nArrived with [[${g.names[0]}]].\n`);
    rmSync(join(dir, deleted));
    renameSync(join(dir, renamed), join(dir, renamed.replace(/\.md$/, ' (moved).md')));
    await pastRacyMargin();

    const core = await openCore({ vaultDir: dir, dbDir: db });
    try {
      const hits = core.engine.timings.notesCached!;
      expect(hits.misses).toBe(4); // the edited, the retitled, the added, the renamed
      expect(hits.hits).toBe(g.paths.length - 4);
      const cold = await loadVaultModel(dir);
      expect(modelState(core.engine.model)).toEqual(modelState(cold.model));
      // the panel's body is the file's
      const moved = await core.getEntity(join(renamed.replace(/\.md$/, ' (moved).md')));
      expect(moved?.body).toBe(cold.model.note(moved!.path!)!.body);
      const fresh = await core.getEntity('Newcomer');
      expect(fresh?.body).toBe(`Arrived with [[${g.names[0]}]].\n`);
      // once search is ready, every body is read from its file when asked
      await core.engine.searchReady();
      await core.engine.settled();
      await new Promise((r) => setTimeout(r, 50));
      const held = [...core.engine.model.notes()].filter(bodyHeld).map((n) => n.path);
      expect(held).toEqual([]);
      expect(modelState(core.engine.model)).toEqual(modelState(cold.model));
      // a change applied afterwards: its note's body leaves memory too, and reads the new text
      writeFileSync(join(dir, edited), '---\ntags: [npc]\n---\nRewritten.\n');
      await core.engine.applyPaths([edited], 'disk');
      expect(core.engine.model.note(edited)!.body).toBe('Rewritten.\n');
      expect(bodyHeld(core.engine.model.note(edited)!)).toBe(false);
      expect((await core.store.getEntity(core.engine.model.entityIdOfPath(edited)!))?.body).toBe('Rewritten.\n');
    } finally {
      await core.close();
    }
  }, 120_000);

  it('re-types notes from cache when schema.yaml changed while closed (equal to a cold build)', async () => {
    const dir = tempDir('lc-warm-schema-');
    const db = tempDir('lc-warm-schema-db-');
    tmp.push(dir, db);
    await generateRealVault(dir, { notes: 60, seed: 9 });
    await pastRacyMargin();
    await (await openCore({ vaultDir: dir, dbDir: db })).close();
    writeFileSync(join(dir, 'schema.yaml'), 'version: 1\nentity_types:\n  - name: character\ntype_rules:\n  - { folder: Characters, type: character }\n');
    const core = await openCore({ vaultDir: dir, dbDir: db });
    try {
      expect(core.engine.timings.notesCached?.misses).toBe(0);
      expect(core.status().lastSync?.full).toBe(true);
      const cold = await loadVaultModel(dir);
      const state = modelState(core.engine.model);
      expect(state).toEqual(modelState(cold.model));
      expect([...core.engine.model.entities()].some((e) => e.type === 'character')).toBe(true);
      // the rebuilt graph holds the bodies, read from the files
      const one = [...core.engine.model.entities()].find((e) => e.type === 'character')!;
      expect((await core.store.getEntity(one.id))?.body).toBe(cold.model.entity(one.id)!.body);
    } finally {
      await core.close();
    }
  }, 120_000);
});
