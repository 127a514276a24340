import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVaultConfig } from './load.js';
import { compileSchema, schemaFingerprint } from './schema-index.js';
import { validateProperties } from './validate.js';
import { parseNote } from '../parse/parse.js';

const SCHEMA = `
entity_types:
  - name: npc
    properties:
      - { name: status, type: enum, values: [alive, dead], default: alive }
      - { name: age, type: integer }
      - { name: born, type: date }
      - { name: hostile, type: boolean }
      - { name: weight, type: number }
      - { name: titles, type: list, items: string }
      - { name: moods, type: list, values: [calm, angry] }
      - { name: home, type: string, required: true }
    field_mappings:
      - { field: faction, relationship: MEMBER_OF, target_type: faction }
      - { field: allies, relationship: ALLIED_WITH }
  - name: faction
    field_mappings:
      - { field: members, relationship: HAS_MEMBER, target_type: npc }
      - { field: ruler, relationship: RULED_BY, target_type: [npc], cardinality: scalar }
  - name: settlement
  - name: location
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: ALLIED_WITH, symmetric: true }
  - { name: RULES, inverse: RULED_BY, rules: true }
type_rules:
  - { field: type }
  - { tag: NPC, type: npc }
  - { tag: Location/Settlement, type: settlement }
  - { tag: Location, type: location, nested: true }
  - { folder: Factions, type: faction }
`;

function index(schemaText = SCHEMA) {
  const dir = mkdtempSync(join(tmpdir(), 'lc-index-'));
  writeFileSync(join(dir, 'schema.yaml'), schemaText);
  const r = loadVaultConfig(dir);
  expect(r.problems).toEqual([]);
  return compileSchema(r.schema);
}
const note = (path: string, text: string) => parseNote(path, Buffer.from(text));

