import { describe, expect, it } from 'vitest';
import { snippetParts } from './snippet.js';

describe('snippetParts', () => {
  it('splits « » marks into marked parts', () => {
    expect(snippetParts('the «Red» «Hand» rides')).toEqual([
      { text: 'the ', mark: false }, { text: 'Red', mark: true }, { text: ' ', mark: false },
      { text: 'Hand', mark: true }, { text: ' rides', mark: false },
    ]);
  });
  it('leaves an unmarked or unbalanced snippet as text', () => {
    expect(snippetParts('plain')).toEqual([{ text: 'plain', mark: false }]);
    expect(snippetParts('a «b')).toEqual([{ text: 'a «b', mark: false }]);
    expect(snippetParts('')).toEqual([]);
  });
});
