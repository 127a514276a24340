import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../index.js';
import { removeVault, writeVault } from '../../edit/test-host.js';
import { parseValue } from './edit.js';

const SCHEMA = `
entity_types:
  - name: npc
    properties:
      - { name: status, type: enum, values: [alive, dead] }
      - { name: age, type: integer }
      - { name: rank, type: string }
      - { name: titles, type: list, items: string }
    field_mappings:
      - { field: organization, relationship: MEMBER_OF, target_type: faction }
  - name: faction
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
`;

let vault: string;
beforeEach(() => {
  vault = writeVault({
    'schema.yaml': SCHEMA,
    'Varo.md': '---\ntype: npc\nstatus: alive\norganization: ["[[Red Hand]]"]\n---\nSee [[Red Hand|them]].\n',
    'Red Hand.md': '---\ntype: faction\n---\n',
    'Iron Guild.md': '---\ntype: faction\n---\n',
  });
});
afterEach(() => removeVault(vault));

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['edit', ...args], { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const read = (p: string) => readFileSync(join(vault, p), 'utf8');

describe('lorecraft edit', () => {
  it('set prints the changed file; --json gives { changed: [{ path, diff }] }', async () => {
    const r = await cli('set', 'Varo', 'age', '41', '--vault', vault);
    expect(r.code).toBe(0);
    expect(r.out).toBe('changed Varo.md');
    expect(read('Varo.md')).toContain('status: alive\norganization: ["[[Red Hand]]"]\nage: 41\n---');
    const j = await cli('set', 'Varo', 'status', 'dead', '--vault', vault, '--json');
    const parsed = JSON.parse(j.out) as { changed: Array<{ path: string; diff: string }> };
    expect(parsed.changed[0]!.path).toBe('Varo.md');
    expect(parsed.changed[0]!.diff).toContain('+status: dead');
  });
  it('refuses invalid edits with exit 1 and the reason, usage errors with exit 2', async () => {
    const r = await cli('set', 'Varo', 'status', 'zombie', '--vault', vault);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/npc\.status must be one of "alive", "dead"/);
    expect(read('Varo.md')).toContain('status: alive');
    const j = await cli('link', 'Varo', 'MEMBER_OF', 'Varo', '--vault', vault, '--json');
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out).error.code).toBe('invalid');
    expect((await cli('set', 'Varo', 'age', '--vault', vault)).code).toBe(2);
    expect((await cli('frobnicate', 'x', '--vault', vault)).code).toBe(2);
    expect((await cli('unset', 'Varo', 'age')).code).toBe(2);
  });
  it('link, unlink, rename, create, delete', async () => {
    expect((await cli('link', 'Varo', 'MEMBER_OF', 'Iron Guild', '--vault', vault)).code).toBe(0);
    expect(read('Varo.md')).toContain('organization: ["[[Red Hand]]", "[[Iron Guild]]"]');
    expect((await cli('unlink', 'Varo', 'MEMBER_OF', 'Red Hand', '--vault', vault)).code).toBe(0);
    expect(read('Varo.md')).toContain('organization: ["[[Iron Guild]]"]');
    const rn = await cli('rename', 'Red Hand', 'Red Hand Gang', '--vault', vault);
    expect(rn.code).toBe(0);
    expect(rn.out.split('\n').sort()).toEqual(['changed Red Hand Gang.md', 'changed Red Hand.md', 'changed Varo.md']);
    expect(read('Varo.md')).toContain('See [[Red Hand Gang|them]].');
    const cr = await cli('create', 'npc', 'Lady Wren', '--vault', vault, '--json');
    expect(JSON.parse(cr.out).path).toBe('Lady Wren.md');
    expect(read('Lady Wren.md')).toBe('---\ntype: npc\n---\n# Lady Wren\n');
    const del = await cli('delete', 'Iron Guild', '--vault', vault);
    expect(del.code).toBe(0);
    expect(del.out).toContain('still referring to it (1):\n  Varo.md');
    expect(existsSync(join(vault, 'Iron Guild.md'))).toBe(false);
  });
  it('reads VALUE per the property type', () => {
    expect(parseValue('42', 'string')).toBe('42');
    expect(parseValue('42', 'integer')).toBe(42);
    expect(parseValue('true', 'boolean')).toBe(true);
    expect(parseValue('1203-05-14', 'date')).toBe('1203-05-14');
    expect(parseValue('[a, b]', 'list')).toEqual(['a', 'b']);
    expect(parseValue('a', 'list')).toEqual(['a']);
    expect(parseValue('yes', 'enum', ['yes', 'no'])).toBe('yes');
  });
});
