/**
 * Read-write mode: the write tools go through the write-back editor (schema
 * validation, lossless edits, atomic writes, origin 'mcp') and return the path
 * and diff; every write is checked on disk and in the graph.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../shared/types.js';
import { openHarness, textOf, type Harness } from './testkit.js';

type WriteOut = { paths: string[]; changed: Array<{ path: string; diff: string }>; entity: { id: string; name: string } | null };

let h: Harness;
const events: ChangeEvent[] = [];
beforeAll(async () => {
  h = await openHarness({ mode: 'read-write' });
  h.host.onChange((e) => events.push(e));
});
afterAll(async () => { await h?.close(); });
const file = (rel: string) => readFile(join(h.dir, rel), 'utf8');

describe('write tools', () => {
  it('are registered with write annotations in read-write mode', async () => {
    const { tools } = await h.client.listTools();
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(by.create_entity?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(by.update_entity?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(by.add_relationship?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(by.remove_relationship?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(by.record_event?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(by.create_entity?.description).toContain('settlement');
    expect(by.add_relationship?.description).toContain('MEMBER_OF');
  });

  it('create_entity and update_entity refuse a relationship field as a property, naming add_relationship (not the CLI\'s link/unlink)', async () => {
    const c = await h.call('create_entity', { name: 'Odo Flint', type: 'npc', properties: { faction: ['Red Hand'] } });
    expect(c.isError).toBe(true);
    expect(textOf(c)).toMatch(/holds the relationship \w+: use add_relationship/);
    expect(textOf(c)).not.toMatch(/link\/unlink/);
    expect(existsSync(join(h.dir, 'setting/npcs/Odo Flint.md'))).toBe(false);
    const u = await h.call('update_entity', { name: 'Captain Varo', set: { faction: ['Red Hand'] } });
    expect(u.isError).toBe(true);
    expect(textOf(u)).toMatch(/use add_relationship/);
    expect(textOf(u)).not.toMatch(/link\/unlink/);
  });

  it('create_entity writes a new note in the type folder and returns path and diff', async () => {
    const r = await h.ok<WriteOut>('create_entity', { name: 'Mira Stone', type: 'npc', properties: { role: 'smith' }, body: 'Mira shoes the Red Hand horses.' });
    expect(r.paths).toEqual(['setting/npcs/Mira Stone.md']);
    expect(r.changed[0]!.diff).toContain('+role: smith');
    const text = await file('setting/npcs/Mira Stone.md');
    expect(text).toMatch(/^---\n/);
    expect(text).toContain('role: smith');
    expect(text).toContain('Mira shoes the Red Hand horses.');
    expect(r.entity?.id).toBe('setting/mira stone');
    expect(events.some((e) => e.origin === 'mcp' && e.paths.includes('setting/npcs/Mira Stone.md'))).toBe(true);
    const got = await h.ok<{ entity: { properties: Record<string, unknown> } }>('get_entity', { name: 'Mira Stone' });
    expect(got.entity.properties.role).toBe('smith');
  });

  it('update_entity sets and unsets properties, touching only those lines', async () => {
    const before = await file('setting/npcs/Tobin Reed.md');
    const r = await h.ok<WriteOut>('update_entity', { name: 'Tobin Reed', set: { status: 'unknown' }, unset: ['honorific'] });
    expect(r.paths).toEqual(['setting/npcs/Tobin Reed.md']);
    const after = await file('setting/npcs/Tobin Reed.md');
    expect(after).toContain('status: unknown');
    const changedLines = after.split('\n').filter((l) => !before.split('\n').includes(l));
    expect(changedLines).toEqual(['status: unknown']);
  });

  it('add_relationship / remove_relationship write the mapped frontmatter field', async () => {
    const add = await h.ok<WriteOut>('add_relationship', { from: 'Mira Stone', type: 'MEMBER_OF', to: 'Red Hand' });
    expect(add.paths).toEqual(['setting/npcs/Mira Stone.md']);
    expect(await file('setting/npcs/Mira Stone.md')).toContain('[[Red Hand]]');
    const rels = await h.ok<{ entities: Array<{ name: string }> }>('get_relationships', { name: 'Mira Stone', type: 'MEMBER_OF', direction: 'out' });
    expect(rels.entities.map((e) => e.name)).toEqual(['Red Hand']);
    await h.ok<WriteOut>('remove_relationship', { from: 'Mira Stone', type: 'MEMBER_OF', to: 'Red Hand' });
    expect(await file('setting/npcs/Mira Stone.md')).not.toContain('[[Red Hand]]');
  });

  it('record_event writes an event note the timeline applies', async () => {
    const r = await h.ok<WriteOut>('record_event', {
      layer: 'campaign', title: 'The Smithy Fire', session: 13, date_in_world: '1203-09-01',
      participants: ['Mira Stone', 'Red Hand'], location: 'Millbrook',
      consequences: [{ entity: 'Mira Stone', property: 'status', value: 'dead' }],
      body: 'The smithy burned with Mira inside.',
    });
    expect(r.paths).toEqual(['campaign/sessions/The Smithy Fire.md']);
    const text = await file('campaign/sessions/The Smithy Fire.md');
    expect(text).toContain('session: 13');
    expect(text).toContain('[[Mira Stone]]');
    expect(text).toContain('consequences:');
    expect(text).toContain('The smithy burned with Mira inside.');
    const st = await h.ok<{ properties: Record<string, unknown>; changed_by_events: Array<{ property: string; provenance: { path: string } }> }>(
      'get_current_state', { name: 'Mira Stone', layer: 'campaign', session: 13 });
    expect(st.properties.status).toBe('dead');
    expect(st.changed_by_events.find((c) => c.property === 'status')?.provenance.path).toBe('campaign/sessions/The Smithy Fire.md');
    const tl = await h.ok<{ events: Array<{ name: string }> }>('get_timeline', { layer: 'campaign', entity: 'Mira Stone' });
    expect(tl.events.map((e) => e.name)).toContain('The Smithy Fire');
  });
});

describe('write refusals change nothing', () => {
  const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
    ['a name with ..', 'create_entity', { name: '../../escape', type: 'npc' }, /outside the vault|plain name/],
    ['a name with a slash', 'create_entity', { name: 'setting/evil', type: 'npc' }, /plain name/],
    ['a dotfile name', 'create_entity', { name: '.hidden', type: 'npc' }, /plain name/],
    ['an unknown type', 'create_entity', { name: 'Nobody', type: 'dragon' }, /unknown entity type "dragon".*npc/],
    ['an enum value outside the schema', 'update_entity', { name: 'Tobin Reed', set: { status: 'zombie' } }, /status/],
    ['an undeclared property', 'update_entity', { name: 'Tobin Reed', set: { shoe_size: 9 } }, /shoe_size/],
    ['a relationship the schema lacks', 'add_relationship', { from: 'Tobin Reed', type: 'MARRIED_TO', to: 'Lady Wren Alder' }, /MARRIED_TO/],
    ['an event in the canonical layer', 'record_event', { layer: 'setting', title: 'Oops', session: 1 }, /campaign/],
    ['an event at a wrong participant type', 'record_event', { layer: 'campaign', title: 'Bad Cast', session: 2, participants: ['Millbrook'] }, /participants.*Millbrook/],
    ['an existing note', 'create_entity', { name: 'Captain Varo', type: 'npc' }, /already exists/],
  ];
  for (const [what, tool, args, msg] of cases) {
    it(`${tool}: ${what}`, async () => {
      const snapshot = await h.ok<{ total: number }>('list_entities', { limit: 1 });
      const tobin = await file('setting/npcs/Tobin Reed.md');
      const r = await h.call(tool, args);
      expect(r.isError, textOf(r)).toBe(true);
      expect(textOf(r)).toMatch(msg);
      expect(await file('setting/npcs/Tobin Reed.md')).toBe(tobin);
      expect((await h.ok<{ total: number }>('list_entities', { limit: 1 })).total).toBe(snapshot.total);
    });
  }
  it('nothing was written outside the vault or as a stray file', () => {
    expect(existsSync(join(h.dir, '..', 'escape.md'))).toBe(false);
    expect(existsSync(join(h.dir, 'campaign', 'sessions', 'Bad Cast.md'))).toBe(false);
    expect(existsSync(join(h.dir, 'setting', 'sessions', 'Oops.md'))).toBe(false);
  });
});

describe('the factory takes main/edit\'s Editor as is', () => {
  it('adapts createEditor(host) and writes with origin mcp', async () => {
    const { createEditor } = await import('../edit/commands.js');
    const { createMcpServer } = await import('./server.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const editor = createEditor(h.host);
    const server = createMcpServer({ host: h.host, mode: 'read-write', editor });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'raw-editor', version: '1' });
    await client.connect(b);
    const seen: ChangeEvent[] = [];
    const off = h.host.onChange((e) => seen.push(e));
    const r = await client.callTool({ name: 'update_entity', arguments: { name: 'Selin Hale', set: { role: 'harbour spy' } } });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(await file('setting/npcs/Selin Hale.md')).toContain('role: harbour spy');
    expect(seen.some((e) => e.origin === 'mcp')).toBe(true);
    off();
    await client.close();
    editor.dispose();
  });
});
