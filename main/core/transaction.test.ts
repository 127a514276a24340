/**
 * One user action = one undo step, all or nothing: the editor's transaction(label, fn) through the
 * real core (Kùzu, real files) on a copy of the sample world. "Byte-identical" is checked over every
 * file of the vault (outside .lorecraft/).
 */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreError } from '../domain/errors.js';
import { openCore, type CoreHost } from './index.js';

const SAMPLE_WORLD = resolve(import.meta.dirname, '../../resources/sample-world');

let dir: string;
let vault: string;
let core: CoreHost;

async function snapshot(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) { if (e.name !== '.lorecraft') await walk(p); } else out.set(relative(vault, p), (await readFile(p)).toString('base64'));
    }
  };
  await walk(vault);
  return out;
}

const undoCount = () => core.editor.history().undo.length;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lc-core-tx-'));
  vault = join(dir, 'vault');
  await cp(SAMPLE_WORLD, vault, { recursive: true, filter: (s) => !s.includes('.lorecraft') });
  core = await openCore({ vaultDir: vault });
}, 60_000);

afterAll(async () => {
  await core?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('one user action = one undo step, all or nothing', () => {
  it('an event with 3 participants, a location and consequences is one undo step; undo restores every byte; redo re-applies', async () => {
    const before = await snapshot();
    const n = undoCount();
    const r = await core.recordEvent({
      layer: 'campaign', session: 7, title: 'Council at the Millwheel', date: '1203-06-01',
      participants: ['Captain Varo', 'Kira Ashwood', 'Tobin Reed'], location: 'Millbrook',
      consequences: [{ entity: 'Tobin Reed', property: 'status', set: 'missing' }],
      body: 'They met at the inn.\n',
    }, { origin: 'app' });
    expect(undoCount()).toBe(n + 1);
    expect(core.editor.history().undo[0]).toMatchObject({ label: 'record event Council at the Millwheel', paths: [r.path] });
    const written = await readFile(join(vault, r.path), 'utf8');
    expect(written).toMatch(/participants:.*Captain Varo.*Kira Ashwood.*Tobin Reed/s);
    expect(written).toMatch(/location: .*Millbrook/);
    expect(written).toMatch(/consequences:/);
    expect(written).toMatch(/They met at the inn\.\n$/);
    expect(r.changed.map((c) => c.path)).toEqual([r.path]);
    const ev = await core.getEntity(r.id);
    expect(ev?.relations.filter((x) => x.direction === 'out').map((x) => x.other.name).sort()).toEqual(['Captain Varo', 'Kira Ashwood', 'Millbrook', 'Tobin Reed']);

    const undone = await core.editor.undo();
    expect(undone.label).toBe('record event Council at the Millwheel');
    expect(await snapshot()).toEqual(before);
    expect(undoCount()).toBe(n);
    expect(await core.getEntity(r.id)).toBeNull();

    await core.editor.redo();
    expect(await readFile(join(vault, r.path), 'utf8')).toBe(written);
    expect(undoCount()).toBe(n + 1);
    await core.editor.undo();
  });

  it('an event whose second participant has no note fails part-way and leaves every file as it was', async () => {
    const before = await snapshot();
    const n = undoCount();
    const err = await core.recordEvent({
      layer: 'campaign', session: 7, title: 'A Meeting That Never Was',
      participants: ['Captain Varo', 'Nobody Of Note'], consequences: [{ entity: 'Captain Varo', property: 'status', set: 'missing' }],
    }, { origin: 'app' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoreError);
    expect((err as CoreError).code).toBe('not-found');
    expect(await snapshot()).toEqual(before);
    expect(undoCount()).toBe(n);
    expect(core.resolveEntity('A Meeting That Never Was')).toBeNull();
  });

  it('with placeholders an unknown participant is linked by name, still one undo step', async () => {
    const before = await snapshot();
    const n = undoCount();
    const r = await core.recordEvent({ layer: 'campaign', session: 7, title: 'Stranger at the Gate', participants: ['Kira Ashwood', 'A Hooded Stranger'], placeholders: true }, { origin: 'app' });
    expect(undoCount()).toBe(n + 1);
    expect(await readFile(join(vault, r.path), 'utf8')).toMatch(/A Hooded Stranger/);
    await core.editor.undo();
    expect(await snapshot()).toEqual(before);
  });

  it('a transaction over three notes with a conflict on the third puts the first two back byte-identical and keeps the other writer\'s bytes', async () => {
    const before = await snapshot();
    const n = undoCount();
    const tobin = 'setting/npcs/Tobin Reed.md';
    const theirs = before.has(tobin) ? Buffer.from(before.get(tobin)!, 'base64').toString('utf8').replace('role: innkeeper', 'role: brewer') : '';
    const ed = core.editor;
    const err = await ed.transaction('mark three unknown', async () => {
      await ed.setProperty('Captain Varo', 'status', 'unknown');
      await ed.setProperty('Kira Ashwood', 'status', 'unknown');
      await writeFile(join(vault, tobin), theirs); // another program writes while the action runs
      await ed.setProperty('Tobin Reed', 'status', 'unknown');
    }).catch((e: unknown) => e);
    expect((err as CoreError).code).toBe('conflict');
    expect((err as CoreError).details).toMatchObject({ path: tobin });
    const after = await snapshot();
    for (const [p, bytes] of before) if (p !== tobin) expect(after.get(p), p).toBe(bytes);
    expect(Buffer.from(after.get(tobin)!, 'base64').toString('utf8')).toBe(theirs);
    expect(undoCount()).toBe(n);
    await writeFile(join(vault, tobin), Buffer.from(before.get(tobin)!, 'base64'));
    await core.sync();
  });

  it('a successful transaction of several commands is one entry; undo puts back all of them', async () => {
    const before = await snapshot();
    const n = undoCount();
    const ed = core.editor;
    const out = await ed.transaction('two changes', async () => {
      await ed.setProperty('Captain Varo', 'status', 'unknown');
      await ed.setProperty('Captain Varo', 'status', 'dead');
      await ed.setProperty('Kira Ashwood', 'status', 'unknown');
      return 'ok';
    });
    expect(out.result).toBe('ok');
    expect(out.changed.map((c) => c.path).sort()).toEqual(['setting/npcs/Captain Varo.md', 'setting/npcs/Kira Ashwood.md']);
    expect(undoCount()).toBe(n + 1);
    await ed.undo();
    expect(await snapshot()).toEqual(before);
  });
});
