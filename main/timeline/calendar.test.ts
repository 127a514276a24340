import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Calendar, CalendarZ } from './calendar.js';

const westlands = new Calendar(CalendarZ.parse({
  months: [
    { name: 'Zenith', days: 30 }, { name: 'Frostfall', days: 28 }, { name: 'Abyss', days: 31 },
  ],
  weekdays: ['Moonday', 'Fireday', 'Restday'],
  eras: [{ name: 'Before Reckoning', abbr: 'BR', backwards: true }, { name: 'After Reckoning', abbr: 'AR' }],
  leap: { every: 4, month: 'Frostfall', days: 1 },
}));

const read = (s: unknown) => {
  const r = westlands.read(s);
  if (!r.ok) throw new Error(r.reason);
  return r.date;
};

describe('the world calendar', () => {
  it('reads the forms a GM writes', () => {
    expect(read('15 Frostfall 1203 AR')).toMatchObject({ year: 1203, month: 2, day: 15, era: 'AR', eraYear: 1203 });
    expect(read('Frostfall 15, 1203 AR')).toMatchObject({ year: 1203, month: 2, day: 15 });
    expect(read('15th of Frostfall, 1203 AR')).toMatchObject({ year: 1203, month: 2, day: 15 });
    expect(read('Abyss 1203')).toMatchObject({ year: 1203, month: 3 });
    expect(read('1203-03-14')).toMatchObject({ year: 1203, month: 3, day: 14 });
    expect(read('c. 1200 AR')).toMatchObject({ year: 1200, circa: true });
    expect(read('-45')).toMatchObject({ year: -45 });
    expect(read(1203)).toMatchObject({ year: 1203 });
    expect(read('45 BR')).toMatchObject({ year: -44, era: 'BR', eraYear: 45 });
    expect(read('1 Zenith 1 Before Reckoning')).toMatchObject({ year: 0, month: 1, day: 1 });
  });

  it('orders by the calendar, not the alphabet: Abyss comes after Zenith', () => {
    const dates = ['1 Abyss 1203 AR', '30 Zenith 1203 AR', '1203 AR', 'Frostfall 1203 AR', '2 BR', '1 BR', '1 Zenith 1 AR', 'c. 1204 AR'];
    const sorted = [...dates].sort((a, b) => read(a).ordinal - read(b).ordinal);
    expect(sorted).toEqual(['2 BR', '1 BR', '1 Zenith 1 AR', '1203 AR', '30 Zenith 1203 AR', 'Frostfall 1203 AR', '1 Abyss 1203 AR', 'c. 1204 AR']);
  });

  it('counts leap days in the leap month, before and after the epoch', () => {
    expect(westlands.isLeap(4)).toBe(true);
    expect(westlands.isLeap(0)).toBe(true);
    expect(westlands.isLeap(-4)).toBe(true);
    expect(westlands.isLeap(3)).toBe(false);
    expect(read('29 Frostfall 4 AR')).toMatchObject({ day: 29 });
    const r = westlands.read('29 Frostfall 3 AR');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toContain('Frostfall has 28 days');
    // consecutive days are consecutive ordinals across month, year and epoch boundaries
    expect(read('1 Frostfall 3 AR').ordinal - read('30 Zenith 3 AR').ordinal).toBe(1);
    expect(read('1 Zenith 4 AR').ordinal - read('31 Abyss 3 AR').ordinal).toBe(1);
    expect(read('1 Zenith 1 AR').ordinal).toBe(0);
    expect(read('1 Zenith 1 AR').ordinal - read('31 Abyss 1 BR').ordinal).toBe(1);
  });

  it('ordinals agree with counting day by day (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -60, max: 60 }), (year) => {
      const len = [1, 2, 3].reduce((s, m) => s + westlands.monthDays(m, year), 0);
      expect(westlands.ordinalOf(year + 1, 1, 1) - westlands.ordinalOf(year, 1, 1)).toBe(len);
      expect(len).toBe(89 + (year % 4 === 0 ? 1 : 0));
    }));
  });

  it('gregorian leap rule (except every 100, unless every 400)', () => {
    const g = new Calendar(CalendarZ.parse({ months: [{ name: 'Jan', days: 31 }, { name: 'Feb', days: 28 }], leap: { every: 4, except_every: 100, unless_every: 400, month: 'Feb' } }));
    expect([1900, 2000, 2004, 2100, 2023].map((y) => g.isLeap(y))).toEqual([false, true, true, false, false]);
    fc.assert(fc.property(fc.integer({ min: -2000, max: 2000 }), (y) => {
      expect(g.ordinalOf(y + 1, 1, 1) - g.ordinalOf(y, 1, 1)).toBe(59 + (g.isLeap(y) ? 1 : 0));
    }));
  });

  it('refuses what it cannot read, with the reason', () => {
    const bad = (s: string) => { const r = westlands.read(s); return r.ok ? null : r.reason; };
    expect(bad('15 Smarch 1203 AR')).toContain("'15 Smarch' is not a month");
    expect(bad('40 Zenith 1203 AR')).toContain('Zenith has 30 days');
    expect(bad('1203-09-01')).toContain('the calendar has 3 months');
    expect(bad('the long winter')).toContain('no year');
    expect(bad('0 AR')).toContain('must be 1 or more');
  });

  it('shows dates in the world format, with weekdays and eras', () => {
    expect(westlands.format(read('1203-02-15 AR'))).toBe('15 Frostfall 1203 AR');
    expect(westlands.format(read('c. 1200 AR'))).toBe('c. 1200 AR');
    expect(westlands.format(read('-44'))).toBe('45 BR');
    expect(westlands.format(read('Abyss 7 AR'))).toBe('Abyss 7 AR');
    const wd = new Calendar(CalendarZ.parse({ ...westlands.config, format: '{weekday}, {day} {month} {year} {era}' }));
    expect(wd.format(read('1 Zenith 1 AR'))).toBe('Moonday, 1 Zenith 1 AR');
    expect(wd.format(read('2 Zenith 1 AR'))).toBe('Fireday, 2 Zenith 1 AR');
    expect(wd.format(read('31 Abyss 1 BR'))).toBe('Restday, 31 Abyss 1 BR');
  });

  it('round-trips: format then read gives the same ordinal (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -300, max: 3000 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 28 }), (y, m, d) => {
      const o = westlands.ordinalOf(y, m, d);
      const text = westlands.format({ year: y, month: m, day: d, ordinal: o });
      expect(read(text).ordinal).toBe(o);
    }));
  });

  it('checks the calendar itself', () => {
    expect(Calendar.check(CalendarZ.parse({ months: [{ name: 'A', days: 1 }, { name: 'a', days: 2 }], leap: { every: 4, month: 'B' } }))).toEqual([
      "month 'a' is listed twice", "leap.month 'B' is not one of the months",
    ]);
  });
});
