import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  findLinks, findProseLinks, forEachProseLine, formatLink, isLinkValue, linkAt, parseLink, refName, refTarget,
  renameInner, replaceLinks, splitLink, targetName, blankInlineCode,
} from './wikilinks.js';

describe('splitLink', () => {
  it('splits target, heading and label, trimmed', () => {
    expect(splitLink(' folder/Target.md # Heading | shown ')).toEqual({ target: 'folder/Target.md', heading: 'Heading', label: 'shown' });
    expect(splitLink('Target')).toEqual({ target: 'Target', heading: '', label: '' });
  });
  it('reads a block ref and a nested heading path as the heading', () => {
    expect(splitLink('Note#^abc-1')).toEqual({ target: 'Note', heading: '^abc-1', label: '' });
    expect(splitLink('Note#A#B|x')).toEqual({ target: 'Note', heading: 'A#B', label: 'x' });
  });
  it('reads an escaped pipe (tables) as the label separator; the label keeps later pipes', () => {
    expect(splitLink('Red Hand\\|the Hand')).toEqual({ target: 'Red Hand', heading: '', label: 'the Hand' });
    expect(splitLink('A|b|c')).toEqual({ target: 'A', heading: '', label: 'b|c' });
  });
  it('a # inside the label is the label\'s', () => {
    expect(splitLink('A|issue #4')).toEqual({ target: 'A', heading: '', label: 'issue #4' });
  });
});

describe('parseLink (entity links)', () => {
  it('names the last path segment without .md', () => {
    expect(parseLink('world/npcs/Lysa Quent.md#Past|Lysa')).toEqual({ target: 'world/npcs/Lysa Quent.md', name: 'Lysa Quent', heading: 'Past', label: 'Lysa' });
    expect(parseLink('Lysa')).toEqual({ target: 'Lysa', name: 'Lysa' });
  });
  it('is null for attachments, same-note headings, placeholders and empty links', () => {
    for (const inner of ['map.png', 'img/Map.JPG|250', 'song.mp3', 'doc.pdf#page=2', '#Heading', '#^block', '${name}', '<% tp.file.title %>', '{{title}}', ' ', 'folder/'])
      expect(parseLink(inner), inner).toBeNull();
  });
  it('a dot that is not a known extension stays in the name', () => {
    expect(parseLink('St. Alder')?.name).toBe('St. Alder');
    expect(parseLink('v1.2 notes')?.name).toBe('v1.2 notes');
  });
});

describe('findLinks / linkAt', () => {
  it('finds links and embeds with offsets', () => {
    const text = 'See [[A]] and ![[B#H|b]], not [x] or [[ unclosed';
    expect(findLinks(text)).toEqual([
      { start: 4, end: 9, embed: false, inner: 'A' },
      { start: 14, end: 24, embed: true, inner: 'B#H|b' },
    ]);
    for (const m of findLinks(text)) expect(text.slice(m.start, m.end)).toMatch(/^!?\[\[.*\]\]$/);
  });
  it('a link holds no bracket or line break', () => {
    expect(findLinks('[[a]b]]')).toEqual([]);
    expect(findLinks('[[a\nb]]')).toEqual([]);
    expect(findLinks('[[[A]]]')).toEqual([{ start: 1, end: 6, embed: false, inner: 'A' }]);
    expect(findLinks('[[]]')).toEqual([]);
  });
  it('linkAt matches only at the given position', () => {
    expect(linkAt('x [[A]]', 0)).toBeNull();
    expect(linkAt('x [[A]]', 2)).toEqual({ start: 2, end: 7, embed: false, inner: 'A' });
    expect(linkAt('x ![[A]]', 2)).toEqual({ start: 2, end: 8, embed: true, inner: 'A' });
    // called twice in a row (a sticky regex must not keep state)
    expect(linkAt('[[A]]', 0)).not.toBeNull();
    expect(linkAt('[[A]]', 0)).not.toBeNull();
  });
  it('a table cell with an escaped pipe is one link', () => {
    const [m] = findLinks('| [[Red Hand\\|the Hand]] | faction |');
    expect(parseLink(m!.inner)).toEqual({ target: 'Red Hand', name: 'Red Hand', label: 'the Hand' });
  });
});

