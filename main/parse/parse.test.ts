import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { generateRealVault } from '../../bench/generate-real.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseNote, fieldRefs } from './parse.js';

const b = (s: string) => Buffer.from(s, 'utf8');

/** Round-trips through a real file so the parser sees bytes exactly as read from disk. */
function fromDisk(name: string, content: string | Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'lc-parse-'));
  const p = join(dir, name);
  writeFileSync(p, content);
  return parseNote(`notes/${name}`, readFileSync(p));
}

describe('parseNote: frontmatter', () => {
  it('splits frontmatter and body, with key lines and body line', () => {
    const n = fromDisk('Varo.md', '---\ntitle: Captain Varo\ntype: npc\nfaction: "[[Red Hand]]"\n---\nHello [[Millbrook]].\n');
    expect(n.hasFrontmatter).toBe(true);
    expect(n.frontmatter).toEqual({ title: 'Captain Varo', type: 'npc', faction: '[[Red Hand]]' });
    expect(n.fieldLines).toEqual({ title: 2, type: 3, faction: 4 });
    expect(n.bodyLine).toBe(6);
    expect(n.body).toBe('Hello [[Millbrook]].\n');
    expect(n.title).toBe('Captain Varo');
    expect(n.basename).toBe('Varo');
    expect(n.bodyLinks).toEqual([{ target: 'Millbrook', name: 'Millbrook', line: 6 }]);
    expect(n.fieldLinks).toEqual([{ target: 'Red Hand', name: 'Red Hand', line: 4, field: 'faction' }]);
    expect(n.problems).toEqual([]);
  });

  it('handles a BOM and CRLF line endings', () => {
    const n = parseNote('a.md', b('\uFEFF---\r\ntitle: A\r\ntags: [x]\r\n---\r\nline [[B]]\r\nnext #tag\r\n'));
    expect(n.frontmatter).toEqual({ title: 'A', tags: ['x'] });
    expect(n.fieldLines).toEqual({ title: 2, tags: 3 });
    expect(n.bodyLine).toBe(5);
    expect(n.bodyLinks.map((l) => [l.name, l.line])).toEqual([['B', 5]]);
    expect(n.tags).toEqual(['x', 'tag']);
  });

  it('a note without frontmatter: title is the basename, body is all', () => {
    const n = parseNote('folder/The Hall.md', b('# The Hall\nSee [[Varo]].'));
    expect(n.hasFrontmatter).toBe(false);
    expect(n.title).toBe('The Hall');
    expect(n.bodyLine).toBe(1);
    expect(n.bodyLinks[0]).toMatchObject({ name: 'Varo', line: 2 });
    expect(n.tags).toEqual([]);
  });

  it('uses the configured title field; empty title falls back to the basename', () => {
    expect(parseNote('x.md', b('---\nname: Lady Wren\n---\n'), { titleField: 'name' }).title).toBe('Lady Wren');
    expect(parseNote('x.md', b('---\ntitle: "  "\n---\n')).title).toBe('x');
  });

  it('links in nested frontmatter values carry their own line and top-level field', () => {
    const n = parseNote('e.md', b([
      '---', 'participants:', '  - "[[Captain Varo]]"', '  - "[[Red Hand|the Hand]]"',
      'consequences:', '  - { entity: "[[Millbrook]]", destroyed: true }', 'art: "![[map.png]]"', '---', '',
    ].join('\n')));
    expect(n.fieldLinks.map((l) => [l.field, l.name, l.line, l.label])).toEqual([
      ['participants', 'Captain Varo', 3, undefined],
      ['participants', 'Red Hand', 4, 'the Hand'],
      ['consequences', 'Millbrook', 6, undefined],
    ]);
  });

  it('malformed YAML: yaml-syntax with the YAML error line, frontmatter {}, body still parsed', () => {
    const n = parseNote('bad.md', b('---\ntitle: ok\nlist: [a, b\nother: 1\n---\nbody [[Link]] #tag\n'));
    expect(n.frontmatter).toEqual({});
    expect(n.title).toBe('bad');
    expect(n.problems).toHaveLength(1);
    expect(n.problems[0]).toMatchObject({ code: 'yaml-syntax', severity: 'error', file: 'bad.md' });
    expect(n.problems[0]!.line).toBeGreaterThanOrEqual(3);
    expect(n.problems[0]!.line).toBeLessThanOrEqual(5);
    expect(n.bodyLinks.map((l) => l.name)).toEqual(['Link']);
    expect(n.tags).toEqual(['tag']);
  });

  it('frontmatter that is not a mapping is a problem', () => {
    const n = parseNote('l.md', b('---\n- a\n- b\n---\nx\n'));
    expect(n.frontmatter).toEqual({});
    expect(n.problems.map((p) => p.code)).toEqual(['frontmatter-not-mapping']);
    expect(parseNote('e.md', b('---\n---\nbody\n')).problems).toEqual([]);
  });

  it('an unclosed frontmatter is read as body with a warning', () => {
    const n = parseNote('u.md', b('---\ntitle: x\nno end [[A]]\n'));
    expect(n.hasFrontmatter).toBe(false);
    expect(n.problems.map((p) => p.code)).toEqual(['frontmatter-unclosed']);
    expect(n.bodyLinks.map((l) => l.name)).toEqual(['A']);
  });
});