describe('compileSchema', () => {
  const ix = index();

  it('maps fields to canonical relationships, inverse names reversed', () => {
    expect(ix.mappingFor('npc', 'faction')).toEqual({ field: 'faction', relationship: 'MEMBER_OF', declaredAs: 'MEMBER_OF', reversed: false, targetTypes: ['faction'], cardinality: 'list' });
    expect(ix.mappingFor('faction', 'members')).toMatchObject({ relationship: 'MEMBER_OF', declaredAs: 'HAS_MEMBER', reversed: true, targetTypes: ['npc'] });
    expect(ix.mappingFor('faction', 'ruler')).toMatchObject({ relationship: 'RULES', reversed: true, cardinality: 'scalar' });
    expect(ix.mappingFor('NPC', 'related')).toMatchObject({ relationship: 'RELATED_TO', reversed: false });
    expect(ix.mappingFor(null, 'related')).toMatchObject({ relationship: 'RELATED_TO' });
    expect(ix.mappingFor('npc', 'age')).toBeNull();
    expect(ix.mappingFor(null, 'faction')).toBeNull();
    expect(ix.mappings('settlement').map((m) => m.field)).toEqual(['related']);
  });

  it('knows relationship names both ways', () => {
    expect(ix.canonicalName('HAS_MEMBER')).toBe('MEMBER_OF');
    expect(ix.inverseOf('MEMBER_OF')).toBe('HAS_MEMBER');
    expect(ix.inverseOf('HAS_MEMBER')).toBe('MEMBER_OF');
    expect(ix.inverseOf('ALLIED_WITH')).toBe('ALLIED_WITH');
    expect(ix.inverseOf('LINKS_TO')).toBeNull();
    expect(ix.isSymmetric('ALLIED_WITH')).toBe(true);
    expect(ix.isSymmetric('RELATED_TO')).toBe(true);
    expect(ix.isSymmetric('MEMBER_OF')).toBe(false);
    expect(ix.relationship('RULED_BY')).toMatchObject({ name: 'RULES', rules: true });
    expect(ix.relationshipTypes().map((r) => r.name)).toEqual(['MEMBER_OF', 'ALLIED_WITH', 'RULES', 'RELATED_TO', 'LINKS_TO']);
    expect(ix.canonicalName('NOPE')).toBeNull();
  });

  it('lists the relationships a drag from one type to another may create', () => {
    expect(ix.allowedRelationships('npc', 'faction')).toEqual([
      { field: 'faction', relationship: 'MEMBER_OF', label: 'MEMBER_OF', reversed: false, on: 'from' },
      { field: 'allies', relationship: 'ALLIED_WITH', label: 'ALLIED_WITH', reversed: false, on: 'from' },
      { field: 'members', relationship: 'MEMBER_OF', label: 'HAS_MEMBER', reversed: true, on: 'to' },
      { field: 'ruler', relationship: 'RULES', label: 'RULED_BY', reversed: true, on: 'to' },
      { field: 'related', relationship: 'RELATED_TO', label: 'RELATED_TO', reversed: false, on: 'from' },
    ]);
    expect(ix.allowedRelationships('npc', 'settlement').map((a) => a.field)).toEqual(['allies', 'related']);
    expect(ix.allowedRelationships(null, null).map((a) => a.field)).toEqual(['related']);
  });

  it('resolves types by rules in order: field, tag (case-insensitive, nested only when asked), folder', () => {
    expect(ix.resolveType(note('a.md', '---\ntype: NPC\ntags: [Location]\n---\n'))).toBe('npc');
    expect(ix.resolveType(note('a.md', '---\ntags: ["#npc"]\n---\n'))).toBe('npc');
    expect(ix.resolveType(note('a.md', 'body #NPC\n'))).toBe('npc');
    expect(ix.resolveType(note('a.md', '---\ntags: [Location, Location/Settlement]\n---\n'))).toBe('settlement');
    expect(ix.resolveType(note('a.md', '---\ntags: [location/poi]\n---\n'))).toBe('location');
    expect(ix.resolveType(note('Factions/Guild.md', 'x'))).toBe('faction');
    expect(ix.resolveType(note('factions/sub/Guild.md', 'x'))).toBe('faction');
    expect(ix.resolveType(note('FactionsX/Guild.md', 'x'))).toBeNull();
    expect(ix.resolveType(note('misc.md', '---\ntags: [NPCs]\n---\n'))).toBeNull();
    // an exact-only tag rule does not match a child tag
    const exact = index('entity_types: [{ name: npc }]\ntype_rules: [{ tag: NPC, type: npc }]\n');
    expect(exact.resolveType(note('a.md', '---\ntags: [NPC/Villain]\n---\n'))).toBeNull();
  });

  it('reports a type value that names no declared type, and keeps trying later rules', () => {
    const r = ix.resolveTypeInfo(note('a.md', '---\ntitle: X\ntype: monstr\n---\n'));
    expect(r).toEqual({ type: null, rule: null, unknown: { value: 'monstr', field: 'type', line: 3 } });
    expect(ix.resolveTypeInfo(note('a.md', '---\ntype: monstr\ntags: [NPC]\n---\n'))).toEqual({ type: 'npc', rule: 1 });
  });

  it('field rules may map values', () => {
    const m = index('entity_types: [{ name: npc }]\ntype_rules: [{ field: kind, map: { Character: npc } }]\n');
    expect(m.resolveType(note('a.md', '---\nkind: character\n---\n'))).toBe('npc');
  });

  it('defaults and a no-schema index', () => {
    expect(ix.defaultsFor('npc')).toEqual({ status: 'alive' });
    expect(ix.defaultsFor(null)).toEqual({});
    const empty = index('');
    expect(empty.typeNames).toEqual([]);
    expect(empty.resolveType(note('a.md', '---\ntype: npc\n---\n'))).toBeNull();
    expect(empty.events).toEqual({ type: 'event', session_field: 'session', date_field: 'date_in_world', participants_field: 'participants', location_field: 'location' });
  });

  it('fingerprint: stable, ignores ui and rules, changes with the graph schema', () => {
    const a = index().schema;
    expect(schemaFingerprint(a)).toBe(ix.fingerprint);
    expect(schemaFingerprint({ ...a, ui: { types: { npc: { color: 'red' } } }, rules: { 'enum-value': 'off' } })).toBe(ix.fingerprint);
    expect(schemaFingerprint({ ...a, title_field: 'name' })).not.toBe(ix.fingerprint);
  });
});

describe('validateProperties', () => {
  const ix = index();
  it('accepts good values', () => {
    const n = note('v.md', '---\nstatus: dead\nage: 40\nborn: -120-03-01\nhostile: false\nweight: 70.5\ntitles: [Sir]\nmoods: calm\nhome: Millbrook\n---\n');
    expect(validateProperties(n, 'npc', ix)).toEqual([]);
  });
  it('reports enum, type and required problems with file, line, field and hint', () => {
    const n = note('v.md', '---\nstatus: undead\nage: forty\nborn: someday\nhostile: "yes"\nweight: heavy\ntitles: [{ a: 1 }]\nmoods: [calm, sleepy]\n---\n');
    const ps = validateProperties(n, 'npc', ix);
    expect(ps.map((p) => [p.code, p.field, p.line])).toEqual([
      ['enum-value', 'status', 2], ['property-type', 'age', 3], ['property-type', 'born', 4],
      ['property-type', 'hostile', 5], ['property-type', 'weight', 6], ['property-type', 'titles', 7],
      ['enum-value', 'moods', 8], ['required-missing', 'home', 1],
    ]);
    for (const p of ps) { expect(p.file).toBe('v.md'); expect(p.hint).toBeTruthy(); }
    expect(ps[0]!.message).toContain('alive, dead');
  });
  it('untyped notes have nothing to validate', () => {
    expect(validateProperties(note('v.md', '---\nstatus: 3\n---\n'), null, ix)).toEqual([]);
  });
});
