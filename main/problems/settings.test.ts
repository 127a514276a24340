/** schema.yaml `rules:` overrides, the report shape, filtering and paging. */
import { afterAll, describe, expect, it } from 'vitest';
import { pageProblems } from './list.js';
import { formatReport } from './format.js';
import { cleanupVaults, md, SCHEMA, validateVault, withCode, writeVault } from './test-vault.js';
import { validate } from './index.js';
import { loadVaultModel as loadModel } from '../sync/load-model.js';
import { allRules, computedRules } from './registry.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rule } from './types.js';

afterAll(cleanupVaults);

const files = {
  'setting/Lysa.md': md('title: Lysa\ntype: npc\nstatus: aliv\nmood: grumpy\nfaction: "[[Nobody]]"'),
  'setting/Alone.md': md('title: Alone\ntype: npc'),
};

describe('severity settings in schema.yaml', () => {
  it('defaults without a rules: block', async () => {
    const r = await validateVault(files);
    expect(withCode(r, 'orphan')).toMatchObject([{ severity: 'info' }]);
    expect(withCode(r, 'dangling-link')).toMatchObject([{ severity: 'warning' }]);
    expect(withCode(r, 'unknown-property')).toMatchObject([{ severity: 'info' }]);
    expect(withCode(r, 'enum-value')).toMatchObject([{ severity: 'error' }]);
  });

  it('a severity replaces the default, off drops the rule, true keeps the default, false drops', async () => {
    const schema = `${SCHEMA}\nrules:\n  orphan: off\n  dangling-link: error\n  unknown-property: warning\n  enum-value: false\n  part-of-cycle: true\n`;
    const r = await validateVault(files, { schema });
    expect(withCode(r, 'orphan')).toEqual([]);
    expect(withCode(r, 'dangling-link')).toMatchObject([{ severity: 'error', file: 'setting/Lysa.md' }]);
    expect(withCode(r, 'unknown-property')).toMatchObject([{ severity: 'warning', field: 'mood' }]);
    expect(withCode(r, 'enum-value')).toEqual([]);
    expect(r.rules['dangling-link']).toEqual({ severity: 'error', count: 1 });
    expect(r.rules['orphan']).toBeUndefined();
    expect(withCode(r, 'unknown-rule')).toEqual([]);
  });

  it('timeline-computed rules are configurable too (dead-participant: info)', async () => {
    const ev = (t: string, s: number, rest: string) => md(`title: ${t}\ntype: event\nsession: ${s}\n${rest}`);
    const world = {
      'setting/Varo.md': md('title: Varo\ntype: npc'),
      'war/A.md': ev('A', 1, 'consequences:\n  - { entity: Varo, property: status, value: dead }'),
      'war/B.md': ev('B', 2, 'participants: ["[[Varo]]"]'),
    };
    expect(withCode(await validateVault(world), 'dead-participant')).toMatchObject([{ severity: 'error' }]);
    const r = await validateVault(world, { schema: `${SCHEMA}\nrules: { dead-participant: info }\n` });
    expect(withCode(r, 'dead-participant')).toMatchObject([{ severity: 'info', file: 'war/B.md' }]);
  });

  it('unknown-rule: a code no rule knows is reported (a typo must not silently do nothing)', async () => {
    const r = await validateVault(files, { schema: `${SCHEMA}\nrules:\n  orphans: off\n` });
    expect(withCode(r, 'unknown-rule')).toMatchObject([{ severity: 'warning', field: 'rules.orphans' }]);
    expect(withCode(r, 'orphan')).toHaveLength(1);
  });
});

describe('docs', () => {
  it('docs/validate.md documents every rule code with its default severity', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'validate.md'), 'utf8');
    for (const r of allRules()) expect(doc, r.code).toMatch(new RegExp(`\\| \`${r.code}\` \\| ${r.defaultSeverity} \\|`));
  });
});

describe('robustness', () => {
  it('a rule that throws becomes a rule-failed error; the other rules still report', async () => {
    const host = await loadModel(writeVault(files));
    const broken: Rule = { code: 'boom', defaultSeverity: 'warning', origin: 'problems', summary: 's', hint: 'h', check() { throw new Error('kaput'); } };
    const r = validate(host, undefined, { rules: [broken, ...computedRules()] });
    expect(withCode(r, 'rule-failed')).toMatchObject([{ severity: 'error', message: 'rule boom failed: kaput' }]);
    expect(withCode(r, 'orphan')).toHaveLength(1);
  });
});

describe('report', () => {
  it('is sorted by file then line, with counts per severity, per file and per rule', async () => {
    const r = await validateVault({ ...files, 'setting/Bad.md': md('title: Bad\ntype: npc\nage: old') });
    const keys = r.problems.map((p) => `${p.file}:${String(p.line).padStart(3, '0')}`);
    expect(keys).toEqual([...keys].sort());
    const total = r.counts.error + r.counts.warning + r.counts.info;
    expect(total).toBe(r.problems.length);
    expect(r.counts.error).toBe(2); // enum-value, property-type
    const f = r.files['setting/Lysa.md']!;
    expect(f).toEqual({ error: 1, warning: 1, info: 1 });
    expect(Object.values(r.rules).reduce((n, x) => n + x.count, 0)).toBe(total);
  });

  it('text format groups by file with line:field, severity, code, message and the fix hint', async () => {
    const r = await validateVault(files);
    const text = formatReport(r);
    const i = text.indexOf('setting/Lysa.md');
    expect(i).toBeGreaterThanOrEqual(0);
    expect(text.filter((l) => l === 'setting/Lysa.md')).toHaveLength(1);
    expect(text.some((l) => /^ {2}4:status\s+error\s+enum-value\s+/.test(l))).toBe(true);
    expect(text.some((l) => /fix: /.test(l))).toBe(true);
    expect(text[text.length - 1]).toMatch(/^\d+ problems: 1 error, 1 warning, 2 info$/);
  });

  it('pageProblems filters by severity, file, folder, code and pages with a cursor', async () => {
    const r = await validateVault({ ...files, 'setting/sub/X.md': md('title: X\ntype: npc\nage: old') });
    expect(pageProblems(r, { severity: 'error' }).problems.every((p) => p.severity === 'error')).toBe(true);
    expect(pageProblems(r, { severity: ['error', 'warning'] }).counts.info).toBe(0);
    expect(pageProblems(r, { file: 'setting/Alone.md' }).problems.map((p) => p.code)).toEqual(['orphan']);
    expect(pageProblems(r, { file: 'setting/sub/' }).problems.every((p) => p.file === 'setting/sub/X.md')).toBe(true);
    expect(pageProblems(r, { code: 'dangling-link' }).total).toBe(1);
    const p1 = pageProblems(r, { limit: 2 });
    expect(p1.problems).toHaveLength(2);
    expect(p1.nextCursor).toBeDefined();
    const p2 = pageProblems(r, { limit: 2, cursor: p1.nextCursor! });
    expect(p2.problems[0]).toEqual(r.problems[2]);
    const all = [];
    let cursor: string | undefined;
    do { const p = pageProblems(r, { limit: 3, ...(cursor ? { cursor } : {}) }); all.push(...p.problems); cursor = p.nextCursor; } while (cursor);
    expect(all).toEqual(r.problems);
    expect(() => pageProblems(r, { cursor: 'garbage' })).toThrow(/invalid cursor/);
  });
});
