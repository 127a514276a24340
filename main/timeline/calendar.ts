/**
 * The world's own calendar (lorecraft.yaml `calendar:`): named months of given
 * lengths in calendar order, weekdays, eras (a backwards era counts its years
 * down to the epoch), an optional leap rule, and a display format.
 *
 * Dates written in notes are read against it — `15 Frostfall 1203 AR`,
 * `Frostfall 15, 1203 AR`, `Frostfall 1203`, `1203-05-14`, `c. 1200 AR`, `-45`
 * — into an absolute year (year 1 of the first forward era is 1, the year
 * before it 0, then -1 …) and an ordinal: days since the epoch, so that dates
 * order in calendar order, not alphabetically. A year alone sorts before any
 * day of that year, a month alone before any day of that month (ordinal - 0.5 /
 * - 0.25), as the plain dates always have.
 *
 * Pure: no I/O, no imports from the rest of main/.
 */
import { z } from 'zod';

export const CalendarMonthZ = z.object({
  name: z.string().min(1),
  days: z.number().int().min(1).max(1000),
  /** a short form also accepted when reading (default: none; the first three letters are accepted when unique) */
  abbr: z.string().min(1).optional(),
}).strict();

export const CalendarEraZ = z.object({
  name: z.string().min(1),
  /** what is written after the year (`1203 AR`); default: the name */
  abbr: z.string().min(1).optional(),
  /** years count down to the epoch (`45 BR` is 45 years before year 1 of the next era) */
  backwards: z.boolean().default(false),
  /** the absolute year of this era's year 1 (forward eras after the first; default: right after the previous era) */
  start: z.number().int().optional(),
}).strict();

export const CalendarLeapZ = z.object({
  /** a leap year every N years (counted from `offset`) */
  every: z.number().int().min(1),
  offset: z.number().int().default(0),
  /** …except every N years (Gregorian: 100) */
  except_every: z.number().int().min(1).optional(),
  /** …unless also every N years (Gregorian: 400) */
  unless_every: z.number().int().min(1).optional(),
  /** the month that gets the extra days */
  month: z.string().min(1),
  days: z.number().int().min(1).default(1),
}).strict();

export const CalendarZ = z.object({
  months: z.array(CalendarMonthZ).min(1),
  weekdays: z.array(z.string().min(1)).default([]),
  eras: z.array(CalendarEraZ).default([]),
  leap: CalendarLeapZ.optional(),
  /** how dates are shown: {day} {month} {year} {era} {weekday} {month_number}; default '{day} {month} {year} {era}' */
  format: z.string().optional(),
  /** weekday of the epoch's first day (index into weekdays; default 0) */
  epoch_weekday: z.number().int().min(0).default(0),
}).strict();

export type CalendarConfig = z.infer<typeof CalendarZ>;

/** A date read against a calendar. `year` is absolute (see the module comment); `eraYear` is as written. */
export interface CalendarDate {
  year: number;
  month?: number;
  day?: number;
  era?: string;
  eraYear?: number;
  circa?: boolean;
  /** days since the epoch (year 1, first month, day 1 = 0); fractional for partial dates */
  ordinal: number;
}

export type CalendarReading = { ok: true; date: CalendarDate } | { ok: false; reason: string };

const CIRCA_RE = /^(?:c\.|ca\.|circa\s|~)\s*/i;
const ORDINAL_DAY = /^(\d{1,4})(?:st|nd|rd|th)?$/i;

const floorDiv = (a: number, b: number): number => Math.floor(a / b);

export class Calendar {
  private readonly monthIndex = new Map<string, number>();
  private readonly eraIndex = new Map<string, number>();
  private readonly baseYearDays: number;
  private readonly leapMonth: number;
  /** absolute year of year 1 of each era (backwards eras: the year *after* their year 1, i.e. the epoch they count to) */
  private readonly eraStart: number[] = [];

  constructor(readonly config: CalendarConfig) {
    config.months.forEach((m, i) => {
      this.monthIndex.set(m.name.toLowerCase(), i + 1);
      if (m.abbr) this.monthIndex.set(m.abbr.toLowerCase(), i + 1);
    });
    // three-letter prefixes when unambiguous (and not a full name already)
    const prefixes = new Map<string, number[]>();
    config.months.forEach((m, i) => {
      const p = m.name.slice(0, 3).toLowerCase();
      prefixes.set(p, [...(prefixes.get(p) ?? []), i + 1]);
    });
    for (const [p, ms] of prefixes) if (ms.length === 1 && !this.monthIndex.has(p)) this.monthIndex.set(p, ms[0]!);
    this.baseYearDays = config.months.reduce((s, m) => s + m.days, 0);
    this.leapMonth = config.leap ? (this.monthIndex.get(config.leap.month.toLowerCase()) ?? 0) : 0;
    let nextForward = 1;
    config.eras.forEach((e, i) => {
      this.eraIndex.set(e.name.toLowerCase(), i);
      if (e.abbr) this.eraIndex.set(e.abbr.toLowerCase(), i);
      if (e.backwards) {
        this.eraStart.push(e.start ?? nextForward);
      } else {
        const start = e.start ?? nextForward;
        this.eraStart.push(start);
        nextForward = start;
      }
    });
  }

