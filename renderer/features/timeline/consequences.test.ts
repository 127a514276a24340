import { describe, expect, it } from 'vitest';
import { draftProblem, fromInput, plainName, sentence, toInput, type Draft } from './consequences.js';

const STATUS = ['status', 'state'];
const text = (parts: ReturnType<typeof sentence>) => parts.map((p) => ('link' in p ? `<${p.link}>` : p.text)).join('');

describe('consequence drafts', () => {
  it('writes the frontmatter the timeline reads, and reads it back to the same draft', () => {
    const drafts: Draft[] = [
      { entity: 'Captain Varo', kind: 'killed' },
      { entity: 'Millbrook', kind: 'destroyed' },
      { entity: 'Wren', kind: 'set', property: 'title', value: 'Reeve' },
      { entity: 'Red Hand', kind: 'rel-add', relationship: 'ALLIED_WITH', target: 'Iron Guild' },
      { entity: 'Red Hand', kind: 'rel-remove', relationship: 'ALLIED_WITH', target: 'Guild of Ash' },
    ];
    const inputs = drafts.map((d) => toInput(d, 'status'));
    expect(inputs).toEqual([
      { entity: 'Captain Varo', property: 'status', value: 'dead' },
      { entity: 'Millbrook', destroyed: true },
      { entity: 'Wren', property: 'title', value: 'Reeve' },
      { entity: 'Red Hand', relationship: 'ALLIED_WITH', add: 'Iron Guild' },
      { entity: 'Red Hand', relationship: 'ALLIED_WITH', remove: 'Guild of Ash' },
    ]);
    expect(inputs.map((c) => fromInput(c, STATUS))).toEqual(drafts);
  });

  it('keeps shapes it does not edit as they are, and reads links as names', () => {
    const raw = { entity: '[[Red Hand]]', property: 'holdings', add: '[[places/Millbrook|the village]]' };
    const d = fromInput(raw, STATUS);
    expect(d).toMatchObject({ kind: 'raw', entity: 'Red Hand' });
    expect(toInput(d, 'status')).toEqual({ ...raw, entity: 'Red Hand' });
    expect(plainName('[[places/Millbrook#Bridge|x]]')).toBe('Millbrook');
  });

  it('says what is missing', () => {
    expect(draftProblem({ entity: '', kind: 'killed' })).toBe('which entity?');
    expect(draftProblem({ entity: 'A', kind: 'set', property: 'p' })).toBe('which value?');
    expect(draftProblem({ entity: 'A', kind: 'rel-add', relationship: 'R' })).toBe('with whom?');
    expect(draftProblem({ entity: 'A', kind: 'destroyed' })).toBeNull();
  });

  it('reads as sentences with the entities as links', () => {
    expect(text(sentence({ entity: 'Captain Varo', property: 'status', value: 'dead' }, STATUS))).toBe('<Captain Varo> is killed (status: dead)');
    expect(text(sentence({ entity: 'Millbrook', destroyed: true }, STATUS))).toBe('<Millbrook> is destroyed');
    expect(text(sentence({ entity: 'Red Hand', relationship: 'ALLIED_WITH', add: '[[Iron Guild]]' }, STATUS))).toBe('<Red Hand> now allied with <Iron Guild>');
    expect(text(sentence({ entity: 'New Millbrook', created: true }, STATUS))).toBe('<New Millbrook> comes into being');
    expect(text(sentence({ entity: 'Lady Wren', property: 'title', unset: true }, STATUS))).toBe('<Lady Wren>: title is cleared');
  });
});
