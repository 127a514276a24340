import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVaultConfig } from './load.js';

function vault(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'lc-config-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('loadVaultConfig', () => {
  it('a folder with neither file opens with defaults', () => {
    const r = loadVaultConfig(vault({}));
    expect(r.problems).toEqual([]);
    expect(r.config.layers).toEqual([{ name: 'main', paths: ['.'], canonical: true, depends_on: [] }]);
    expect(r.schema.entity_types).toEqual([]);
    expect(r.schema.type_rules).toEqual([{ field: 'type' }]);
    expect(r.configFile).toBeUndefined();
    expect(r.schemaFile).toBeUndefined();
  });

  it('reads valid files', () => {
    const dir = vault({
      'lorecraft.yaml': 'project: Test\nlayers:\n  - name: world\n  - name: campaign\n    canonical: false\n    paths: [campaign]\n    depends_on: [world]\nexclude: ["templates/**"]\n',
      'schema.yaml': 'entity_types:\n  - name: npc\n    properties:\n      - { name: status, type: enum, values: [alive, dead] }\n',
    });
    const r = loadVaultConfig(dir);
    expect(r.problems).toEqual([]);
    expect(r.config.project).toBe('Test');
    expect(r.config.layers.map((l) => [l.name, l.canonical, l.depends_on])).toEqual([['world', true, []], ['campaign', false, ['world']]]);
    expect(r.schema.entity_types[0]!.properties[0]).toMatchObject({ name: 'status', type: 'enum', required: false });
    expect(r.configFile).toBe(join(dir, 'lorecraft.yaml'));
  });

  it('names file, line and expectation for a bad value, and keeps the rest', () => {
    const dir = vault({
      'schema.yaml': [
        'entity_types:',              // 1
        '  - name: npc',              // 2
        '    properties:',            // 3
        '      - name: status',       // 4
        '        type: strng',        // 5
        '      - name: age',          // 6
        '        type: integer',      // 7
        '  - name: faction',          // 8
        '    colour: red',            // 9
      ].join('\n'),
    });
    const r = loadVaultConfig(dir);
    const bad = r.problems.find((p) => p.code === 'config-invalid')!;
    expect(bad).toMatchObject({ severity: 'error', file: 'schema.yaml', line: 5 });
    expect(bad.message).toContain('entity_types[0].properties[0].type');
    expect(bad.message).toMatch(/expected one of/);
    const unknown = r.problems.find((p) => p.code === 'config-unknown-key')!;
    expect(unknown).toMatchObject({ severity: 'warning', file: 'schema.yaml', line: 9, field: 'colour' });
    // the bad property is dropped, everything else survives
    expect(r.schema.entity_types.map((t) => t.name)).toEqual(['npc', 'faction']);
    expect(r.schema.entity_types[0]!.properties.map((p) => p.name)).toEqual(['age']);
  });

  it('malformed YAML: a yaml-syntax problem with its line, defaults used', () => {
    const r = loadVaultConfig(vault({ 'lorecraft.yaml': 'project: x\nlayers: [a\nexclude: []\n' }));
    expect(r.problems[0]).toMatchObject({ code: 'yaml-syntax', file: 'lorecraft.yaml', severity: 'error' });
    expect(r.problems[0]!.line).toBeGreaterThanOrEqual(2);
    expect(r.config.layers[0]!.name).toBe('main');
  });

  it('a top-level value of the wrong shape is reported and defaulted', () => {
    const r = loadVaultConfig(vault({ 'lorecraft.yaml': 'project: x\nlayers: 5\n', 'schema.yaml': '- just\n- a list\n' }));
    expect(r.problems.map((p) => [p.file, p.code, p.line])).toEqual([
      ['lorecraft.yaml', 'config-invalid', 2],
      ['schema.yaml', 'config-invalid', 1],
    ]);
    expect(r.config.project).toBe('x');
    expect(r.config.layers[0]!.name).toBe('main');
  });

  it('checks layer references: unknown, self, cycles, duplicates', () => {
    const r = loadVaultConfig(vault({
      'lorecraft.yaml': [
        'layers:',
        '  - { name: a, depends_on: [b] }',
        '  - { name: b, depends_on: [a, ghost] }',
        '  - { name: a }',
      ].join('\n'),
    }));
    const msgs = r.problems.map((p) => `${p.line}:${p.message}`);
    expect(msgs.some((m) => m.startsWith('4:') && m.includes("'a' is declared twice"))).toBe(true);
    expect(msgs.some((m) => m.startsWith('3:') && m.includes("unknown layer 'ghost'"))).toBe(true);
    expect(msgs.some((m) => m.includes('cycle'))).toBe(true);
    expect(r.config.layers.map((l) => l.name)).toEqual(['a', 'b']);
    expect(r.config.layers.flatMap((l) => l.depends_on)).toHaveLength(1);
  });

  it('checks schema references: undeclared relationship is auto-declared, unknown target/rule types reported', () => {
    const r = loadVaultConfig(vault({
      'schema.yaml': [
        'entity_types:',
        '  - name: npc',
        '    field_mappings:',
        '      - { field: faction, relationship: MEMBER_OF, target_type: [faction, guild] }',
        '      - { field: boss, relationship: EMPLOYED_BY }',
        '  - name: faction',
        'relationship_types:',
        '  - { name: MEMBER_OF, inverse: HAS_MEMBER }',
        '  - { name: HAS_MEMBER }',
        'type_rules:',
        '  - { tag: NPC, type: npc }',
        '  - { tag: Monster, type: monster }',
      ].join('\n'),
    }));
    const by = (code: string) => r.problems.filter((p) => p.code === code);
    const refs = by('config-reference');
    expect(refs.find((p) => p.message.includes('EMPLOYED_BY'))).toMatchObject({ severity: 'warning', line: 5 });
    expect(refs.find((p) => p.message.includes("'guild'"))).toMatchObject({ severity: 'error', line: 4 });
    expect(refs.find((p) => p.message.includes("'monster'"))).toMatchObject({ severity: 'error', line: 12 });
    expect(refs.find((p) => p.message.includes("'HAS_MEMBER' is already used"))).toMatchObject({ line: 9 });
    expect(r.schema.relationship_types.map((x) => x.name)).toEqual(['MEMBER_OF', 'EMPLOYED_BY']);
    expect(r.schema.entity_types[0]!.field_mappings[0]!.target_type).toEqual(['faction']);
    expect(r.schema.type_rules).toEqual([{ tag: 'NPC', type: 'npc' }]);
  });

  it('honours override paths and reports a missing override', () => {
    const dir = vault({ 'alt.yaml': 'entity_types: [{ name: place }]\n' });
    const r = loadVaultConfig(dir, { schemaPath: join(dir, 'alt.yaml'), configPath: join(dir, 'nope.yaml') });
    expect(r.schema.entity_types[0]!.name).toBe('place');
    expect(r.problems.map((p) => p.code)).toEqual(['config-missing']);
  });
});