describe('parseNote: links', () => {
  it('reads every link form', () => {
    const n = parseNote('n.md', b('[[Target]] [[Target|label]] [[folder/Target2]] [[Target3#Heading]] [[Target4.md]] [[folder/T5.md|lab]] [[T6#^block|x]]'));
    expect(n.bodyLinks).toEqual([
      { target: 'Target', name: 'Target', line: 1 },
      { target: 'Target', name: 'Target', label: 'label', line: 1 },
      { target: 'folder/Target2', name: 'Target2', line: 1 },
      { target: 'Target3', name: 'Target3', heading: 'Heading', line: 1 },
      { target: 'Target4.md', name: 'Target4', line: 1 },
      { target: 'folder/T5.md', name: 'T5', label: 'lab', line: 1 },
      { target: 'T6', name: 'T6', heading: '^block', label: 'x', line: 1 },
    ]);
  });

  it('skips fenced code, inline code, attachments, self-links and template placeholders', () => {
    const body = [
      '```js', '[[InFence]] #notatag', '```', '~~~~', '[[InTilde]]', '~~~~',
      'text `[[InCode]]` and ``x [[InDouble]]`` ok [[Real]]',
      '![[image.png]] ![[Note Embed]] [[doc.pdf]] [[#Local heading]] ![[${context.bound.art}|banner]]',
      '| [[Table\\|alias]] |',
    ].join('\n');
    const n = parseNote('n.md', b(body));
    expect(n.bodyLinks.map((l) => [l.name, l.line, l.label])).toEqual([
      ['Real', 7, undefined], ['Note Embed', 8, undefined], ['Table', 9, 'alias'],
    ]);
    expect(n.tags).toEqual([]);
  });

  it('an unterminated fence swallows the rest (as markdown renders it)', () => {
    const n = parseNote('n.md', b('[[A]]\n```\n[[B]]\n'));
    expect(n.bodyLinks.map((l) => l.name)).toEqual(['A']);
  });
});

describe('parseNote: tags and aliases', () => {
  it('collects frontmatter and inline tags, deduplicated case-insensitively', () => {
    const n = parseNote('t.md', b([
      '---', 'tags:', '  - "#NPC"', '  - Location/Settlement', '  - npc', '---',
      '# Heading', '## Another', 'Text #Quest and #location/settlement #123 #2024/05',
      'url http://x.com/page#frag and [[Link#Heading]] and [x](#anchor)', '`#code` #Nested/Deep-tag_1',
    ].join('\n')));
    expect(n.tags).toEqual(['NPC', 'Location/Settlement', 'Quest', 'Nested/Deep-tag_1']);
  });

  it('tags as a string, space or comma separated', () => {
    expect(parseNote('t.md', b('---\ntags: "#a, b #c"\n---\n')).tags).toEqual(['a', 'b', 'c']);
  });

  it('aliases from a list, a string, or alias', () => {
    expect(parseNote('a.md', b('---\naliases: [Wren, "Lady W"]\n---\n')).aliases).toEqual(['Wren', 'Lady W']);
    expect(parseNote('a.md', b('---\naliases: The Wren\n---\n')).aliases).toEqual(['The Wren']);
    expect(parseNote('a.md', b('---\nalias: [X, x, ""]\n---\n')).aliases).toEqual(['X']);
  });
});

