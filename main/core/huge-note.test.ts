/**
 * A note over 1 MiB (issue 15 point 6): the graph stores it shortened (store/kuzu/fts-text.ts) and its body
 * leaves memory once the graph holds it (sync/engine.ts), yet search finds a word that is only at its end, the
 * entity answers its whole body from the file, and an edit of its end is found after the change is applied.
 * Real files, real Kùzu.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bodyInMemory } from '../sync/body.js';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import { openCore } from './index.js';

const LINE = 'The river winds past the ruined tower where travellers tell of lights, and [[Harbour]] keeps its maps.\n';
const chronicle = (last: string): string => `---\ntags: [history]\n---\n# The Chronicle\n\n${LINE.repeat(Math.ceil(1_300_000 / LINE.length))}In the end came ${last}.\n`;

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

describe('a note over 1 MB', () => {
  it('is found by a word at its very end, answers its whole body, and its body is not kept in memory', async () => {
    const dir = tempDir('lc-huge-');
    const db = tempDir('lc-huge-db-');
    tmp.push(dir, db);
    writeFiles(dir, { 'The Chronicle.md': chronicle('Vorthandel'), 'Harbour.md': 'A harbour town with maps.\n' });
    const core = await openCore({ vaultDir: dir, dbDir: db, full: true });
    try {
      const note = core.engine.model.note('The Chronicle.md')!;
      // dropped once the graph held it, before search was ready
      expect(bodyInMemory(note)).toBe(false);
      await core.searchReady();
      const hits = await core.search('vorthandel');
      expect(hits.map((h) => h.entity.name)).toEqual(['The Chronicle']);
      expect(hits[0]?.snippet).toContain('«Vorthandel»');
      const e = await core.getEntity('The Chronicle');
      expect(e!.body.length).toBeGreaterThan(1_048_576);
      expect(e!.body.endsWith('In the end came Vorthandel.\n')).toBe(true);
      expect(e!.relations.map((r) => r.other.name)).toEqual(['Harbour']);
      // an edit at the end: the old word gone, the new one found
      writeFileSync(join(dir, 'The Chronicle.md'), chronicle('Quelmorrow'));
      await core.sync();
      await core.engine.settled();
      expect(await core.search('vorthandel')).toEqual([]);
      expect((await core.search('quelmorrow')).map((h) => h.entity.name)).toEqual(['The Chronicle']);
      expect((await core.search('harbour')).map((h) => h.entity.name).sort()).toEqual(['Harbour', 'The Chronicle']);
    } finally {
      await core.close();
    }
  });
});
