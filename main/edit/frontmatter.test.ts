import { describe, expect, it } from 'vitest';
import { addListItem, getBody, readFrontmatter, removeListItem, replaceBody, setField, unsetField, newNoteText } from './frontmatter.js';
import { CoreError } from '../domain/errors.js';

const NOTE = [
  '---',
  '# a comment that must survive',
  'title: "Captain Varo"',
  'status: alive # inline comment',
  '',
  'organization:',
  '  - "[[Red Hand]]"',
  '  - "[[Iron Guild]]"',
  'allies: [Mira, "Oldmere"]',
  'unknown_key: {a: 1}',
  'empty:',
  '---',
  '> [!note] callout',
  '| a | b |',
  '<div>html</div> INPUT[text:x] =this.y',
  '',
].join('\n');

describe('setField', () => {
  it('changes only the value bytes and keeps the inline comment and quoting', () => {
    const out = setField(NOTE, 'status', 'dead');
    expect(out).toBe(NOTE.replace('status: alive #', 'status: dead #'));
    expect(setField(NOTE, 'title', 'Captain Varo the Bold')).toBe(NOTE.replace('"Captain Varo"', '"Captain Varo the Bold"'));
  });
  it('returns the same string when the value is unchanged', () => {
    for (const [k, v] of Object.entries(readFrontmatter(NOTE))) expect(setField(NOTE, k, v)).toBe(NOTE);
  });
  it('appends a new key as the last frontmatter line', () => {
    const out = setField(NOTE, 'age', 42);
    expect(out).toBe(NOTE.replace('empty:\n---', 'empty:\nage: 42\n---'));
  });
  it('fills an empty value', () => {
    expect(setField(NOTE, 'empty', 'x')).toBe(NOTE.replace('empty:\n', 'empty: x\n'));
  });
  it('replaces a block list with a scalar and back with a list in the style of the other lists', () => {
    const a = setField(NOTE, 'organization', 'Solo');
    expect(readFrontmatter(a).organization).toBe('Solo');
    expect(a).toContain('organization: Solo\nallies:');
    const b = setField(a, 'organization', ['[[A]]', 'B']);
    // the only list left in the note is flow with double quotes: the new list follows it
    expect(b).toContain('organization: ["[[A]]", "B"]\nallies:');
    expect(setField(NOTE, 'organization', ['[[A]]', 'B'])).toContain('organization:\n  - "[[A]]"\n  - "B"\nallies:');
  });
  it('keeps CRLF and a BOM', () => {
    const crlf = '\uFEFF' + NOTE.replace(/\n/g, '\r\n');
    const out = setField(crlf, 'age', 7);
    expect(out.startsWith('\uFEFF---\r\n')).toBe(true);
    expect(out).toContain('empty:\r\nage: 7\r\n---\r\n');
    expect(out.replace(/\r\n/g, '').length).toBe(out.split('\n').join('').replace(/\r/g, '').length);
    expect(out.match(/(?<!\r)\n/g)).toBeNull();
  });
  it('creates frontmatter when the note has none', () => {
    expect(setField('# Body\n', 'type', 'npc')).toBe('---\ntype: npc\n---\n# Body\n');
    expect(setField('\uFEFFbody\r\nline\r\n', 'type', 'npc')).toBe('\uFEFF---\r\ntype: npc\r\n---\r\nbody\r\nline\r\n');
  });
  it('quotes strings that YAML would otherwise read differently', () => {
    for (const v of ['[[X]]', '42', 'true', 'a: b', '#x', 'line1\nline2', '', ' pad ', 'null']) {
      expect(readFrontmatter(setField(NOTE, 'status', v)).status).toBe(v);
      expect(readFrontmatter(setField(NOTE, 'newkey', v)).newkey).toBe(v);
    }
  });
  it('refuses broken YAML and unclosed frontmatter without touching anything', () => {
    expect(() => setField('---\na: [1\n---\n', 'a', 2)).toThrow(CoreError);
    expect(() => setField('---\na: 1\n', 'a', 2)).toThrow(/not closed/);
    expect(() => setField('---\n- a\n---\n', 'a', 2)).toThrow(/mapping/);
  });
  it('refuses duplicate keys like any invalid YAML (the parser reports them as yaml-syntax)', () => {
    const dup = '---\nstatus: alive\nstatus: dead\n---\nbody\n';
    for (const edit of [() => setField(dup, 'status', 'x'), () => setField(dup, 'other', 'x'), () => unsetField(dup, 'status'), () => addListItem(dup, 'tags', 'x')]) {
      expect(edit).toThrow(/frontmatter has YAML errors: .*unique/);
    }
  });
});

