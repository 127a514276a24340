import { expect, it } from 'vitest';
import { countLabel } from './label.js';

it('says "1 problem", not "1 problems"', () => {
  expect([0, 1, 2].map((n) => countLabel(n, 'problem'))).toEqual(['0 problems', '1 problem', '2 problems']);
});