  /** Problems with the calendar itself (a leap month that is not a month, duplicate names). */
  static check(config: CalendarConfig): string[] {
    const out: string[] = [];
    const names = new Set<string>();
    for (const m of config.months) {
      const k = m.name.toLowerCase();
      if (names.has(k)) out.push(`month '${m.name}' is listed twice`);
      names.add(k);
    }
    if (config.leap && !config.months.some((m) => m.name.toLowerCase() === config.leap!.month.toLowerCase() || m.abbr?.toLowerCase() === config.leap!.month.toLowerCase())) {
      out.push(`leap.month '${config.leap.month}' is not one of the months`);
    }
    return out;
  }

  isLeap(year: number): boolean {
    const l = this.config.leap;
    if (!l) return false;
    const y = year - l.offset;
    const mod = (k: number) => ((y % k) + k) % k === 0;
    if (!mod(l.every)) return false;
    if (l.except_every && mod(l.except_every)) return !!(l.unless_every && mod(l.unless_every));
    return true;
  }

  /** leap years in (-inf, x] counted relative to year 0 (may be negative): G(x) - G(0) counts (0, x] */
  private leapCount(x: number): number {
    const l = this.config.leap;
    if (!l) return 0;
    const y = x - l.offset;
    let n = floorDiv(y, l.every);
    if (l.except_every) {
      n -= floorDiv(y, l.except_every);
      if (l.unless_every) n += floorDiv(y, l.unless_every);
    }
    return n;
  }

  monthDays(month: number, year: number): number {
    const m = this.config.months[month - 1];
    if (!m) return 0;
    return m.days + (month === this.leapMonth && this.isLeap(year) ? this.config.leap!.days : 0);
  }

  /** days from the epoch (year 1 day 1) to the first day of `year` (negative before it) */
  private daysBeforeYear(year: number): number {
    const leapDays = this.config.leap?.days ?? 0;
    return (year - 1) * this.baseYearDays + leapDays * (this.leapCount(year - 1) - this.leapCount(0));
  }

  ordinalOf(year: number, month?: number, day?: number): number {
    let o = this.daysBeforeYear(year);
    if (month === undefined) return o - 0.5;
    for (let m = 1; m < month; m++) o += this.monthDays(m, year);
    if (day === undefined) return o - 0.25;
    return o + day - 1;
  }

  /** the absolute year of `eraYear` written in era `era` (index) */
  absoluteYear(eraYear: number, era: number | undefined): number {
    if (era === undefined) return eraYear;
    const e = this.config.eras[era]!;
    const start = this.eraStart[era]!;
    return e.backwards ? start - eraYear : start + eraYear - 1;
  }

  /** the era (index) and year within it of an absolute year, for display */
  eraOf(year: number): { era?: number; eraYear: number } {
    const eras = this.config.eras;
    // the last forward era that has started; before every forward era, a backwards era counting down to it
    let best: number | undefined;
    eras.forEach((e, i) => {
      if (!e.backwards && year >= this.eraStart[i]!) best = i;
    });
    if (best !== undefined) return { era: best, eraYear: year - this.eraStart[best]! + 1 };
    const back = eras.findIndex((e) => e.backwards);
    if (back >= 0) return { era: back, eraYear: this.eraStart[back]! - year };
    return { eraYear: year };
  }

  weekday(ordinal: number): string | undefined {
    const w = this.config.weekdays;
    if (!w.length || !Number.isInteger(ordinal)) return undefined;
    return w[(((ordinal + this.config.epoch_weekday) % w.length) + w.length) % w.length];
  }

