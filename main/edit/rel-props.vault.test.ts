/**
 * Relationship properties through the editor (issue 18, point 4): set / unset one
 * property of `from -[rel]-> to` as from's note writes it, on a real vault with
 * real Kùzu — only that item's bytes change, one undo step restores every byte,
 * a file changed on disk is a conflict, a wrong value is refused naming the
 * field; rename rewrites `to:` inside maps, link / unlink see map items.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../domain/errors.js';
import { createEditor, type Editor } from './commands.js';
import { openTestHost, REL_PROPS_SCHEMA, removeVault, writeVault, type TestHost } from './test-host.js';

const MIRA = `---\ntype: npc\n# who she trusts\nallies: ["[[Red Hand]]", { to: "[[Iron Guild]]", attitude: wary }]\nfaction: "[[Lantern Guild]]"\n---\nMira.\n`;
const RED = `---\ntype: faction\nallies:\n  - to: "[[Mira]]"\n    attitude: sworn\n    trust: 3\n  - "[[Iron Guild]]"\n---\n`;
const FILES: Record<string, string> = {
  'schema.yaml': REL_PROPS_SCHEMA,
  'notes/Mira.md': MIRA,
  'notes/Red Hand.md': RED,
  'notes/Iron Guild.md': `---\ntype: faction\n---\n`,
  'notes/Lantern Guild.md': `---\ntype: faction\nmembers: [{ to: "[[Mira]]", role: keeper }]\n---\n`,
};

let vault: string;
let host: TestHost;
let ed: Editor;
const read = (p: string) => readFileSync(join(vault, p), 'utf8');
const rows = async (q: string) => (await host.engine.store.cypher(q)).map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);
const changedLines = (a: string, b: string) => {
  const x = a.split('\n');
  const y = b.split('\n');
  return x.length === y.length ? x.filter((l, i) => l !== y[i]).length : -1;
};

beforeEach(async () => {
  vault = writeVault(FILES);
  host = await openTestHost(vault);
  ed = createEditor(host);
});
afterEach(async () => {
  ed.dispose();
  await host.close();
  removeVault(vault);
});

describe('setRelationshipProperty / unsetRelationshipProperty', () => {
  it('set on a plain item: one line changes, the REL row holds it, one undo restores every byte', async () => {
    const res = await ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'attitude', 'friendly');
    expect(res.changed.map((c) => c.path)).toEqual(['notes/Mira.md']);
    expect(read('notes/Mira.md')).toBe(MIRA.replace('"[[Red Hand]]"', '{ to: "[[Red Hand]]", attitude: friendly }'));
    expect(changedLines(MIRA, read('notes/Mira.md'))).toBe(1);
    expect(await rows(`MATCH (a {name: 'Mira'})-[r:ALLIED_WITH]->(b {name: 'Red Hand'}) RETURN r.attitude AS attitude`)).toEqual([{ attitude: 'friendly' }]);
    expect(ed.history().undo.at(-1)!.label).toBe('set attitude of Mira ALLIED_WITH Red Hand');
    await ed.undo();
    expect(read('notes/Mira.md')).toBe(MIRA);
    expect(await rows(`MATCH (a {name: 'Mira'})-[r:ALLIED_WITH]->(b {name: 'Red Hand'}) RETURN r.attitude AS attitude`)).toEqual([{ attitude: null }]);
  });

  it('changes an existing value in place, and unsetting the last property gives the plain item back', async () => {
    await ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Iron Guild', 'attitude', 'sworn');
    expect(read('notes/Mira.md')).toBe(MIRA.replace('attitude: wary', 'attitude: sworn'));
    await ed.unsetRelationshipProperty('Mira', 'ALLIED_WITH', 'Iron Guild', 'attitude');
    expect(read('notes/Mira.md')).toBe(MIRA.replace('{ to: "[[Iron Guild]]", attitude: wary }', '"[[Iron Guild]]"'));
    // the other direction is Red Hand's own item (block style), edited there
    await ed.unsetRelationshipProperty('Red Hand', 'ALLIED_WITH', 'Mira', 'trust');
    expect(read('notes/Red Hand.md')).toBe(RED.replace('    trust: 3\n', ''));
    expect(await rows(`MATCH (a {name: 'Red Hand'})-[r:ALLIED_WITH]->(b {name: 'Mira'}) RETURN r.attitude AS attitude, r.trust AS trust`)).toEqual([{ attitude: 'sworn', trust: null }]);
  });

  it('an inverse name edits the item of the note that writes it (HAS_MEMBER on the guild; MEMBER_OF on a single-valued field)', async () => {
    await ed.setRelationshipProperty('Lantern Guild', 'HAS_MEMBER', 'Mira', 'role', 'warden');
    expect(read('notes/Lantern Guild.md')).toContain('members: [{ to: "[[Mira]]", role: warden }]');
    await ed.setRelationshipProperty('Mira', 'MEMBER_OF', 'Lantern Guild', 'role', 'lamplighter');
    expect(read('notes/Mira.md')).toContain('faction: { to: "[[Lantern Guild]]", role: lamplighter }');
    await ed.undo();
    expect(read('notes/Mira.md')).toBe(MIRA);
  });

  it('since / until take a session number or an event', async () => {
    await ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'until', 4);
    expect(read('notes/Mira.md')).toContain('{ to: "[[Red Hand]]", until: 4 }');
    await ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'since', '[[The Pact]]');
    expect(read('notes/Mira.md')).toContain('{ to: "[[Red Hand]]", until: 4, since: "[[The Pact]]" }');
  });

  it('refuses a wrong value, an undeclared key and a missing item, naming the field; nothing is written', async () => {
    const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as CoreError);
    const wrong = await refusal(ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'attitude', 'furious'));
    expect(wrong).toMatchObject({ code: 'invalid', details: { field: 'attitude' } });
    expect(wrong!.message).toContain("ALLIED_WITH property 'attitude' must be one of: wary, fearful, friendly, trusting, sworn");
    const int = await refusal(ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'trust', 'lots'));
    expect(int).toMatchObject({ code: 'invalid', details: { field: 'trust' } });
    const undeclared = await refusal(ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'mood', 'grim'));
    expect(undeclared!.message).toMatch(/declares no property 'mood' \(declared: attitude, trust, since, until\)/);
    const until = await refusal(ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'until', -2));
    expect(until).toMatchObject({ code: 'invalid', details: { field: 'until' } });
    const nil = await refusal(ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'attitude', null));
    expect(nil).toMatchObject({ code: 'invalid', details: { field: 'attitude' } });
    const none = await refusal(ed.setRelationshipProperty('Iron Guild', 'ALLIED_WITH', 'Mira', 'attitude', 'wary'));
    expect(none).toMatchObject({ code: 'not-found' });
    expect(none!.message).toContain("Iron Guild's note writes no ALLIED_WITH to Mira");
    expect(read('notes/Mira.md')).toBe(MIRA);
    expect(read('notes/Iron Guild.md')).toBe(FILES['notes/Iron Guild.md']);
  });

  it('a file changed on disk since the graph read it is a conflict and is left as it is', async () => {
    const theirs = MIRA.replace('Mira.\n', 'Mira, edited elsewhere.\n');
    writeFileSync(join(vault, 'notes/Mira.md'), theirs);
    const err = await ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'attitude', 'wary').catch((e: unknown) => e as CoreError);
    expect(err).toMatchObject({ code: 'conflict', details: { path: 'notes/Mira.md' } });
    expect(read('notes/Mira.md')).toBe(theirs);
  });

  it('undo is refused when the file changed after the edit, keeping that change', async () => {
    await ed.setRelationshipProperty('Mira', 'ALLIED_WITH', 'Red Hand', 'trust', 1);
    const after = read('notes/Mira.md');
    writeFileSync(join(vault, 'notes/Mira.md'), after + 'More.\n');
    await host.engine.syncAll();
    await expect(ed.undo()).rejects.toMatchObject({ code: 'conflict' });
    expect(read('notes/Mira.md')).toBe(after + 'More.\n');
  });
});

describe('the rest of the editor sees map items', () => {
  it('rename rewrites `to:` inside flow and block map items (and undo restores them)', async () => {
    await ed.rename('Mira', 'Mira Vane');
    expect(read('notes/Red Hand.md')).toBe(RED.replace('to: "[[Mira]]"', 'to: "[[Mira Vane]]"'));
    expect(read('notes/Lantern Guild.md')).toContain('members: [{ to: "[[Mira Vane]]", role: keeper }]');
    await ed.rename('Iron Guild', 'Iron Compact');
    expect(read('notes/Mira Vane.md')).toContain('allies: ["[[Red Hand]]", { to: "[[Iron Compact]]", attitude: wary }]');
    await ed.undo();
    await ed.undo();
    expect(read('notes/Red Hand.md')).toBe(RED);
    expect(read('notes/Mira.md')).toBe(MIRA);
  });

  it('link does not add a second item beside a map item; unlink removes the map item', async () => {
    const again = await ed.addRelationship('Mira', 'ALLIED_WITH', 'Iron Guild');
    expect(again.changed).toEqual([]);
    await ed.removeRelationship('Mira', 'ALLIED_WITH', 'Iron Guild');
    expect(read('notes/Mira.md')).toBe(MIRA.replace(', { to: "[[Iron Guild]]", attitude: wary }', ''));
    await ed.removeRelationship('Red Hand', 'ALLIED_WITH', 'Mira');
    expect(read('notes/Red Hand.md')).not.toContain('Mira');
  });
});
