import { describe, expect, it } from 'vitest';
import type { Problem } from '../../../shared/types.js';
import { countBySeverity, cssAttr, fieldSelectors, groupProblems, problemTarget } from './group.js';

const p = (file: string | undefined, severity: Problem['severity'], line = 1, code = 'x'): Problem =>
  ({ severity, code, message: `${code} at ${file}:${line}`, ...(file ? { file } : {}), line });

const all = { error: true, warning: true, info: true };

describe('groupProblems', () => {
  const list = [p('a.md', 'error', 2), p('a.md', 'info', 5), p('b.md', 'warning', 1), p(undefined, 'error'), p('c.md', 'info')];

  it('groups by file in the given order, vault-wide problems last, with counts per file', () => {
    const g = groupProblems(list, all);
    expect(g.map((x) => x.file)).toEqual(['a.md', 'b.md', 'c.md', '']);
    expect(g[0]!.counts).toEqual({ error: 1, warning: 0, info: 1 });
    expect(g[0]!.problems.map((x) => x.line)).toEqual([2, 5]);
  });

  it('lists errors before warnings before infos: files with errors first, and within a file its errors first', () => {
    const g = groupProblems([p('a.md', 'info', 1), p('a.md', 'warning', 2), p('a.md', 'error', 9), p('b.md', 'warning', 1), p('c.md', 'error', 3)], all);
    expect(g.map((x) => x.file)).toEqual(['a.md', 'c.md', 'b.md']);
    expect(g[0]!.problems.map((x) => x.severity)).toEqual(['error', 'warning', 'info']);
  });

  it('hides severities that are switched off (files with nothing left disappear)', () => {
    const g = groupProblems(list, { error: true, warning: true, info: false });
    expect(g.map((x) => x.file)).toEqual(['a.md', 'b.md', '']);
    expect(g[0]!.problems).toHaveLength(1);
  });

  it('keeps counts exact under a row budget and says how many rows are hidden', () => {
    const g = groupProblems(list, all, 2);
    // the budget goes to errors first (a.md's error and the vault-wide one)
    expect(g.map((x) => [x.file, x.problems.length, x.hidden])).toEqual([['a.md', 1, 1], ['b.md', 0, 1], ['c.md', 0, 1], ['', 1, 0]]);
    expect(countBySeverity(list)).toEqual({ error: 2, warning: 1, info: 2 });
  });
});

describe('problemTarget / fieldSelectors', () => {
  it('opens the entity id, else the note path without .md, else nothing', () => {
    expect(problemTarget({ ...p('x/A.md', 'error'), entityId: 'setting/a' })).toBe('setting/a');
    expect(problemTarget(p('x/A.md', 'error'))).toBe('x/A');
    expect(problemTarget(p('schema.yaml', 'error'))).toBeNull();
    expect(problemTarget(p(undefined, 'error'))).toBeNull();
  });

  it('selects the property row and the relation items of a field, escaping quotes', () => {
    expect(fieldSelectors('status')[0]).toBe('[data-testid="entity-panel"] tr[data-key="status"]');
    expect(fieldSelectors('faction')[1]).toContain('title*="field “faction” in"');
    expect(cssAttr('a"b\\c')).toBe('a\\"b\\\\c');
    expect(fieldSelectors('aliases').some((s) => s.endsWith('.aliases'))).toBe(true);
  });
});
