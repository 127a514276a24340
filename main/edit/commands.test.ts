import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../shared/types.js';
import { CoreError } from '../domain/errors.js';
import { createEditor, type Editor } from './commands.js';
import { openTestHost, removeVault, writeVault, type TestHost } from './test-host.js';

const SCHEMA = `
entity_types:
  - name: npc
    folder: People
    properties:
      - { name: status, type: enum, values: [alive, dead, missing] }
      - { name: age, type: integer }
      - { name: rank, type: string }
      - { name: born, type: date }
    field_mappings:
      - { field: organization, relationship: MEMBER_OF, target_type: faction }
      - { field: location, relationship: LOCATED_IN, cardinality: scalar, target_type: place }
  - name: faction
    field_mappings:
      - { field: members, relationship: HAS_MEMBER, target_type: npc }
      - { field: allies, relationship: ALLIED_WITH, target_type: faction }
  - name: place
    template: "# {{name}}\\n\\nA place.\\n"
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: LOCATED_IN, inverse: CONTAINS }
  - { name: ALLIED_WITH, symmetric: true }
`;

const VARO = '---\ntype: npc\nstatus: alive # still\norganization:\n  - "[[Red Hand]]"\nlocation: "[[Millbrook]]"\n---\nVaro leads the [[Red Hand|raiders]] from [[Millbrook#Docks]].\n';
const MIRA = '\uFEFF---\r\ntype: npc\r\norganization: ["[[Red Hand]]"]\r\n---\r\nMira.\r\n';
const RED = '---\ntype: faction\nallies: [Iron Guild]\n---\nLed by [[Captain Varo]]; see [[People/Captain Varo.md#Past|his past]].\n';
const IRON = '---\ntype: faction\n---\n';
const ASH = '---\ntype: faction\n---\n';
const MILL = '---\ntype: place\n---\nHome of [[Captain Varo|the captain]].\n\n```\n[[Captain Varo]]\n```\nand `[[Captain Varo]]` inline.\n';

let vault: string;
let host: TestHost;
let ed: Editor;
let events: ChangeEvent[];

const read = (p: string) => readFileSync(join(vault, p), 'utf8');

beforeEach(async () => {
  vault = writeVault({
    'schema.yaml': SCHEMA,
    'People/Captain Varo.md': VARO,
    'People/Mira.md': MIRA,
    'Factions/Red Hand.md': RED,
    'Factions/Iron Guild.md': IRON,
    'Factions/Guild of Ash.md': ASH,
    'Places/Millbrook.md': MILL,
  });
  host = await openTestHost(vault);
  ed = createEditor(host);
  events = [];
  host.engine.onChange((e) => events.push(e));
});
afterEach(async () => {
  ed.dispose();
  await host.close();
  removeVault(vault);
});

async function refusal(p: Promise<unknown>): Promise<CoreError> {
  try { await p; } catch (e) { if (e instanceof CoreError) return e; throw e; }
  throw new Error('expected a refusal');
}

function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of ['People', 'Factions', 'Places']) {
    for (const f of readdirSync(join(vault, d))) out[`${d}/${f}`] = read(`${d}/${f}`);
  }
  return out;
}