describe('code is not prose', () => {
  const body = [
    'Intro [[A]] and `[[NotA]]` here',
    '```',
    '[[InFence]]',
    '```',
    '~~~~md',
    '[[InTilde]]',
    '~~~', // shorter: does not close
    '[[StillIn]]',
    '~~~~',
    '``[[DoubleTick]]`` then [[B|b]]\r',
    '    [[Indented]] counts (the parser reads it)',
  ].join('\n');
  it('findProseLinks skips fenced blocks and inline code, offsets point into the body', () => {
    const found = findProseLinks(body);
    expect(found.map((m) => m.inner)).toEqual(['A', 'B|b', 'Indented']);
    expect(found.map((m) => m.line)).toEqual([0, 9, 10]);
    for (const m of found) expect(body.slice(m.start, m.end)).toBe(`[[${m.inner}]]`);
  });
  it('forEachProseLine gives lines without \\r and with their offsets', () => {
    const seen: Array<[string, number]> = [];
    forEachProseLine('a\r\n```\nb\n```\nc', (line, i, off) => { seen.push([line, i]); expect('a\r\n```\nb\n```\nc'.slice(off, off + line.length)).toBe(line); });
    expect(seen).toEqual([['a', 0], ['c', 4]]);
  });
  it('blankInlineCode keeps columns', () => {
    expect(blankInlineCode('x `[[A]]` y')).toBe('x         y');
    expect(blankInlineCode('no code')).toBe('no code');
  });
});

describe('references in values', () => {
  it('refTarget and refName read a link or a plain name', () => {
    expect(refTarget('  [[folder/Target.md#H|label]] ')).toBe('folder/Target.md');
    expect(refTarget('Plain Name ')).toBe('Plain Name');
    expect(refTarget('[[Red Hand\\|x]]')).toBe('Red Hand');
    expect(refTarget('[[Unclosed')).toBe('Unclosed');
    expect(refName('[[folder/Target.md|x]]')).toBe('Target');
    expect(refName('folder/Plain.md')).toBe('Plain');
    expect(targetName(' a/b/C.MD ')).toBe('C');
  });
  it('isLinkValue: the whole value is one (non-embed) link', () => {
    expect(isLinkValue(' [[A|b]] ')).toBe(true);
    expect(isLinkValue('A')).toBe(false);
    expect(isLinkValue('[[A]] and more')).toBe(false);
    expect(isLinkValue('![[A]]')).toBe(false);
  });
  it('formatLink writes what splitLink reads', () => {
    expect(formatLink('A')).toBe('[[A]]');
    expect(formatLink('A', { heading: 'H', label: 'l', embed: true })).toBe('![[A#H|l]]');
    fc.assert(fc.property(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ./-]{0,12}[A-Za-z0-9]$/), fc.stringMatching(/^([A-Za-z^][A-Za-z0-9 -]{0,8}[A-Za-z0-9])?$/), fc.stringMatching(/^([A-Za-z][A-Za-z0-9 #]{0,8}[A-Za-z0-9])?$/),
      (target, heading, label) => {
        const [m] = findLinks(formatLink(target, { heading, label }));
        expect(splitLink(m!.inner)).toEqual({ target, heading, label });
      }));
  });
});

describe('rewriting', () => {
  it('replaceLinks hands each link parsed (null for non-entity links)', () => {
    const out = replaceLinks('[[A|a]] ![[B]] [[pic.png]] [[#H]]', (l, embed, raw) => (l ? `${embed ? 'E:' : ''}${l.label ?? l.name}` : `<${raw}>`));
    expect(out).toBe('a E:B <[[pic.png]]> <[[#H]]>');
    expect(replaceLinks('no links', () => 'x')).toBe('no links');
  });
  it('renameInner keeps folder, .md, heading, label, escaped pipe and spacing', () => {
    expect(renameInner('world/Old.md#Past\\|shown', 'New')).toBe('world/New.md#Past\\|shown');
    expect(renameInner(' Old |x', 'New')).toBe(' New |x');
    expect(renameInner('Old#^blk', 'New')).toBe('New#^blk');
  });
});
