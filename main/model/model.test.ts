import { describe, expect, it } from 'vitest';
import type { ParsedNote } from '../parse/types.js';
import { VaultModel } from './model.js';
import { config, note, schemaView } from './test-helpers.js';

const SCHEMA = `
entity_types:
  - name: npc
    properties:
      - { name: status, type: enum, values: [alive, dead] }
    field_mappings:
      - { field: faction, relationship: MEMBER_OF }
      - { field: home, relationship: LOCATED_IN }
  - name: faction
    field_mappings:
      - { field: members, relationship: HAS_MEMBER }
  - name: place
    field_mappings:
      - { field: part_of, relationship: PART_OF }
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: LOCATED_IN }
  - { name: PART_OF, hierarchy: true }
`;

function build(notes: ParsedNote[], cfgYaml = '', schemaYaml = SCHEMA): VaultModel {
  const m = new VaultModel(config(cfgYaml), schemaView(schemaYaml));
  m.load(notes);
  return m;
}

const edgesOf = (m: VaultModel) => [...m.edges()].map((e) => `${e.from} -${e.type}-> ${e.to}`).sort();

describe('VaultModel resolution', () => {
  it('resolves field mappings, inverse mappings, related and body links', () => {
    const m = build([
      note('npcs/Varo.md', '---\ntype: npc\nfaction: "[[Red Hand]]"\nhome: Millbrook\nrelated: [Wren]\n---\nVaro knows [[Wren]] and [[wren|her]].\n'),
      note('factions/Red Hand.md', '---\ntype: faction\nmembers:\n  - "[[Wren]]"\n---\n'),
      note('Wren.md', '---\ntype: npc\n---\n'),
      note('places/Millbrook.md', '---\ntype: place\n---\n'),
    ]);
    expect(edgesOf(m)).toEqual([
      'main/varo -LINKS_TO-> main/wren',
      'main/varo -LOCATED_IN-> main/millbrook',
      'main/varo -MEMBER_OF-> main/red hand',
      'main/varo -RELATED_TO-> main/wren',
      'main/wren -MEMBER_OF-> main/red hand',
    ]);
    const varo = m.entity('main/varo')!;
    expect(varo.type).toBe('npc');
    expect(varo.properties).toEqual({});
    expect(m.entityIdOfPath('Wren.md')).toBe('main/wren');
    expect(m.referrers('main/wren')).toEqual(['factions/Red Hand.md', 'npcs/Varo.md']);
  });

  it('matches names case-insensitively against titles, file names, aliases and vault paths', () => {
    const m = build([
      note('a/Source.md', '---\ntitle: Source\n---\n[[the grey lady]] [[file-name]] [[b/Deep/Thing]] [[ALIASED]]\n'),
      note('x/the grey lady.md', '---\ntitle: The Grey Lady\n---\n'),
      note('file-name.md', '---\ntitle: Pretty Title\n---\n'),
      note('b/Deep/Thing.md', '---\ntitle: Other Name\n---\n'),
      note('c.md', '---\ntitle: Cee\naliases: [Aliased]\n---\n'),
    ]);
    expect(edgesOf(m)).toEqual([
      'main/source -LINKS_TO-> main/cee',
      'main/source -LINKS_TO-> main/other name',
      'main/source -LINKS_TO-> main/pretty title',
      'main/source -LINKS_TO-> main/the grey lady',
    ]);
    expect(m.counts().placeholders).toBe(0);
    expect(m.resolve('[[aliased]]', 'main')?.id).toBe('main/cee');
  });

  it('makes placeholders for missing targets and replaces them when the note appears', () => {
    const m = build([note('A.md', '---\ntype: npc\nfaction: Ghost Guild\n---\nsee [[Nowhere]]\n')]);
    expect(m.entity('main/ghost guild')?.placeholder).toBe(true);
    expect(m.entity('main/nowhere')?.placeholder).toBe(true);
    expect(m.problems().filter((p) => p.code === 'dangling-link').map((p) => [p.file, p.line, p.field])).toEqual([
      ['A.md', 3, 'faction'], ['A.md', 5, undefined],
    ]);
    const d = m.applyChanges(new Map([['Ghost Guild.md', note('Ghost Guild.md', '---\ntype: faction\n---\n')]]));
    expect(m.entity('main/ghost guild')?.placeholder).toBe(false);
    expect(d.upsertEntities.map((e) => [e.id, e.placeholder])).toEqual([['main/ghost guild', false]]);
    const d2 = m.applyChanges(new Map([['A.md', note('A.md', '---\ntype: npc\n---\n')]]));
    expect(m.entity('main/nowhere')).toBeUndefined();
    expect(d2.removeEntities).toContain('main/nowhere');
    expect(m.entity('main/ghost guild')?.placeholder).toBe(false);
  });

  it('keeps duplicate names apart with #2 and a problem, and shifts ids when the first goes', () => {
    const m = build([
      note('a/Dello.md', '---\ntype: npc\n---\n'),
      note('b/Dello.md', '---\ntype: npc\n---\n'),
      note('Link.md', '[[Dello]]\n'),
    ]);
    expect(m.entityIdOfPath('a/Dello.md')).toBe('main/dello');
    expect(m.entityIdOfPath('b/Dello.md')).toBe('main/dello#2');
    const dup = m.problems().filter((p) => p.code === 'duplicate-name');
    expect(dup.map((p) => p.file)).toEqual(['b/Dello.md']);
    const d = m.applyChanges(new Map([['a/Dello.md', null]]));
    expect(m.entityIdOfPath('b/Dello.md')).toBe('main/dello');
    expect(d.removeEntities).toEqual(['main/dello#2']);
    expect(edgesOf(m)).toEqual(['main/link -LINKS_TO-> main/dello']);
    expect(m.entity('main/dello')?.path).toBe('b/Dello.md');
    expect(m.problems().filter((p) => p.code === 'duplicate-name')).toEqual([]);
  });

  it("a name holding '#' is not a duplicate of itself (regression: '# Racial Traits.md')", () => {
    const m = build([note('# Racial Traits.md', 'x\n'), note('Dello#2.md', 'y\n')]);
    expect(m.entityIdOfPath('# Racial Traits.md')).toBe('main/# racial traits');
    expect(m.problems().filter((p) => p.code === 'duplicate-name')).toEqual([]);
  });

  it('reports unknown types, enum values and hierarchy cycles with file and line', () => {
    const m = build([
      note('X.md', '---\ntype: dragon\n---\n'),
      note('Y.md', '---\ntype: npc\nstatus: undead\n---\n'),
      note('P1.md', '---\ntype: place\npart_of: P2\n---\n'),
      note('P2.md', '---\ntype: place\npart_of: "[[P1]]"\n---\n'),
    ]);
    const got = m.problems().map((p) => `${p.code}@${p.file}:${p.line}`).sort();
    expect(got).toContain('unknown-type@X.md:2');
    expect(got.some((g) => g.startsWith('enum') && g.endsWith('@Y.md:3'))).toBe(true);
    expect(got).toContain('part-of-cycle@P1.md:3');
    expect(got).toContain('part-of-cycle@P2.md:3');
    expect(m.entity('main/x')?.type).toBeNull();
  });

  it('puts notes in layers and resolves through depends_on', () => {
    const cfg = `
layers:
  - { name: world, paths: [World] }
  - { name: campaign, paths: [Campaign], canonical: false, depends_on: [world] }
exclude: ["Templates/**"]
`;
    const m = build([
      note('World/Millbrook.md', '# Millbrook\n[[Session One]]\n'),
      note('Campaign/Session One.md', 'We reach [[Millbrook]].\n'),
      note('Templates/T.md', '[[x]]\n'),
    ], cfg);
    expect(m.layerOf('Templates/T.md')).toBeNull();
    expect(m.note('Templates/T.md')).toBeUndefined();
    expect(edgesOf(m)).toEqual([
      'campaign/session one -LINKS_TO-> world/millbrook',
      'world/millbrook -LINKS_TO-> world/session one',
    ]);
    expect(m.entity('world/session one')?.placeholder).toBe(true);
  });

  it('keeps properties minus reserved and mapped fields', () => {
    const m = build([note('V.md', '---\ntitle: Varo\ntype: npc\ntags: [a]\naliases: [V]\nfaction: X\nstatus: alive\nage: 40\n---\n')]);
    expect(m.entity('main/varo')?.properties).toEqual({ status: 'alive', age: 40 });
    expect(m.entity('main/varo')?.aliases).toEqual(['V']);
  });
});

describe('normKey', () => {
  it('equals normaliseName on any string', async () => {
    const fc = (await import('fast-check')).default;
    const { normaliseName } = await import('../../shared/names.js');
    const { normKey } = await import('./names.js');
    const chars = fc.constantFrom('a', 'Z', ' ', '  ', '\t', '\n', 'é', 'e\u0301', 'İ', 'ß', '/', '#', '0', 'Ω');
    fc.assert(fc.property(fc.array(chars, { maxLength: 12 }).map((l) => l.join('')), (s) => normKey(s) === normaliseName(s)), { numRuns: 2000, seed: 5 });
    fc.assert(fc.property(fc.string(), (s) => normKey(s) === normaliseName(s)), { numRuns: 2000, seed: 6 });
  });
});
