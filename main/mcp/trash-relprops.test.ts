/**
 * With the real SDK client over InMemoryTransport on a temp copy of the sample
 * world: add_relationship sets the relationship's own properties (validated
 * against the schema, through the core), get_schema declares them; list_trash
 * lists what was deleted in both modes, restore_from_trash (read-write only)
 * puts it back byte for byte.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, textOf, type Harness } from './testkit.js';

const ORDER = 'setting/factions/Order of the Lantern.md';
const TOBIN = 'setting/npcs/Tobin Reed.md';

let rw: Harness;
let ro: Harness;
beforeAll(async () => {
  rw = await openHarness({ mode: 'read-write' });
  ro = await openHarness({ mode: 'read' });
});
afterAll(async () => {
  await rw?.close();
  await ro?.close();
});
const file = (h: Harness, rel: string) => readFile(join(h.dir, rel), 'utf8');

describe('add_relationship with properties', () => {
  it('writes them on the item, and get_relationships returns them', async () => {
    const before = await file(rw, ORDER);
    const r = await rw.ok<{ paths: string[]; changed: Array<{ diff: string }> }>('add_relationship', {
      from: 'Order of the Lantern', type: 'ALLIED_WITH', to: 'Red Hand', properties: { attitude: 'wary', until: 3 },
    });
    expect(r.paths).toEqual([ORDER]);
    const after = await file(rw, ORDER);
    expect(after).toContain('{ to: "[[Red Hand]]", attitude: wary, until: 3 }');
    expect(after.split('\n').length - before.split('\n').length).toBeLessThanOrEqual(1);
    const rel = await rw.ok<{ steps: Array<{ from: string; to: string; type: string; properties?: Record<string, unknown> }> }>('get_relationships', { name: 'Order of the Lantern', type: 'ALLIED_WITH' });
    const step = rel.steps.find((s) => s.to === 'setting/red hand' || s.from === 'setting/red hand');
    expect(step?.properties).toEqual({ attitude: 'wary', until: 3 });
    // on an existing relationship: the property is set on it, no second item
    await rw.ok('add_relationship', { from: 'Order of the Lantern', type: 'ALLIED_WITH', to: 'Red Hand', properties: { attitude: 'friendly' } });
    const again = await file(rw, ORDER);
    expect(again).toContain('{ to: "[[Red Hand]]", attitude: friendly, until: 3 }');
    expect(again.match(/Red Hand/g)).toHaveLength(after.match(/Red Hand/g)!.length);
  });

  it('refuses a value the schema does not allow, naming the property, and writes nothing', async () => {
    const before = await file(rw, 'setting/factions/Thornwood Wardens.md');
    const bad = await rw.call('add_relationship', { from: 'Thornwood Wardens', type: 'ALLIED_WITH', to: 'Iron Guild', properties: { attitude: 'furious' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("ALLIED_WITH property 'attitude' must be one of: wary, friendly, sworn");
    const undeclared = await rw.call('add_relationship', { from: 'Thornwood Wardens', type: 'ALLIED_WITH', to: 'Iron Guild', properties: { mood: 'grim' } });
    expect(undeclared.isError).toBe(true);
    expect(textOf(undeclared)).toContain("declares no property 'mood'");
    expect(await file(rw, 'setting/factions/Thornwood Wardens.md')).toBe(before);
  });

  it('get_schema lists each relationship type\'s declared properties', async () => {
    const s = await ro.ok<{ relationship_types: Array<{ name: string; properties: Array<{ name: string; type: string; values: unknown[] | null }> }> }>('get_schema', {});
    expect(s.relationship_types.find((r) => r.name === 'ALLIED_WITH')!.properties).toEqual([{ name: 'attitude', type: 'enum', values: ['wary', 'friendly', 'sworn'] }]);
  });
});

describe('list_trash / restore_from_trash', () => {
  it('read mode lists the trash and has no restore tool', async () => {
    const names = (await ro.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('list_trash');
    expect(names).not.toContain('restore_from_trash');
    const empty = await ro.ok<{ items: unknown[]; total: number }>('list_trash', {});
    expect(empty).toMatchObject({ items: [], total: 0 });
    await ro.host.editor.delete('Tobin Reed');
    const listed = await ro.ok<{ items: Array<{ trash_path: string; path: string; deleted_at: string }>; total: number }>('list_trash', {});
    expect(listed.total).toBe(1);
    expect(listed.items[0]).toMatchObject({ path: TOBIN });
    expect(listed.items[0]!.trash_path).toMatch(/^\.lorecraft\/trash\/\d{4}-\d\d-\d\dT[\d-]+Z\/setting\/npcs\/Tobin Reed\.md$/);
  });

  it('read-write mode restores a deleted note byte for byte, and refuses what is not in the trash', async () => {
    const before = await file(rw, TOBIN);
    await rw.host.editor.delete('Tobin Reed');
    expect(existsSync(join(rw.dir, TOBIN))).toBe(false);
    const { items } = await rw.ok<{ items: Array<{ trash_path: string; path: string }> }>('list_trash', {});
    const item = items.find((i) => i.path === TOBIN)!;
    const r = await rw.ok<{ restored: string; entity: { name: string } | null }>('restore_from_trash', { trash_path: item.trash_path });
    expect(r.restored).toBe(TOBIN);
    expect(r.entity?.name).toBe('Tobin Reed');
    expect(await file(rw, TOBIN)).toBe(before);
    expect((await rw.ok<{ items: Array<{ path: string }> }>('list_trash', {})).items.some((i) => i.path === TOBIN)).toBe(false);
    expect(await rw.host.getEntity('Tobin Reed')).not.toBeNull();
    const bad = await rw.call('restore_from_trash', { trash_path: 'setting/npcs/Tobin Reed.md' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('is not a file in the trash');
  });
});
