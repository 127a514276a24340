/**
 * The edit-* group end to end below the wire: real core (Kùzu) on a temp copy
 * of the sample world, calls through `dispatch` (zod in and out), files checked on disk.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sampleSession } from './test-session.js';

const h = sampleSession('lorecraft-edit-h-');
const { call, refusal } = h;
let vault: string;

const read = (rel: string) => readFile(join(vault, rel), 'utf8');

beforeAll(() => {
  ({ vault } = h);
});

const ALDOUS = 'setting/npcs/Brother Aldous.md';
const TOBIN = 'setting/npcs/Tobin Reed.md';

describe('edit-* handlers', () => {
  it('edit-form returns the schema of the type, the raw frontmatter and the exact body', async () => {
    const f = await call('edit-form', { nameOrId: 'Brother Aldous' });
    const text = await read(ALDOUS);
    expect(f.entity.type).toBe('npc');
    expect(f.properties.find((p) => p.name === 'status')).toMatchObject({ type: 'enum', values: ['alive', 'dead', 'unknown'] });
    expect(f.mappings.find((m) => m.field === 'faction')).toMatchObject({ relationship: 'MEMBER_OF', cardinality: 'list' });
    expect(f.values['faction']).toEqual(['[[Order of the Lantern]]']);
    expect(text.endsWith(f.body)).toBe(true);
    expect(text.slice(0, text.length - f.body.length).endsWith('---\n')).toBe(true);
  });

  it('edit-set changes one line; undo restores the bytes; redo re-applies', async () => {
    const before = await read(ALDOUS);
    const r = await call('edit-set', { nameOrId: 'Brother Aldous', field: 'status', value: 'dead' });
    expect(r.changed.map((c) => c.path)).toEqual([ALDOUS]);
    expect(r.event.origin).toBe('app');
    const after = await read(ALDOUS);
    const a = before.split('\n');
    const b = after.split('\n');
    expect(b.length).toBe(a.length);
    expect(a.map((l, i) => (l === b[i] ? null : [l, b[i]])).filter(Boolean)).toEqual([['status: alive', 'status: dead']]);
    const h = await call('edit-history', {});
    expect(h.undo[0]?.label).toBe('set status on Brother Aldous');
    const u = await call('edit-undo', {});
    expect(u.label).toBe('set status on Brother Aldous');
    expect(await read(ALDOUS)).toBe(before);
    await call('edit-redo', {});
    expect(await read(ALDOUS)).toBe(after);
    await call('edit-undo', {});
  });

  it('refuses an invalid value with code invalid and leaves the file alone', async () => {
    const path = 'setting/settlements/Millbrook.md';
    const before = await read(path);
    for (const value of ['abc', 3.5]) {
      const err = await refusal('edit-set', { nameOrId: 'Millbrook', field: 'population', value });
      expect(err.code).toBe('invalid');
      expect(err.message).toMatch(/population/);
    }
    expect((await refusal('edit-set', { nameOrId: 'Brother Aldous', field: 'status', value: 'sleepy' })).code).toBe('invalid');
    expect(await read(path)).toBe(before);
    expect((await refusal('edit-set', { nameOrId: 'Brother Aldous' })).code).toBe('bad-request');
  });

  it('edit-allowed-relationships names both directions, ready for edit-link', async () => {
    const npc = (await call('edit-form', { nameOrId: 'Brother Aldous' })).entity.id;
    const fac = (await call('edit-form', { nameOrId: 'Iron Guild' })).entity.id;
    const fwd = await call('edit-allowed-relationships', { fromId: npc, toId: fac });
    expect(fwd.map((a) => a.label)).toEqual(expect.arrayContaining(['MEMBER_OF', 'LEADS', 'RELATED_TO']));
    expect(fwd.find((a) => a.label === 'MEMBER_OF')).toMatchObject({ from: npc, to: fac, on: 'from', field: 'faction' });
    const back = await call('edit-allowed-relationships', { fromId: fac, toId: npc });
    expect(back.find((a) => a.label === 'HAS_MEMBER')).toMatchObject({ from: fac, rel: 'HAS_MEMBER', to: npc, on: 'to', field: 'faction' });
    expect(back.find((a) => a.label === 'LED_BY')).toMatchObject({ on: 'from', field: 'leader' });
    // npc -> npc KNOWS is offered once though both ends map it
    const npc2 = (await call('edit-form', { nameOrId: 'Captain Varo' })).entity.id;
    expect((await call('edit-allowed-relationships', { fromId: npc, toId: npc2 })).filter((a) => a.label === 'KNOWS')).toHaveLength(1);

    const hm = back.find((a) => a.label === 'HAS_MEMBER')!;
    const before = await read(ALDOUS);
    await call('edit-link', { from: hm.from, rel: hm.rel, to: hm.to });
    expect(await read(ALDOUS)).toBe(before.replace('faction: ["[[Order of the Lantern]]"]', 'faction: ["[[Order of the Lantern]]", "[[Iron Guild]]"]'));
    const rel = await call('relations-get', { nameOrId: 'Brother Aldous', type: 'MEMBER_OF' });
    expect(rel.entities.map((e) => e.name)).toContain('Iron Guild');
    await call('edit-unlink', { from: npc, rel: 'MEMBER_OF', to: fac });
    expect(await read(ALDOUS)).toBe(before);
  });

  it('a link the holder layer cannot see is refused with the reason; a scalar already set says what it replaces', async () => {
    const tobin = (await call('edit-form', { nameOrId: 'Tobin Reed' })).entity.id;
    const nm = (await call('edit-form', { nameOrId: 'New Millbrook' })).entity.id;
    const opts = await call('edit-allowed-relationships', { fromId: tobin, toId: nm });
    const located = opts.find((o) => o.field === 'location' && o.on === 'from');
    expect(located?.refused).toMatch(/Tobin Reed is in the setting layer, which cannot see New Millbrook \(campaign layer\)/);
    const before = await read(TOBIN);
    const err = await refusal('edit-link', { from: located!.from, rel: located!.rel, to: located!.to });
    expect(err).toMatchObject({ code: 'invalid' });
    expect(err.message).toMatch(/cannot see New Millbrook/);
    expect(await read(TOBIN)).toBe(before);
    // setting -> setting: allowed, and the single-valued location says what it would replace
    const oldmere = (await call('edit-form', { nameOrId: 'Oldmere' })).entity.id;
    const o2 = (await call('edit-allowed-relationships', { fromId: tobin, toId: oldmere })).find((o) => o.field === 'location' && o.on === 'from');
    expect(o2?.refused).toBeUndefined();
    expect(o2?.replaces).toBe('[[Millbrook]]');
  });

  it('edit-link with placeholder writes a name with no note; edit-unlink removes it again', async () => {
    const before = await read(ALDOUS);
    await call('edit-link', { from: 'Brother Aldous', rel: 'KNOWS', to: 'Nobody Yet', placeholder: true });
    const after = await read(ALDOUS);
    expect(after).toMatch(/knows:[\s\S]*Nobody Yet/);
    expect((await refusal('edit-link', { from: 'Brother Aldous', rel: 'KNOWS', to: 'Somebody Else' })).code).toBe('not-found');
    await call('edit-unlink', { from: 'Brother Aldous', rel: 'KNOWS', to: 'Nobody Yet' });
    expect(await read(ALDOUS)).not.toContain('Nobody Yet');
    await call('edit-undo', {});
    expect(await read(ALDOUS)).toBe(after);
    await call('edit-undo', {});
    expect(await read(ALDOUS)).toBe(before);
  });

  it('edit-body writes the body only; create + delete; conflict when the file changed on disk', async () => {
    const f = await call('edit-form', { nameOrId: 'Brother Aldous' });
    const before = await read(ALDOUS);
    await call('edit-body', { nameOrId: f.entity.id, body: f.body + '\nHe knows [[Captain Varo]].\n' });
    expect(await read(ALDOUS)).toBe(before + '\nHe knows [[Captain Varo]].\n');
    const c = await call('edit-create', { type: 'npc', name: 'Test Person', properties: { status: 'alive' } });
    expect(c.path).toBe('setting/npcs/Test Person.md');
    expect(await read(c.path)).toMatch(/status: alive/);
    const d = await call('edit-delete', { nameOrId: 'Test Person' });
    expect(d.trashPath).toMatch(/^\.lorecraft\/trash\//);
    expect((await refusal('edit-create', { type: 'dragon', name: 'X' })).code).toBe('invalid');

    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(vault, ALDOUS), before + 'typed in Obsidian\n');
    const err = await refusal('edit-set', { nameOrId: 'Brother Aldous', field: 'role', value: 'abbot' });
    expect(err.code).toBe('conflict');
  });

  it('delete: the preview lists the referrers; the trash lists the file; undo and restore bring back the same bytes', async () => {
    const before = await read(TOBIN);
    const p = await call('edit-delete-preview', { nameOrId: 'Tobin Reed' });
    expect(p).toMatchObject({ name: 'Tobin Reed', path: TOBIN });
    expect(p.referrers.map((r) => r.name)).toEqual(expect.arrayContaining(['New Millbrook', 'Millbrook', 'Kira Ashwood']));
    expect(p.referrers.map((r) => r.path)).not.toContain(TOBIN);
    const d = await call('edit-delete', { nameOrId: 'Tobin Reed' });
    const trash = await call('edit-trash', {});
    expect(trash[0]).toMatchObject({ trashPath: d.trashPath, path: TOBIN, size: Buffer.byteLength(before) });
    expect(await read(d.trashPath)).toBe(before);
    await call('edit-undo', {});
    expect(await read(TOBIN)).toBe(before);
    expect((await call('edit-trash', {})).map((t) => t.trashPath)).not.toContain(d.trashPath);
    // again, restored from the trash this time (one undo step too)
    const d2 = await call('edit-delete', { nameOrId: 'Tobin Reed' });
    await expect(read(TOBIN)).rejects.toThrow();
    const r = await call('edit-restore', { trashPath: d2.trashPath });
    expect(r.path).toBe(TOBIN);
    expect(await read(TOBIN)).toBe(before);
    expect((await call('entity-get', { nameOrId: 'Tobin Reed' }))?.path).toBe(TOBIN);
    expect((await refusal('edit-restore', { trashPath: d2.trashPath })).code).toBe('not-found');
    expect((await refusal('edit-restore', { trashPath: TOBIN })).code).toBe('invalid');
    await call('edit-undo', {});
    expect((await call('edit-trash', {}))[0]?.trashPath).toBe(d2.trashPath);
    await call('edit-redo', {});
    expect(await read(TOBIN)).toBe(before);
  });
});
