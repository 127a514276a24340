/**
 * Every rule over a small real vault that triggers it and one that does not.
 * Rules found by other modules (parser, config, model, timeline) are included:
 * validate() must gather them with file, line and field.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupVaults, md, validateVault, withCode } from './test-vault.js';

afterAll(cleanupVaults);

const lysa = (extra = '') => md(`title: Lysa Quent\ntype: npc\nstatus: alive\nfaction: "[[Bureau]]"\n${extra}`);
const bureau = md('title: Bureau\ntype: faction\nmotto: Order');

describe('schema violations', () => {
  it('unknown-property: a key the type does not declare, at its line (info)', async () => {
    const r = await validateVault({ 'setting/Lysa.md': lysa('mood: grumpy'), 'setting/Bureau.md': bureau });
    const ps = withCode(r, 'unknown-property');
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ severity: 'info', file: 'setting/Lysa.md', line: 6, field: 'mood', entityId: 'setting/lysa quent' });
    expect(ps[0]!.message).toContain("'mood'");
    expect(ps[0]!.hint).toBeTruthy();
  });

  it('unknown-property: declared properties, mapped fields, reserved keys and event fields are not reported', async () => {
    const r = await validateVault({
      'setting/Lysa.md': lysa('role: Director\nage: 40\ntags: [x]\naliases: [LQ]\nrelated: "[[Bureau]]"'),
      'setting/Bureau.md': bureau,
      'war/Ev.md': md('title: Ev\ntype: event\nsession: 1\ndate_in_world: 1203-01-01\nparticipants: ["[[Lysa Quent]]"]\nlocation: "[[Bureau]]"\nconsequences: []'),
    });
    expect(withCode(r, 'unknown-property')).toEqual([]);
  });

  it('property-type: a value of the wrong type (config validateProperties, gathered)', async () => {
    const bad = await validateVault({ 'setting/Lysa.md': lysa('age: old'), 'setting/Bureau.md': bureau });
    expect(withCode(bad, 'property-type')).toMatchObject([{ severity: 'error', file: 'setting/Lysa.md', line: 6, field: 'age' }]);
    const good = await validateVault({ 'setting/Lysa.md': lysa('age: 40'), 'setting/Bureau.md': bureau });
    expect(withCode(good, 'property-type')).toEqual([]);
  });

  it('enum-value: a value not in the enum', async () => {
    const bad = await validateVault({ 'setting/Lysa.md': md('title: Lysa\ntype: npc\nstatus: aliv') });
    expect(withCode(bad, 'enum-value')).toMatchObject([{ severity: 'error', file: 'setting/Lysa.md', line: 4, field: 'status' }]);
    const good = await validateVault({ 'setting/Lysa.md': md('title: Lysa\ntype: npc\nstatus: dead') });
    expect(withCode(good, 'enum-value')).toEqual([]);
  });

  it('required-missing: a required property is absent', async () => {
    const schema = (await import('./test-vault.js')).SCHEMA.replace('{ name: motto, type: string }', '{ name: motto, type: string, required: true }');
    const bad = await validateVault({ 'setting/Bureau.md': md('title: Bureau\ntype: faction') }, { schema });
    expect(withCode(bad, 'required-missing')).toMatchObject([{ file: 'setting/Bureau.md', field: 'motto' }]);
    const good = await validateVault({ 'setting/Bureau.md': md('title: Bureau\ntype: faction\nmotto: Order') }, { schema });
    expect(withCode(good, 'required-missing')).toEqual([]);
  });

  it('unknown-type: a type the schema does not define (model, gathered)', async () => {
    const bad = await validateVault({ 'setting/X.md': md('title: X\ntype: monstr') });
    expect(withCode(bad, 'unknown-type')).toMatchObject([{ file: 'setting/X.md', line: 3, field: 'type' }]);
    const good = await validateVault({ 'setting/X.md': md('title: X\ntype: npc') });
    expect(withCode(good, 'unknown-type')).toEqual([]);
  });
});

describe('relationship-target-type', () => {
  it('a mapped field pointing at a note of a type not in target_type', async () => {
    const r = await validateVault({
      'setting/Lysa.md': md('title: Lysa\ntype: npc\nfaction: "[[Millbrook]]"'),
      'setting/Millbrook.md': md('title: Millbrook\ntype: settlement'),
    });
    const ps = withCode(r, 'relationship-target-type');
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ severity: 'warning', file: 'setting/Lysa.md', line: 4, field: 'faction', entityId: 'setting/lysa' });
    expect(ps[0]!.message).toContain('settlement');
    expect(ps[0]!.message).toContain('faction');
  });

  it('an inverse-named field is checked from the declaring note (ruled_by -> RULES stored ruler -> place)', async () => {
    const r = await validateVault({
      'setting/Millbrook.md': md('title: Millbrook\ntype: settlement\nruled_by: "[[Oldmere]]"'),
      'setting/Oldmere.md': md('title: Oldmere\ntype: settlement'),
    });
    expect(withCode(r, 'relationship-target-type')).toMatchObject([{ file: 'setting/Millbrook.md', field: 'ruled_by', line: 4 }]);
  });

  it('allowed targets, placeholders, untargeted mappings and body links are not reported', async () => {
    const r = await validateVault({
      'setting/Lysa.md': md('title: Lysa\ntype: npc\nfaction: "[[Bureau]]"\nhome: "[[Nowhere]]"\nrelated: "[[Millbrook]]"', 'See [[Millbrook]].'),
      'setting/Bureau.md': bureau,
      'setting/Millbrook.md': md('title: Millbrook\ntype: settlement\nruled_by: "[[Lysa]]"'),
    });
    expect(withCode(r, 'relationship-target-type')).toEqual([]);
  });
});

describe('links and names', () => {
  it('dangling-link: one problem per referring file and line', async () => {
    const r = await validateVault({
      'setting/Lysa.md': md('title: Lysa\ntype: npc\nfaction: "[[Guild of Ash]]"', 'Body\n\nMentions [[Guild of Ash]].'),
      'setting/Varo.md': md('title: Varo\ntype: npc\nfaction: Guild of Ash'),
    });
    const ps = withCode(r, 'dangling-link');
    expect(ps.map((p) => [p.file, p.line, p.field ?? null])).toEqual([
      ['setting/Lysa.md', 4, 'faction'],
      ['setting/Lysa.md', 8, null],
      ['setting/Varo.md', 4, 'faction'],
    ]);
    expect(ps[0]!.message).toContain('Guild of Ash');
    const good = await validateVault({ 'setting/Lysa.md': lysa(), 'setting/Bureau.md': bureau });
    expect(withCode(good, 'dangling-link')).toEqual([]);
  });

  it('orphan: a note with no relationship in or out (info); linked notes are not orphans', async () => {
    const r = await validateVault({ 'setting/Lysa.md': lysa(), 'setting/Bureau.md': bureau, 'setting/Alone.md': md('title: Alone\ntype: npc') });
    expect(withCode(r, 'orphan')).toMatchObject([{ severity: 'info', file: 'setting/Alone.md', line: 1, entityId: 'setting/alone' }]);
    const linkedByBody = await validateVault({ 'setting/A.md': md('title: A\ntype: npc', 'See [[B]].'), 'setting/B.md': md('title: B\ntype: npc') });
    expect(withCode(linkedByBody, 'orphan')).toEqual([]);
  });

  it('duplicate-name: two notes with one name in a layer (model, gathered)', async () => {
    const r = await validateVault({ 'setting/a/Varo.md': md('title: Varo\ntype: npc'), 'setting/b/Varo.md': md('title: Varo\ntype: npc') });
    expect(withCode(r, 'duplicate-name')).toMatchObject([{ file: 'setting/b/Varo.md' }]);
    const otherLayer = await validateVault({ 'setting/Varo.md': md('title: Varo\ntype: npc'), 'war/Varo2.md': md('title: Varo Two\ntype: npc') });
    expect(withCode(otherLayer, 'duplicate-name')).toEqual([]);
  });

  it("duplicate-alias: an alias equal to another note's name or alias in the same layer", async () => {
    const r = await validateVault({
      'setting/Lysa.md': md('title: Lysa Quent\ntype: npc\naliases: [Director, Varo]'),
      'setting/Varo.md': md('title: Varo\ntype: npc\naliases: [The Director]'),
      'setting/Wren.md': md('title: Wren\ntype: npc\naliases:\n  - director'),
    });
    const ps = withCode(r, 'duplicate-alias');
    expect(ps.map((p) => [p.file, p.line, p.field])).toEqual([
      ['setting/Lysa.md', 4, 'aliases'], // Director (= Wren's alias)
      ['setting/Lysa.md', 4, 'aliases'], // Varo (= Varo's name)
      ['setting/Wren.md', 4, 'aliases'], // director (= Lysa's alias)
    ]);
    expect(ps.some((p) => p.message.includes("'Varo'") && p.message.includes('the name of'))).toBe(true);
  });

  it('duplicate-alias: own name as alias, distinct aliases, and the same alias in different layers are fine', async () => {
    const r = await validateVault({
      'setting/Lysa.md': md('title: Lysa Quent\ntype: npc\naliases: [Lysa Quent, LQ, LQ]'),
      'setting/Varo.md': md('title: Varo\ntype: npc\naliases: [The Captain]'),
      'war/Varo.md': md('title: Young Varo\ntype: npc\naliases: [The Captain]'),
    });
    expect(withCode(r, 'duplicate-alias')).toEqual([]);
  });

  it('part-of-cycle: a hierarchy relationship that loops (model, gathered), one per edge', async () => {
    const r = await validateVault({
      'setting/A.md': md('title: A\ntype: region\nregion: "[[B]]"'),
      'setting/B.md': md('title: B\ntype: region\nregion: "[[A]]"'),
      'setting/C.md': md('title: C\ntype: region\nregion: "[[A]]"'),
    });
    expect(withCode(r, 'part-of-cycle').map((p) => [p.file, p.line, p.field])).toEqual([
      ['setting/A.md', 4, 'region'], ['setting/B.md', 4, 'region'],
    ]);
    const tree = await validateVault({
      'setting/A.md': md('title: A\ntype: region'),
      'setting/B.md': md('title: B\ntype: region\nregion: "[[A]]"'),
    });
    expect(withCode(tree, 'part-of-cycle')).toEqual([]);
  });
});

describe('files', () => {
  it('yaml-syntax: broken frontmatter is gathered from the parser with its line', async () => {
    const r = await validateVault({ 'setting/Bad.md': '---\ntitle: Bad\ntype: [npc\n---\nx\n' });
    const ps = withCode(r, 'yaml-syntax');
    expect(ps).toHaveLength(1);
    expect(ps[0]).toMatchObject({ severity: 'error', file: 'setting/Bad.md' });
    expect(ps[0]!.line).toBeGreaterThan(0);
  });
});