describe('unsetField', () => {
  it('set then unset of a new key on a note without frontmatter ends byte-identical', () => {
    for (const t of ['', 'body\n', 'line1\r\nline2\r\n', '\uFEFF# Title\n\ntext', 'no newline']) {
      for (const v of ['x', 42, ['a', 'b'], { k: 1 }]) expect(unsetField(setField(t, 'newkey', v), 'newkey'), JSON.stringify(t)).toBe(t);
    }
  });
  it('removes the key lines only', () => {
    expect(unsetField(NOTE, 'organization')).toBe(NOTE.replace('organization:\n  - "[[Red Hand]]"\n  - "[[Iron Guild]]"\n', ''));
    expect(unsetField(NOTE, 'status')).toBe(NOTE.replace('status: alive # inline comment\n', ''));
    expect(unsetField(NOTE, 'empty')).toBe(NOTE.replace('empty:\n', ''));
    expect(unsetField(NOTE, 'missing')).toBe(NOTE);
  });
});

describe('list items', () => {
  it('adds to a block list in its style', () => {
    expect(addListItem(NOTE, 'organization', '[[Guild of Ash]]')).toBe(NOTE.replace('  - "[[Iron Guild]]"\n', '  - "[[Iron Guild]]"\n  - "[[Guild of Ash]]"\n'));
  });
  it('adds to a flow list in its style', () => {
    expect(addListItem(NOTE, 'allies', 'Brann')).toBe(NOTE.replace('"Oldmere"]', '"Oldmere", "Brann"]'));
  });
  it('does not duplicate an item', () => {
    expect(addListItem(NOTE, 'organization', '[[Red Hand]]')).toBe(NOTE);
  });
  it('promotes a scalar to a list and fills missing keys', () => {
    const out = addListItem(NOTE, 'status', 'cursed');
    expect(readFrontmatter(out).status).toEqual(['alive', 'cursed']);
    expect(readFrontmatter(addListItem(NOTE, 'empty', '[[X]]')).empty).toEqual(['[[X]]']);
    expect(readFrontmatter(addListItem(NOTE, 'newlist', '[[X]]')).newlist).toEqual(['[[X]]']);
    expect(addListItem(NOTE, 'newlist', '[[X]]')).toContain('newlist:\n  - "[[X]]"\n---');
  });
  it('removes block and flow items', () => {
    expect(removeListItem(NOTE, 'organization', '[[Red Hand]]')).toBe(NOTE.replace('  - "[[Red Hand]]"\n', ''));
    expect(removeListItem(NOTE, 'allies', 'Mira')).toBe(NOTE.replace('[Mira, "Oldmere"]', '["Oldmere"]'));
    const both = removeListItem(NOTE, 'organization', (v: unknown) => typeof v === 'string');
    expect(both).toBe(NOTE.replace('organization:\n  - "[[Red Hand]]"\n  - "[[Iron Guild]]"\n', 'organization: []\n'));
    expect(removeListItem(NOTE, 'status', 'alive')).toBe(NOTE.replace('status: alive # inline comment\n', ''));
  });
});

describe('body', () => {
  it('replaces the body and keeps the frontmatter bytes', () => {
    const out = replaceBody(NOTE, 'new body\n');
    expect(out).toBe(NOTE.slice(0, NOTE.indexOf('> [!note]')) + 'new body\n');
    expect(replaceBody(NOTE, getBody(NOTE))).toBe(NOTE);
    expect(replaceBody('---\r\na: 1\r\n---\r\nx\r\n', 'y\nz\n')).toBe('---\r\na: 1\r\n---\r\ny\r\nz\r\n');
  });
  it('builds new notes', () => {
    const t = newNoteText({ title: 'A', tags: ['npc'], n: 1 }, '# A\n');
    expect(t).toBe('---\ntitle: A\ntags:\n  - npc\nn: 1\n---\n# A\n');
    expect(readFrontmatter(t)).toEqual({ title: 'A', tags: ['npc'], n: 1 });
  });
});

describe('anchors and aliases', () => {
  it('reads and edits around *aliases without touching the anchor', () => {
    const t = '---\nbase: &b Millbrook\nhome: *b\nlist: [*b, x]\n---\n';
    expect(readFrontmatter(t)).toEqual({ base: 'Millbrook', home: 'Millbrook', list: ['Millbrook', 'x'] });
    expect(setField(t, 'home', 'Millbrook')).toBe(t);
    expect(setField(t, 'home', 'Oldmere')).toBe(t.replace('home: *b', 'home: Oldmere'));
    expect(addListItem(t, 'list', 'y')).toBe(t.replace('x]', 'x, y]'));
    expect(removeListItem(t, 'list', 'Millbrook')).toBe(t.replace('[*b, x]', '[x]'));
  });
});