describe('setProperty / unsetProperty', () => {
  it('writes only the value, updates the graph and emits one app event before resolving', async () => {
    const res = await ed.setProperty('Captain Varo', 'status', 'dead');
    expect(read('People/Captain Varo.md')).toBe(VARO.replace('status: alive', 'status: dead'));
    expect(res.changed).toHaveLength(1);
    expect(res.changed[0]!.path).toBe('People/Captain Varo.md');
    expect(res.changed[0]!.diff).toContain('-status: alive # still');
    expect(res.changed[0]!.diff).toContain('+status: dead # still');
    expect(res.event.origin).toBe('app');
    expect(res.event.upserted).toContain('main/captain varo');
    expect(events.map((e) => e.origin)).toEqual(['app']);
    expect(host.engine.model.entity('main/captain varo')!.properties.status).toBe('dead');
    const stored = await host.engine.store.getEntity('main/captain varo');
    expect(JSON.stringify(stored!.properties)).toContain('dead');
  });
  it('adds a new property as the last frontmatter line, and unsets it', async () => {
    await ed.setProperty('Captain Varo', 'age', 41);
    expect(read('People/Captain Varo.md')).toBe(VARO.replace('---\nVaro', 'age: 41\n---\nVaro'));
    await ed.unsetProperty('Captain Varo', 'age');
    expect(read('People/Captain Varo.md')).toBe(VARO);
  });
  it('edits a key the note already holds even when its type does not declare it (issue 15)', async () => {
    writeFileSync(join(vault, 'People/Mira.md'), MIRA.replace('type: npc\r\n', 'type: npc\r\nmood: grim\r\n'));
    await host.engine.syncAll();
    await ed.setProperty('Mira', 'mood', 'cheerful');
    expect(read('People/Mira.md')).toBe(MIRA.replace('type: npc\r\n', 'type: npc\r\nmood: cheerful\r\n'));
    // a key the note does not hold yet is still refused: the schema shapes what is added
    expect((await refusal(ed.setProperty('Mira', 'height', 3))).message).toMatch(/type npc has no property 'height'/);
  });
  it('refuses invalid values and changes nothing', async () => {
    const before = snapshot();
    const cases: Array<[Promise<unknown>, RegExp]> = [
      [ed.setProperty('Captain Varo', 'status', 'undead'), /npc\.status must be one of "alive", "dead", "missing"/],
      [ed.setProperty('Captain Varo', 'age', 4.5), /npc\.age must be an integer/],
      [ed.setProperty('Captain Varo', 'age', '40'), /npc\.age must be an integer/],
      [ed.setProperty('Captain Varo', 'born', 'last spring'), /npc\.born must be a date/],
      [ed.setProperty('Captain Varo', 'height', 3), /type npc has no property 'height'/],
      [ed.setProperty('Captain Varo', 'organization', 'x'), /use link\/unlink/],
      [ed.setProperty('Captain Varo', 'title', 'x'), /use rename/],
    ];
    for (const [p, msg] of cases) {
      const e = await refusal(p);
      expect(e.code).toBe('invalid');
      expect(e.message).toMatch(msg);
    }
    expect((await refusal(ed.setProperty('Nobody', 'status', 'dead'))).code).toBe('not-found');
    expect(snapshot()).toEqual(before);
    expect(events).toEqual([]);
  });
});

