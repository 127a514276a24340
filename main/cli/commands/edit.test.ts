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

describe('lorecraft edit trash / restore / rel-set / rel-unset', () => {
  it('trash lists a deleted note; restore puts it back byte for byte', async () => {
    const before = read('Varo.md');
    expect((await cli('trash', '--vault', vault)).out).toBe('the trash is empty');
    expect((await cli('delete', 'Varo', '--vault', vault)).code).toBe(0);
    expect(existsSync(join(vault, 'Varo.md'))).toBe(false);
    const listed = await cli('trash', '--vault', vault, '--json');
    expect(listed.code).toBe(0);
    const items = (JSON.parse(listed.out) as { items: Array<{ trashPath: string; path: string; deletedAt: string; size: number }> }).items;
    expect(items).toEqual([expect.objectContaining({ path: 'Varo.md', size: Buffer.byteLength(before) })]);
    const text = await cli('trash', '--vault', vault);
    expect(text.out).toBe(`${items[0]!.trashPath}  ${items[0]!.deletedAt}  Varo.md`);
    const r = await cli('restore', items[0]!.trashPath, '--vault', vault, '--json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { path: string }).path).toBe('Varo.md');
    expect(read('Varo.md')).toBe(before);
    expect((await cli('trash', '--vault', vault)).out).toBe('the trash is empty');
    const bad = await cli('restore', 'Varo.md', '--vault', vault);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('is not a file in the trash');
  });

  it('rel-set and rel-unset edit one relationship item, with the schema refusing a wrong value', async () => {
    writeVault({ 'schema.yaml': SCHEMA.replace('  - { name: MEMBER_OF, inverse: HAS_MEMBER }', '  - name: MEMBER_OF\n    inverse: HAS_MEMBER\n    properties:\n      - { name: rank, type: integer }') }, vault);
    const before = read('Varo.md');
    const r = await cli('rel-set', 'Varo', 'MEMBER_OF', 'Red Hand', 'rank', '2', '--vault', vault);
    expect(r.code).toBe(0);
    expect(read('Varo.md')).toBe(before.replace('["[[Red Hand]]"]', '[{ to: "[[Red Hand]]", rank: 2 }]'));
    expect((await cli('rel-set', 'Varo', 'MEMBER_OF', 'Red Hand', 'until', '[[The Fall]]', '--vault', vault)).code).toBe(0);
    expect(read('Varo.md')).toContain('[{ to: "[[Red Hand]]", rank: 2, until: "[[The Fall]]" }]');
    const bad = await cli('rel-set', 'Varo', 'MEMBER_OF', 'Red Hand', 'rank', 'high', '--vault', vault);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("MEMBER_OF property 'rank' must be a whole number");
    await cli('rel-unset', 'Varo', 'MEMBER_OF', 'Red Hand', 'until', '--vault', vault);
    await cli('rel-unset', 'Varo', 'MEMBER_OF', 'Red Hand', 'rank', '--vault', vault);
    expect(read('Varo.md')).toBe(before);
  });
});
