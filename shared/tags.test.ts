import { describe, expect, it } from 'vitest';
import { frontmatterTags, isValidTag } from './tags.js';
import { parseNote } from '../main/parse/parse.js';

describe('frontmatterTags (one grammar for the model and the editor chips)', () => {
  it('splits a comma/space separated string, takes a list item by item, drops a leading #', () => {
    expect(frontmatterTags('CotF, RD')).toEqual(['CotF', 'RD']);
    expect(frontmatterTags('#a  #b,c')).toEqual(['a', 'b', 'c']);
    expect(frontmatterTags(['x', '#y', 'p, q', 3])).toEqual(['x', 'y', 'p', 'q', '3']);
    expect(frontmatterTags(null)).toEqual([]);
    expect(frontmatterTags({ a: 1 })).toEqual([]);
  });

  it('keeps invalid tags for the editor; the model drops them', () => {
    expect(frontmatterTags('1234, ok')).toEqual(['1234', 'ok']);
    expect(['1234', 'ok'].filter(isValidTag)).toEqual(['ok']);
  });

  it('the model reads `tags: CotF, RD` as the same two tags', () => {
    const note = parseNote('n.md', Buffer.from('---\ntags: CotF, RD\n---\nbody #inline\n'));
    expect(note.tags).toEqual(['CotF', 'RD', 'inline']);
  });
});