describe('relationships', () => {
  it('adds to a flow list in its style, keeping BOM and CRLF', async () => {
    await ed.addRelationship('Mira', 'MEMBER_OF', 'Iron Guild');
    expect(read('People/Mira.md')).toBe(MIRA.replace('["[[Red Hand]]"]', '["[[Red Hand]]", "[[Iron Guild]]"]'));
    expect(host.engine.model.edgesFrom('main/mira').some((e) => e.type === 'MEMBER_OF' && e.to === 'main/iron guild')).toBe(true);
  });
  it('follows the plain-name style of a field and writes scalars as scalars', async () => {
    await ed.addRelationship('Red Hand', 'ALLIED_WITH', 'Guild of Ash');
    expect(read('Factions/Red Hand.md')).toBe(RED.replace('[Iron Guild]', '[Iron Guild, Guild of Ash]'));
    await ed.addRelationship('Mira', 'LOCATED_IN', 'Millbrook');
    expect(read('People/Mira.md')).toContain('location: "[[Millbrook]]"\r\n---');
  });
  it('writes an inverse relationship on the end whose type maps it', async () => {
    // place has no CONTAINS field: the npc's LOCATED_IN field holds it
    const before = read('People/Mira.md');
    const res = await ed.addRelationship('Millbrook', 'CONTAINS', 'Mira');
    expect(res.changed.map((c) => c.path)).toEqual(['People/Mira.md']);
    expect(read('People/Mira.md')).toBe(before.replace('---\r\nMira.', 'location: "[[Millbrook]]"\r\n---\r\nMira.'));
    // faction maps HAS_MEMBER itself: written on the faction
    await ed.addRelationship('Iron Guild', 'HAS_MEMBER', 'Captain Varo');
    expect(read('Factions/Iron Guild.md')).toBe('---\ntype: faction\nmembers:\n  - "[[Captain Varo]]"\n---\n');
    expect(host.engine.model.edgesFrom('main/captain varo').some((e) => e.type === 'MEMBER_OF' && e.to === 'main/iron guild')).toBe(true);
  });
  it('refuses unknown relationships, wrong target types and missing ends', async () => {
    const before = snapshot();
    expect((await refusal(ed.addRelationship('Captain Varo', 'MEMBER_OF', 'Millbrook'))).message).toMatch(/organization \(MEMBER_OF\) takes faction, but Millbrook is place/);
    expect((await refusal(ed.addRelationship('Captain Varo', 'HATES', 'Mira'))).message).toMatch(/unknown relationship 'HATES'/);
    expect((await refusal(ed.addRelationship('Millbrook', 'ALLIED_WITH', 'Mira'))).code).toBe('invalid');
    expect((await refusal(ed.addRelationship('Captain Varo', 'MEMBER_OF', 'Nowhere'))).code).toBe('not-found');
    expect(snapshot()).toEqual(before);
  });
  it('links to a note not written yet with { placeholder: true }, and unlinks it', async () => {
    await ed.addRelationship('Mira', 'MEMBER_OF', 'Ghost Guild', { placeholder: true });
    expect(read('People/Mira.md')).toBe(MIRA.replace('["[[Red Hand]]"]', '["[[Red Hand]]", "[[Ghost Guild]]"]'));
    expect(host.engine.model.entity('main/ghost guild')?.placeholder).toBe(true);
    // written on the other end's note: impossible without that note
    expect((await refusal(ed.addRelationship('Nowhere Town', 'CONTAINS', 'Mira', { placeholder: true }))).code).toBe('not-found');
    await ed.removeRelationship('Mira', 'MEMBER_OF', 'Ghost Guild');
    expect(read('People/Mira.md')).toBe(MIRA);
  });
  it('removes a relationship wherever a note declares it', async () => {
    await ed.removeRelationship('Captain Varo', 'MEMBER_OF', 'Red Hand');
    expect(read('People/Captain Varo.md')).toBe(VARO.replace('organization:\n  - "[[Red Hand]]"\n', 'organization: []\n'));
    await ed.removeRelationship('Red Hand', 'HAS_MEMBER', 'Mira');
    expect(read('People/Mira.md')).toBe(MIRA.replace('["[[Red Hand]]"]', '[]'));
    await ed.removeRelationship('Iron Guild', 'ALLIED_WITH', 'Red Hand');
    expect(read('Factions/Red Hand.md')).toBe(RED.replace('[Iron Guild]', '[]'));
    expect((await refusal(ed.removeRelationship('Mira', 'MEMBER_OF', 'Iron Guild'))).code).toBe('not-found');
    expect(host.engine.model.edgesFrom('main/captain varo').some((e) => e.type === 'MEMBER_OF')).toBe(false);
  });
});

