/**
 * The collection after a huge body is dropped (huge15g, issue 15 point 6): a whole-vault sync that read a note
 * over HUGE_BODY_CHARS runs the engine's collectGarbage once, after the body left memory (the graph holds it)
 * and before the full-text index is built; a sync without such a note never runs it. Real files, real Kùzu.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { HUGE_BODY_CHARS } from '../store/types.js';
import { bodyInMemory } from './body.js';
import { closeEngine, openEngine, tempDir, writeFiles } from './test-helpers.js';

const LINE = 'The river winds past the ruined tower, and [[Harbour]] keeps its maps.\n';
const huge = `---\ntags: [history]\n---\n${LINE.repeat(Math.ceil((HUGE_BODY_CHARS + 1000) / LINE.length))}`;

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

async function run(files: Record<string, string>): Promise<Array<{ bodyInMemory: boolean | null; searchable: boolean }>> {
  const vault = tempDir('lc-hugegc-');
  const db = tempDir('lc-hugegc-db-');
  tmp.push(vault, db);
  writeFiles(vault, files);
  const calls: Array<{ bodyInMemory: boolean | null; searchable: boolean }> = [];
  let indexed = false;
  const e = await openEngine(vault, db, {
    collectGarbage: () => {
      const n = e.model.note('The Chronicle.md');
      calls.push({ bodyInMemory: n ? bodyInMemory(n) : null, searchable: indexed });
    },
  });
  try {
    await e.syncAll({ full: true });
    await e.searchReady();
    indexed = true;
    await e.settled();
    // an incremental change of a small note: no collection
    writeFiles(vault, { 'Harbour.md': 'A harbour town with charts.\n' });
    await e.applyPaths(['Harbour.md'], 'disk');
    await e.settled();
  } finally {
    await closeEngine(e);
  }
  return calls;
}

describe('the collection after a huge body is dropped', () => {
  it('runs once, after the body left memory and before search is ready', async () => {
    const calls = await run({ 'The Chronicle.md': huge, 'Harbour.md': 'A harbour town with maps.\n' });
    expect(calls).toEqual([{ bodyInMemory: false, searchable: false }]);
  });

  it('does not run for a vault without a huge note', async () => {
    const calls = await run({ 'The Chronicle.md': LINE.repeat(100), 'Harbour.md': 'A harbour town with maps.\n' });
    expect(calls).toEqual([]);
  });
});
