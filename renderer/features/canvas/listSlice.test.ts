import { describe, expect, it } from 'vitest';
import { LIST_AT_ONCE, LIST_SLICE, listShown } from './listSlice.js';

describe('listShown', () => {
  it('renders a short list at once, whatever has grown', () => {
    expect(listShown(0, LIST_SLICE)).toBe(0);
    expect(listShown(LIST_AT_ONCE, LIST_SLICE)).toBe(LIST_AT_ONCE);
  });

  it('renders a long list a slice at a time, up to its length', () => {
    const total = LIST_AT_ONCE + 1;
    expect(listShown(total, LIST_SLICE)).toBe(LIST_SLICE);
    expect(listShown(total, 2 * LIST_SLICE)).toBe(2 * LIST_SLICE);
    expect(listShown(total, 0)).toBe(LIST_SLICE);
    expect(listShown(total, 10 * total)).toBe(total);
  });
});