  /** Read a written date; `ok: false` with the reason when the calendar cannot read it. */
  read(value: unknown): CalendarReading {
    let text: string;
    if (typeof value === 'number') text = String(value);
    else if (typeof value === 'string') text = value.trim();
    else if (value instanceof Date && !isNaN(value.getTime())) text = value.toISOString().slice(0, 10);
    else return { ok: false, reason: 'not a date' };
    if (!text) return { ok: false, reason: 'empty' };
    let circa = false;
    const c = CIRCA_RE.exec(text);
    if (c) { circa = true; text = text.slice(c[0].length).trim(); }

    // the era: a trailing word(s) that names one
    let era: number | undefined;
    const eraM = /^(.*?)[\s,]+([A-Za-z][A-Za-z .']*?)\.?$/.exec(text);
    if (eraM && this.eraIndex.has(eraM[2]!.toLowerCase())) {
      era = this.eraIndex.get(eraM[2]!.toLowerCase());
      text = eraM[1]!.trim();
    }
    const iso = /^(-?\d{1,7})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/.exec(text);
    let eraYear: number, month: number | undefined, day: number | undefined;
    if (iso) {
      eraYear = Number(iso[1]);
      month = iso[2] === undefined ? undefined : Number(iso[2]);
      day = iso[3] === undefined ? undefined : Number(iso[3]);
    } else {
      // word forms: "15 Frostfall 1203", "15th of Frostfall, 1203", "Frostfall 15, 1203", "Frostfall 1203"
      const words = text.replace(/,/g, ' ').split(/\s+/).filter((w) => w && w.toLowerCase() !== 'of');
      const yearWord = words.pop();
      if (!yearWord || !/^-?\d{1,7}$/.test(yearWord)) return { ok: false, reason: `no year in '${value}'` };
      eraYear = Number(yearWord);
      const monthAt = words.findIndex((w) => this.monthIndex.has(w.toLowerCase()));
      if (monthAt < 0) {
        return { ok: false, reason: words.length ? `'${words.join(' ')}' is not a month of the calendar (months: ${this.config.months.map((m) => m.name).join(', ')})` : `no month in '${value}'` };
      }
      month = this.monthIndex.get(words[monthAt]!.toLowerCase());
      const rest = words.filter((_, i) => i !== monthAt);
      if (rest.length > 1) return { ok: false, reason: `cannot read '${value}'` };
      if (rest.length === 1) {
        const d = ORDINAL_DAY.exec(rest[0]!);
        if (!d) return { ok: false, reason: `'${rest[0]}' is not a day` };
        day = Number(d[1]);
      }
    }
    if (era !== undefined && eraYear < 1) return { ok: false, reason: `year ${eraYear} of an era must be 1 or more` };
    const year = this.absoluteYear(eraYear, era);
    if (month !== undefined && (month < 1 || month > this.config.months.length)) {
      return { ok: false, reason: `month ${month} does not exist: the calendar has ${this.config.months.length} months` };
    }
    if (day !== undefined) {
      const max = this.monthDays(month!, year);
      if (day < 1 || day > max) return { ok: false, reason: `${this.config.months[month! - 1]!.name} has ${max} days in year ${eraYear}${era !== undefined ? ` ${this.eraLabel(era)}` : ''}, not ${day}` };
    }
    const date: CalendarDate = { year, ordinal: this.ordinalOf(year, month, day) };
    if (month !== undefined) date.month = month;
    if (day !== undefined) date.day = day;
    if (era !== undefined) { date.era = this.eraLabel(era); date.eraYear = eraYear; }
    if (circa) date.circa = true;
    return { ok: true, date };
  }

  private eraLabel(i: number): string {
    const e = this.config.eras[i]!;
    return e.abbr ?? e.name;
  }

  /** The date in the world's format (`15 Frostfall 1203 AR`, `c. 1200 AR`). */
  format(d: Pick<CalendarDate, 'year' | 'month' | 'day' | 'circa' | 'ordinal'>): string {
    const { era, eraYear } = this.eraOf(d.year);
    const month = d.month !== undefined ? this.config.months[d.month - 1]?.name ?? String(d.month) : '';
    const fmt = this.config.format ?? '{day} {month} {year} {era}';
    const text = fmt
      .replace(/\{day\}/g, d.day !== undefined ? String(d.day) : '')
      .replace(/\{month\}/g, month)
      .replace(/\{month_number\}/g, d.month !== undefined ? String(d.month) : '')
      .replace(/\{year\}/g, String(eraYear))
      .replace(/\{era\}/g, era !== undefined ? this.eraLabel(era) : '')
      .replace(/\{weekday\}/g, d.day !== undefined ? this.weekday(d.ordinal) ?? '' : '')
      .replace(/\s+/g, ' ').replace(/\s+,/g, ',').replace(/^[\s,]+|[\s,]+$/g, '');
    return d.circa ? `c. ${text}` : text;
  }
}