describe('rename, delete, create, body', () => {
  it('renames the file and every reference, keeping labels and headings, and undo restores all', async () => {
    const before = snapshot();
    const res = await ed.rename('Captain Varo', 'Varo the Bold');
    expect(res.path).toBe('People/Varo the Bold.md');
    expect(existsSync(join(vault, 'People/Captain Varo.md'))).toBe(false);
    expect(read('People/Varo the Bold.md')).toBe(VARO);
    expect(read('Factions/Red Hand.md')).toBe(RED.replace('[[Captain Varo]]', '[[Varo the Bold]]').replace('[[People/Captain Varo.md#Past|his past]]', '[[People/Varo the Bold.md#Past|his past]]'));
    expect(read('Places/Millbrook.md')).toBe(MILL.replace('[[Captain Varo|the captain]]', '[[Varo the Bold|the captain]]'));
    expect(host.engine.model.entity('main/varo the bold')?.placeholder).toBe(false);
    expect(host.engine.model.entity('main/captain varo')).toBeUndefined();
    expect(host.engine.model.edgesTo('main/varo the bold').length).toBeGreaterThanOrEqual(2);
    expect(ed.history().undo[0]!.label).toBe('rename Captain Varo to Varo the Bold');
    await ed.undo();
    expect(snapshot()).toEqual(before);
    expect(host.engine.model.entity('main/captain varo')?.placeholder).toBe(false);
    await ed.redo();
    expect(existsSync(join(vault, 'People/Varo the Bold.md'))).toBe(true);
  });
  it('renames plain-name references in frontmatter', async () => {
    await ed.rename('Iron Guild', 'Guild of Iron');
    expect(read('Factions/Red Hand.md')).toBe(RED.replace('[Iron Guild]', '[Guild of Iron]'));
  });
  it('refuses renames onto existing names and unsafe names', async () => {
    expect((await refusal(ed.rename('Mira', 'Captain Varo'))).code).toBe('conflict');
    for (const bad of ['a/b', 'CON', 'x|y', '[[x]]', '', '.hidden', 'a:b']) expect((await refusal(ed.rename('Mira', bad))).code).toBe('invalid');
  });
  it('deletes into the trash, reports referrers, and undo brings it back', async () => {
    const res = await ed.delete('Iron Guild');
    expect(existsSync(join(vault, 'Factions/Iron Guild.md'))).toBe(false);
    expect(res.trashPath).toMatch(/^\.lorecraft\/trash\/.+\/Factions\/Iron Guild\.md$/);
    expect(read(res.trashPath)).toBe(IRON);
    expect(res.referrers).toEqual(['Factions/Red Hand.md']);
    expect(host.engine.model.entity('main/iron guild')?.placeholder).toBe(true);
    await ed.undo();
    expect(read('Factions/Iron Guild.md')).toBe(IRON);
    expect(existsSync(join(vault, res.trashPath))).toBe(false);
  });
  it('creates a note in the type folder from the template, with a safe name', async () => {
    const res = await ed.createEntity('npc', 'Lady Wren', { properties: { status: 'alive' } });
    expect(res.path).toBe('People/Lady Wren.md');
    expect(read('People/Lady Wren.md')).toBe('---\ntype: npc\nstatus: alive\n---\n# Lady Wren\n');
    expect(res.id).toBe('main/lady wren');
    const place = await ed.createEntity('place', 'Oldmere');
    expect(place.path).toBe('Places/Oldmere.md');
    expect(read('Places/Oldmere.md')).toBe('---\ntype: place\n---\n# Oldmere\n\nA place.\n');
    expect((await refusal(ed.createEntity('npc', 'Mira'))).code).toBe('conflict');
    expect((await refusal(ed.createEntity('dragon', 'Smaug'))).message).toMatch(/unknown entity type 'dragon'/);
    expect((await refusal(ed.createEntity('npc', 'NUL'))).code).toBe('invalid');
    expect((await refusal(ed.createEntity('npc', 'X', { properties: { status: 'zombie' } }))).code).toBe('invalid');
    expect((await refusal(ed.createEntity('npc', 'X', { layer: 'nope' }))).message).toMatch(/unknown layer/);
    // undo of a create removes the note and its entity
    await ed.undo();
    expect(existsSync(join(vault, 'Places/Oldmere.md'))).toBe(false);
    expect(host.engine.model.entity('main/oldmere')).toBeUndefined();
    expect(existsSync(join(vault, 'People/Lady Wren.md'))).toBe(true);
  });
  it('refuses names holding control or bidirectional-control characters, naming the code point', async () => {
    const before = readdirSync(join(vault, 'People')).sort();
    for (const [bad, cp] of [['Evil\u202Etxt.md', 'U+202E'], ['A\u202Db', 'U+202D'], ['x\u2066y', 'U+2066'], ['x\u200Fy', 'U+200F'], ['x\u061Cy', 'U+061C'],
      ['x\u007Fy', 'U+007F'], ['x\u0085y', 'U+0085'], ['x\u0009y', 'U+0009'], ['x\u2028y', 'U+2028']] as const) {
      const e = await refusal(ed.createEntity('npc', bad));
      expect(e.code, cp).toBe('invalid');
      expect(e.message, cp).toContain(cp);
      expect((await refusal(ed.rename('Mira', bad))).code, cp).toBe('invalid');
    }
    expect(readdirSync(join(vault, 'People')).sort()).toEqual(before);
  });
  it('replaces the body and keeps the frontmatter bytes', async () => {
    await ed.replaceBody('Mira', 'Mira, a [[Red Hand]] scout.\n');
    expect(read('People/Mira.md')).toBe('\uFEFF---\r\ntype: npc\r\norganization: ["[[Red Hand]]"]\r\n---\r\nMira, a [[Red Hand]] scout.\r\n');
  });
});

