import { describe, expect, it } from 'vitest';
import { readFrontmatterLines } from './source.js';

const note = ['---', 'title: X', 'session: 2', 'consequences:', '  - { entity: A, destroyed: true }', '  - entity: B', '    property: status', '    value: dead', '  -   { entity: C, created: true }', '---', 'body'];

describe('consequence item lines', () => {
  it('gives the 1-based file line of every item, flow or block style', () => {
    const r = readFrontmatterLines(note.join('\n'));
    expect(r.ok).toBe(true);
    expect(r.fieldLines).toMatchObject({ title: 2, session: 3, consequences: 4 });
    expect(r.itemLines).toEqual([5, 6, 9]);
  });
  it('handles CRLF line ends and a BOM', () => {
    const r = readFrontmatterLines('\uFEFF' + note.join('\r\n'));
    expect(r.itemLines).toEqual([5, 6, 9]);
    expect(r.frontmatter.session).toBe(2);
  });
  it('returns nothing (never throws) for broken or missing frontmatter', () => {
    expect(readFrontmatterLines('no frontmatter').ok).toBe(false);
    expect(readFrontmatterLines('---\nconsequences: [\n---\n').ok).toBe(false);
    expect(readFrontmatterLines('---\n- a list\n---\n').ok).toBe(false);
  });
});