describe('parseNote: bad input never throws', () => {
  it('non-UTF-8 bytes: encoding problem, decoded with replacement, parsing continues', () => {
    const bytes = Buffer.concat([b('---\ntitle: Caf'), Buffer.from([0xe9]), b('\n---\nline\n[[Link]]\n')]);
    const n = fromDisk('enc.md', bytes);
    expect(n.problems.map((p) => [p.code, p.line])).toEqual([['encoding', 2]]);
    expect(n.title).toBe('Caf\uFFFD');
    expect(n.bodyLinks.map((l) => l.name)).toEqual(['Link']);
  });

  it('binary: NUL bytes → binary problem, nothing parsed', () => {
    const n = fromDisk('img.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0x5b, 0x5b]));
    expect(n.problems.map((p) => p.code)).toEqual(['binary']);
    expect(n.bodyLinks).toEqual([]);
    expect(n.frontmatter).toEqual({});
  });

  it('too large: not parsed, hash still given', () => {
    const big = b('---\ntitle: Big\n---\n' + '[[X]] '.repeat(100));
    const n = parseNote('big.md', big, { maxBytes: 100 });
    expect(n.problems.map((p) => p.code)).toEqual(['too-large']);
    expect(n.title).toBe('big');
    expect(n.bodyLinks).toEqual([]);
    expect(n.hash).toBe(createHash('sha256').update(big).digest('hex'));
  });

  it('hash is the sha256 of the raw bytes', () => {
    const raw = b('\uFEFFhello');
    expect(parseNote('h.md', raw).hash).toBe(createHash('sha256').update(raw).digest('hex'));
  });

  it('survives random bytes and random text', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const alphabet = ['---\n', '[[', ']]', '#', '`', '```\n', '\n', ':', '- ', '{', '}', '|', 'a', ' ', '"', '\r\n', '&x', '*x', '!'];
    for (let i = 0; i < 300; i++) {
      const s = Array.from({ length: 40 }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      const n = parseNote('r.md', b(s));
      expect(typeof n.hash).toBe('string');
      const raw = Buffer.from(Array.from({ length: 30 }, () => Math.floor(rnd() * 256)));
      expect(() => parseNote('r.md', raw)).not.toThrow();
    }
  });
});

describe('fieldRefs', () => {
  const n = parseNote('f.md', b([
    '---', 'organization:', '  - "[[The Sable Accord]]"', '  - Iron Guild', '  - ""', '  - 3',
    'hq: "[[Halls/The Shadowed Hall|Hall]]"', 'ruler: "  Lady Wren "', 'two: "[[A]], [[B]]"', 'tpl: "{{title}}"', '---', '',
  ].join('\n')));
  it('turns list and scalar values into references', () => {
    expect(fieldRefs(n, 'organization')).toEqual([
      { field: 'organization', name: 'The Sable Accord', wikilink: true, target: 'The Sable Accord', line: 3 },
      { field: 'organization', name: 'Iron Guild', wikilink: false, target: 'Iron Guild', line: 2 },
    ]);
    expect(fieldRefs(n, 'hq')).toEqual([{ field: 'hq', name: 'The Shadowed Hall', wikilink: true, target: 'Halls/The Shadowed Hall', line: 7 }]);
    expect(fieldRefs(n, 'ruler')).toEqual([{ field: 'ruler', name: 'Lady Wren', wikilink: false, target: 'Lady Wren', line: 8 }]);
    expect(fieldRefs(n, 'two').map((r) => r.name)).toEqual(['A', 'B']);
    expect(fieldRefs(n, 'tpl')).toEqual([]);
    expect(fieldRefs(n, 'missing')).toEqual([]);
  });
});

describe('parseNote: what it keeps holds none of the file text', () => {
  // A kept value cut from the file (a V8 slice of 13+ characters) keeps the whole text alive; every kept string is
  // a copy of its own (own/ownValue/ownLink), so once the body is dropped the notes hold about their values only.
  const collect = (): (() => void) => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  };
  const note = (i: number, full: boolean): string => [
    '---',
    `title: The Long Title Number ${i}`,
    'a_rather_long_key_name: a value long enough to be a slice',
    'allies:', `  - "[[Somebody With A Long Name ${i}]]"`, '  - plain list item of some length',
    `home: "[[Places/The Far Away Harbour ${i}|harbour]]"`,
    ...(full ? ['nested:', '  inner key here: another long enough value', '  deeper:', '    - "[[A Link Inside A Map]]"'] : []),
    'tags: [a-long-enough-tag-name, short]',
    '---',
    `# Note ${i}`,
    'x'.repeat(200_000),
    `[[A Body Link Long Enough ${i}]] #an-inline-tag-long-enough`,
    '',
  ].join('\n');

  it('gives the same values on the fast and the full path', () => {
    const n = parseNote('p/N.md', b(note(1, true)));
    expect(n.frontmatter).toEqual({
      title: 'The Long Title Number 1', a_rather_long_key_name: 'a value long enough to be a slice',
      allies: ['[[Somebody With A Long Name 1]]', 'plain list item of some length'],
      home: '[[Places/The Far Away Harbour 1|harbour]]',
      nested: { 'inner key here': 'another long enough value', deeper: ['[[A Link Inside A Map]]'] },
      tags: ['a-long-enough-tag-name', 'short'],
    });
    expect(n.fieldLinks).toEqual([
      { target: 'Somebody With A Long Name 1', name: 'Somebody With A Long Name 1', line: 5, field: 'allies' },
      { target: 'Places/The Far Away Harbour 1', name: 'The Far Away Harbour 1', label: 'harbour', line: 7, field: 'home' },
      { target: 'A Link Inside A Map', name: 'A Link Inside A Map', line: 11, field: 'nested' },
    ]);
    expect(n.tags).toEqual(['a-long-enough-tag-name', 'short', 'an-inline-tag-long-enough']);
    const fast = parseNote('p/N.md', b(note(1, false)));
    expect(fast.fieldLinks.slice(0, 2)).toEqual(n.fieldLinks.slice(0, 2));
  });

  it('an own `__proto__` key stays a key, not the prototype', () => {
    const n = parseNote('p/P.md', b('---\n__proto__: a value long enough to be a slice\nnested:\n  a: 1\n---\n'));
    expect(Object.getPrototypeOf(n.frontmatter)).toBe(Object.prototype);
    expect(Object.keys(n.frontmatter)).toEqual(['__proto__', 'nested']);
    expect(Object.getOwnPropertyDescriptor(n.frontmatter, '__proto__')?.value).toBe('a value long enough to be a slice');
  });

  it('60 notes of 200 KB, bodies dropped: the kept parts hold well under one body each', () => {
    const gc = collect();
    const kept: unknown[] = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 60; i++) {
      const n = parseNote(`p/N${i}.md`, b(note(i, i % 2 === 0)));
      expect(n.problems).toEqual([]);
      const { body: _body, ...rest } = n;
      kept.push(rest);
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // the texts are 60 x ~200 KB = ~12 MB; what is kept is a few KB a note
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    expect(kept).toHaveLength(60);
  });
});

describe('parseNote over a real-shaped vault (bench/generate-real.ts): the owned copies change no value', () => {
  it('every note: frontmatter equal to yaml.parse of its block, every field link found in its field, no problems', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lc-parse-real-'));
    await generateRealVault(dir, { notes: 120, seed: 5 });
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md') && !f.startsWith('_templates'));
    expect(files.length).toBeGreaterThan(100);
    let links = 0;
    for (const f of files) {
      const bytes = readFileSync(join(dir, f));
      const n = parseNote(f, bytes);
      const text = bytes.toString('utf8');
      const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
      if (!m) continue;
      expect(n.problems).toEqual([]);
      expect(n.frontmatter).toEqual(parseYaml(m[1]!));
      for (const l of n.fieldLinks) {
        expect(JSON.stringify(n.frontmatter[l.field!])).toContain(l.target);
        links++;
      }
    }
    expect(links).toBeGreaterThan(500);
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);
});
