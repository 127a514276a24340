import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import { openCore, type CoreHost } from './index.js';

const FILES = {
  'Characters/Ash.md': '---\nmood: grim\nhome: "[[Millbrook]]"\n---\nAsh.\n',
  'Characters/Bryn.md': '---\nmood: calm\nhome: "[[Oakfield]]"\n---\nBryn.\n',
  'Places/Millbrook.md': '# Millbrook\n',
  'Places/Oakfield.md': '# Oakfield\n',
  '_templates/Character.md': '---\nmood:\nhome:\n---\n',
  'README.md': '# My world\n',
};

let core: CoreHost | null = null;
afterEach(async () => { await core?.close(); core = null; });

describe('schema setup through the core', () => {
  it('proposes from the open vault, writes both files on accept, and the reopened core is typed', async () => {
    const dir = tempDir();
    writeFiles(dir, FILES);
    core = await openCore({ vaultDir: dir });
    expect((await core.list()).items.every((e) => e.type === null)).toBe(true);
    const p = await core.schemaSetup().propose();
    expect(p.types.map((t) => [t.name, t.count])).toEqual([['character', 2], ['place', 2]]); // no template, no README
    expect(p.files.map((f) => [f.file, f.status])).toEqual([['lorecraft.yaml', 'new'], ['schema.yaml', 'new']]);
    const res = await core.schemaSetup().accept([]);
    expect(res).toMatchObject({ reload: true, pending: [] });
    expect(readFileSync(join(dir, 'schema.yaml'), 'utf8')).toBe(p.text);
    // re-type live = reopen (the shells' CoreSession.open): the new schema's fingerprint rebuilds the graph
    await core.close();
    core = await openCore({ vaultDir: dir });
    const ash = await core.getEntity('Ash');
    expect(ash?.type).toBe('character');
    expect(ash?.relations.map((r) => [r.type, r.other.name])).toEqual([['HOME', 'Millbrook']]);
    expect(core.problems().filter((x) => x.severity === 'error')).toEqual([]);
    // a second accept with the same choices writes nothing
    expect(await core.schemaSetup().accept([])).toMatchObject({ reload: false, files: [{ file: 'schema.yaml', status: 'unchanged' }] });
  });

  it('never overwrites an existing schema.yaml: its diff is returned and applied only once confirmed', async () => {
    const dir = tempDir();
    writeFiles(dir, { ...FILES, 'schema.yaml': 'entity_types: []\n' });
    core = await openCore({ vaultDir: dir });
    const choices = [{ id: 'folder:Characters', name: 'person', keep: true }];
    const view = await core.schemaSetup().preview(choices);
    const plan = view.files.find((f) => f.file === 'schema.yaml')!;
    expect(plan.status).toBe('differs');
    expect(plan.diff).toContain('-entity_types: []');
    expect(plan.diff).toContain('+  - name: person');
    const first = await core.schemaSetup().accept(choices);
    expect(first.files).toContainEqual({ file: 'schema.yaml', status: 'needs-confirm' });
    expect(readFileSync(join(dir, 'schema.yaml'), 'utf8')).toBe('entity_types: []\n');
    // a confirmation of other content (the file changed after the review) does not overwrite either
    expect((await core.schemaSetup().accept(choices, { 'schema.yaml': 'f'.repeat(64) })).files).toContainEqual({ file: 'schema.yaml', status: 'needs-confirm' });
    const done = await core.schemaSetup().accept(choices, { 'schema.yaml': plan.hash! });
    expect(done.files).toContainEqual({ file: 'schema.yaml', status: 'written' });
    expect(readFileSync(join(dir, 'schema.yaml'), 'utf8')).toBe(plan.text);
  });

  it('refuses unknown proposal ids and bad type names', async () => {
    const dir = tempDir();
    writeFiles(dir, FILES);
    core = await openCore({ vaultDir: dir });
    await expect(core.schemaSetup().preview([{ id: 'folder:Nope', name: 'x', keep: true }])).rejects.toMatchObject({ code: 'invalid' });
    await expect(core.schemaSetup().preview([{ id: 'folder:Characters', name: '9 lives', keep: true }])).rejects.toMatchObject({ code: 'invalid', details: { field: 'name' } });
  });
});