describe('safety and history', () => {
  it('refuses to write over a file changed on disk since the graph read it, offering both versions', async () => {
    const theirs = VARO.replace('alive', 'missing');
    writeFileSync(join(vault, 'People/Captain Varo.md'), theirs);
    const e = await refusal(ed.setProperty('Captain Varo', 'status', 'dead'));
    expect(e.code).toBe('conflict');
    expect(e.details).toMatchObject({ path: 'People/Captain Varo.md', theirs });
    expect(e.details!.mine).toBe(theirs.replace('missing', 'dead'));
    expect(read('People/Captain Varo.md')).toBe(theirs);
  });
  it('refuses to edit a note whose frontmatter is broken YAML, naming the file', async () => {
    writeFileSync(join(vault, 'People/Mira.md'), '---\ntype: npc\nstatus: [alive\n---\n');
    await host.engine.applyPaths(['People/Mira.md'], 'disk');
    const e = await refusal(ed.setProperty('Mira', 'age', 3));
    expect(e.code).toBe('invalid');
    expect(e.message).toMatch(/^People\/Mira\.md: frontmatter has YAML errors/);
    expect(e.details).toMatchObject({ path: 'People/Mira.md' });
    expect(read('People/Mira.md')).toBe('---\ntype: npc\nstatus: [alive\n---\n');
  });
  it('refuses to rewrite a note that is not valid UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('---\ntype: npc\n---\nCaf'), Buffer.from([0xe9, 0x0a])]);
    writeFileSync(join(vault, 'People/Mira.md'), bytes);
    await host.engine.applyPaths(['People/Mira.md'], 'disk');
    const e = await refusal(ed.setProperty('Mira', 'age', 3));
    expect(e.message).toMatch(/People\/Mira\.md is not valid UTF-8/);
    expect(readFileSync(join(vault, 'People/Mira.md')).equals(bytes)).toBe(true);
  });
  it('undo refuses when a touched file changed since, and says why', async () => {
    await ed.setProperty('Captain Varo', 'status', 'dead');
    writeFileSync(join(vault, 'People/Captain Varo.md'), 'edited elsewhere');
    await host.engine.applyPaths(['People/Captain Varo.md'], 'disk');
    const e = await refusal(ed.undo());
    expect(e.code).toBe('conflict');
    expect(e.message).toMatch(/People\/Captain Varo\.md changed since "set status on Captain Varo"; undo refused/);
    expect(read('People/Captain Varo.md')).toBe('edited elsewhere');
  });
  it('undo and redo step through history; mcp edits stay out of it', async () => {
    await ed.setProperty('Captain Varo', 'status', 'dead');
    await ed.setProperty('Captain Varo', 'age', 40, { origin: 'mcp' });
    expect(ed.history().undo.map((h) => h.label)).toEqual(['set status on Captain Varo']);
    await ed.unsetProperty('Captain Varo', 'age', { origin: 'mcp' });
    const u = await ed.undo();
    expect(u.label).toBe('set status on Captain Varo');
    expect(read('People/Captain Varo.md')).toBe(VARO);
    expect(ed.history().redo).toHaveLength(1);
    await ed.redo();
    expect(read('People/Captain Varo.md')).toBe(VARO.replace('alive', 'dead'));
    expect((await refusal(ed.redo())).message).toMatch(/nothing to redo/);
  });
  it('the watcher echo of an app write changes nothing and emits no second event', async () => {
    await host.engine.startWatching();
    await ed.setProperty('Captain Varo', 'status', 'dead');
    // give the watcher time to see the write; the echo must be swallowed
    await new Promise((r) => setTimeout(r, 400));
    expect(events.map((e) => e.origin)).toEqual(['app']);
  });
});

