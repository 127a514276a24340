import { describe, expect, it } from 'vitest';
import { compareDates, parseInWorldDate, parseSession } from './dates.js';

describe('in-world dates', () => {
  it('parses year, year-month, year-month-day, negative years, eras and circa', () => {
    expect(parseInWorldDate('1203-05-14')).toMatchObject({ year: 1203, month: 5, day: 14, label: '1203-05-14' });
    expect(parseInWorldDate('1203-05')).toMatchObject({ year: 1203, month: 5 });
    expect(parseInWorldDate(1203)).toMatchObject({ year: 1203, label: '1203' });
    expect(parseInWorldDate('-45')).toMatchObject({ year: -45 });
    expect(parseInWorldDate('212 PR')).toMatchObject({ year: 212, era: 'PR' });
    expect(parseInWorldDate('c. 1200')).toMatchObject({ year: 1200, circa: true });
    expect(parseInWorldDate('~-300-02 BE')).toMatchObject({ year: -300, month: 2, era: 'BE', circa: true });
  });
  it('keeps free-form text as a label without a year', () => {
    const d = parseInWorldDate('03 Dawnmarch 212 PR 09:41');
    expect(d).toEqual({ raw: '03 Dawnmarch 212 PR 09:41', label: '03 Dawnmarch 212 PR 09:41' });
    expect(parseInWorldDate('')).toBeNull();
    expect(parseInWorldDate(null)).toBeNull();
  });
  it('orders parseable dates first, then free-form, then none', () => {
    const ds = ['1203-05-14', 'Month of Storms', '-45', '1203', null, '1203-05'].map((v) => parseInWorldDate(v));
    const sorted = [...ds].sort(compareDates).map((d) => d?.label ?? null);
    expect(sorted).toEqual(['-45', '1203', '1203-05', '1203-05-14', 'Month of Storms', null]);
  });
  it('reads session numbers from numbers and padded strings', () => {
    expect(parseSession(4)).toBe(4);
    expect(parseSession('07')).toBe(7);
    expect(parseSession('08 ')).toBe(8);
    expect(parseSession('Session 3')).toBe(3);
    expect(parseSession('')).toBeNull();
    expect(parseSession(null)).toBeNull();
    expect(parseSession('soon')).toBeNull();
  });
});

describe('session from the file name (fallback when the session field is empty)', () => {
  it('finds "Session NN" in the file name only', async () => {
    const { sessionFromFileName } = await import('./events.js');
    expect(sessionFromFileName('notes/Campaign 1 - Session 06 - Whispers.md')).toBe(6);
    expect(sessionFromFileName('session_12.md')).toBe(12);
    expect(sessionFromFileName('Session 3/The Fall.md')).toBeNull();
    expect(sessionFromFileName('The Fall.md')).toBeNull();
  });
});
