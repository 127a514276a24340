/**
 * The fast frontmatter path must give exactly what the full yaml parser gives
 * whenever it answers: checked on the Thellade fixture and on generated YAML.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { fastFrontmatter } from './fast-yaml.js';
import { readFrontmatterFull } from './parse.js';
import type { ParsedNote } from './types.js';

function full(yaml: string) {
  const note = { path: 'x.md', frontmatter: {}, fieldLines: {}, fieldLinks: [] } as unknown as ParsedNote;
  const problems: unknown[] = [];
  readFrontmatterFull(note, yaml, problems as never);
  return { fm: note.frontmatter, lines: note.fieldLines, problems };
}

function compare(yaml: string): 'fast' | 'declined' {
  const fast = fastFrontmatter(yaml, 2);
  if (fast === null) return 'declined';
  const f = full(yaml);
  expect(f.problems, yaml).toEqual([]);
  expect(Object.fromEntries(fast.map((x) => [x.key, x.value])), yaml).toEqual(f.fm);
  expect(Object.fromEntries(fast.map((x) => [x.key, x.line])), yaml).toEqual(f.lines);
  return 'fast';
}

describe('fastFrontmatter', () => {
  it('answers the common shapes and declines the rest', () => {
    expect(compare('title: A\ntags:\n  - "#NPC"\n  - x\nage: 40\nratio: 1.5\nok: true\nnone:\nempty: []\nflow: ["[[A]]", b, \'c\'\'d\']\n')).toBe('fast');
    expect(compare('list:\n- a\n- "b"\nnext: 07\ndate: 2025-05-12\nneg: -31\nurl: https://x.y/z#frag\nq: \'it\'\'s\'\n')).toBe('fast');
    // lists of flat maps (real vaults: `allies:` of `- name: …` items)
    expect(compare('allies:\n  - name: travellers\n    with: "[[Gar Bel]]"\n    since: 1487\n  - name: lights\n    tags: [secret, faction/church]\n  - plain\nnext: 1\n')).toBe('fast');
    expect(compare('m:\n- a: 1\n  b: x\n\n- c: true\n')).toBe('fast');
    for (const y of ['a:\n  b: 1\n', 'a: |\n  text\n', 'a: &x 1\nb: *x\n', '# c\na: 1\n', 'a: 1 # c\n', 'a: "x\\ty"\n',
      'a: 1\na: 2\n', 'a: 0x1F\n', 'a:\n  - - x\n', 'a:\n  - k:\n      x: 1\n', 'a:\n  -  k: v\n', 'a:\n  - k: v\n      w\n',
      'a:\n  - k: v\n    k: w\n', 'a:\n  - k: v\n   j: w\n', 'a:\n  - k: v\n    # c\n', 'a:\n  - k: v: w\n', 'a: b\n  c\n', 'a: {x: 1}\n', '"q": 1\n', 'a: [x, [y]]\n', 'a:\tb\n', 'true: 1\n']) {
      expect(fastFrontmatter(y, 2), y).toBeNull();
    }
  });

  it('declines Unicode spaces YAML keeps (JS trim() would drop them) and keys over 1024 characters', () => {
    // each of these once came back trimmed or accepted where `yaml` keeps the character or reports an error
    for (const y of ['a: \u00a0x\n', 'a: x\u3000\n', 'a: \u2003x\n', 'a: \ufeffx\n', 'a: [x\u00a0, y]\n', 'a:\n  - x\u2003\n',
      'a: 1\n\u00a0\nb: 2\n', 'a: \u000bx\n', 'a: \rx\n', `${'k'.repeat(1100)}: 1\n`]) {
      compare(y);
      expect(fastFrontmatter(y, 2), JSON.stringify(y)).toBeNull();
    }
  });

  const vault = join(import.meta.dirname, '../../examples/thellade/vault');
  it('equals the full parser on every Thellade frontmatter it answers', () => {
    const files: string[] = [];
    const walk = (d: string) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else if (e.name.endsWith('.md')) files.push(p); } };
    walk(vault);
    let fast = 0, declined = 0;
    for (const f of files) {
      const m = /^---\r?\n([\s\S]*?\r?\n)---\r?\n/.exec(readFileSync(f, 'utf8'));
      if (!m) continue;
      if (compare(m[1]!) === 'fast') fast++; else declined++;
    }
    expect(fast).toBeGreaterThan(declined * 10);
  });

  it('equals the full parser on generated frontmatter', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_ .-]{0,8}$/);
    // characters that are white space to JavaScript but content (or an error) to YAML
    const uspace = fc.constantFrom('\u00a0', '\u3000', '\u2003', '\ufeff', '\u2028', '\u0085', '\u000b', '\u000c', '\r');
    const atom = fc.oneof(
      word, fc.tuple(word, uspace, fc.nat(2)).map(([w, u, at]) => at === 0 ? u + w : at === 1 ? w + u : w.slice(0, 1) + u + w.slice(1)), fc.stringMatching(/^[-+]?[0-9]{1,4}(\.[0-9]{0,3})?$/), fc.constantFrom('true', 'False', 'null', '~', '', 'yes', '07', '1e3', '-.5', '2025-05-12', '[[A|b]]', ':x', '-x', 'a:b'),
      word.map((w) => `"${w}"`), word.map((w) => `'${w}'`), fc.constantFrom('"[[Kanda Isles]]"', "'it''s'", '"a, b"', '"#tag"'),
    );
    const value = fc.oneof(
      atom.map((a) => ` ${a}`),
      fc.array(atom, { maxLength: 3 }).map((xs) => ` [${xs.join(', ')}]`),
      fc.tuple(fc.constantFrom('', '  ', '    '), fc.array(atom, { maxLength: 3 })).map(([ind, xs]) => xs.map((x) => `\n${ind}- ${x}`).join('')),
      // a list of flat maps (and scalars), the maps' later keys at the first key's column, or (rarely) not
      fc.tuple(fc.constantFrom('', '  ', '    '), fc.array(fc.oneof(
        { weight: 3, arbitrary: fc.array(fc.tuple(fc.stringMatching(/^[a-z][a-z_]{0,4}$/), fc.oneof(atom.map((a) => ` ${a}`), fc.array(atom, { maxLength: 2 }).map((xs) => ` [${xs.join(', ')}]`), fc.constant(''))), { minLength: 1, maxLength: 3 }) },
        { weight: 1, arbitrary: atom },
      ), { maxLength: 3 }), fc.constantFrom(0, 0, 0, 1, -1, 3)).map(([ind, items, shift]) => items.map((it) => typeof it === 'string'
        ? `\n${ind}- ${it}`
        : it.map(([k, v], j) => `\n${j === 0 ? `${ind}- ` : ' '.repeat(Math.max(0, ind.length + 2 + shift))}${k}:${v}`).join('')).join('')),
    );
    const key = fc.oneof({ weight: 9, arbitrary: fc.stringMatching(/^[a-z][a-z_]{0,6}$/) }, { weight: 1, arbitrary: fc.integer({ min: 1020, max: 1030 }).map((n) => 'k'.repeat(n)) });
    const line = fc.oneof({ weight: 9, arbitrary: fc.tuple(key, value).map(([k, v]) => `${k}:${v}`) }, { weight: 1, arbitrary: uspace.map((u) => u === '\r' ? '' : u) });
    const doc = fc.array(line, { maxLength: 6 }).filter((ls) => new Set(ls.map((l) => l.split(':')[0])).size === ls.length)
      .map((ls) => ls.join('\n') + '\n');
    let answered = 0;
    fc.assert(fc.property(doc, (y) => {
      const f = fastFrontmatter(y, 2);
      if (f === null) return;
      answered++;
      const r = full(y);
      if (r.problems.length) throw new Error(`fast path accepted invalid YAML:\n${y}`);
      expect(Object.fromEntries(f.map((x) => [x.key, x.value]))).toEqual(r.fm);
      expect(Object.fromEntries(f.map((x) => [x.key, x.line]))).toEqual(r.lines);
    }), { numRuns: 1500, seed: 42 });
    expect(answered).toBeGreaterThan(300);
  });
});