describe('vaults whose types live in tags (thellade style)', () => {
  it('creates with the tag written the way the vault writes tags, in the folder of that type', async () => {
    const v = writeVault({
      'schema.yaml': `
type_rules:
  - { tag: NPC, type: npc }
  - { tag: Organization, type: faction }
entity_types:
  - name: npc
    field_mappings: [{ field: organization, relationship: MEMBER_OF, target_type: faction }]
  - name: faction
relationship_types: [{ name: MEMBER_OF }]
`,
      '03 Entities/NPCs/Malrik Grell.md': '---\ntags:\n  - "#Character"\n  - "#NPC"\norganization:\n  - "[[The Red Ash]]"\n---\n',
      '02 Factions/The Red Ash.md': '---\ntags:\n  - "#Organization"\n---\n',
      '02 Factions/The Sable Accord.md': '---\ntags:\n  - "#Organization"\n---\n',
    });
    const h = await openTestHost(v);
    const e = createEditor(h);
    try {
      const res = await e.createEntity('npc', 'Ysolde Varn');
      expect(res.path).toBe('03 Entities/NPCs/Ysolde Varn.md');
      expect(readFileSync(join(v, res.path), 'utf8')).toBe('---\ntags:\n  - "#NPC"\n---\n# Ysolde Varn\n');
      expect(h.engine.model.entity(res.id)?.type).toBe('npc');
      await e.addRelationship('Ysolde Varn', 'MEMBER_OF', 'The Sable Accord');
      await e.addRelationship('Malrik Grell', 'MEMBER_OF', 'The Sable Accord');
      expect(readFileSync(join(v, '03 Entities/NPCs/Malrik Grell.md'), 'utf8')).toBe('---\ntags:\n  - "#Character"\n  - "#NPC"\norganization:\n  - "[[The Red Ash]]"\n  - "[[The Sable Accord]]"\n---\n');
      expect(readFileSync(join(v, res.path), 'utf8')).toContain('organization:\n  - "[[The Sable Accord]]"\n---');
    } finally {
      e.dispose();
      await h.close();
      removeVault(v);
    }
  });
});

describe('a write that fails midway', () => {
  it('puts back the files already written and reports the error', async () => {
    const { writeFiles } = await import('./tx.js');
    const v = writeVault({ 'A/One.md': 'See [[Target]].\n', 'A/Target.md': '# T\n' });
    const h = await openTestHost(v);
    try {
      // the second write cannot happen (its folder is a file), whoever runs the test
      const files = [
        { path: 'A/One.md', before: 'See [[Target]].\n', after: 'See [[Goal]].\n' },
        { path: 'A/Target.md/Goal.md', before: null, after: '# T\n' },
      ];
      await expect(writeFiles(v, h.engine, files, 'app')).rejects.toThrow();
      expect(readFileSync(join(v, 'A/One.md'), 'utf8')).toBe('See [[Target]].\n');
      expect(readFileSync(join(v, 'A/Target.md'), 'utf8')).toBe('# T\n');
      expect(h.engine.model.note('A/One.md')?.bodyLinks.map((l) => l.name)).toEqual(['Target']);
    } finally {
      await h.close();
      removeVault(v);
    }
  });
});

describe('editorFor', () => {
  it('gives every writer of one core the same editor (one queue, one history)', async () => {
    const { editorFor } = await import('./commands.js');
    expect(editorFor(host)).toBe(editorFor(host));
    await editorFor(host).setProperty('Captain Varo', 'status', 'dead');
    expect(editorFor(host).history().undo).toHaveLength(1);
    expect(ed.history().undo).toHaveLength(0);
    editorFor(host).dispose();
  });
});
