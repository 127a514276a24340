/**
 * In-world dates and session numbers.
 *
 * Accepted date forms: `year[-month[-day]]` with an optional leading minus
 * (`-45`, `1203-05`, `1203-05-14`), an optional era suffix (`1203 AR`,
 * `212 PR`), an optional circa prefix (`c. 1200`, `ca. 1200`, `~1200`,
 * `circa 1200`). Anything else is kept as a free-form label.
 *
 * Order: parseable dates compare by (year, month, day) — a missing month/day
 * sorts before any given one; the era is a label only (write earlier eras with
 * negative years). Free-form and missing dates sort after every parseable date.
 *
 * With the world's calendar (lorecraft.yaml `calendar:`, ./calendar.ts) the
 * calendar reads the date instead: month names, eras counting up or down, leap
 * days; dates then order by their ordinal (days since the epoch) and carry their
 * display form. A date it cannot read keeps its label and says why (`invalid`).
 */
import type { Calendar } from './calendar.js';
import type { InWorldDate } from './types.js';

const DATE_RE = /^(-?\d{1,7})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:\s*([A-Za-z][A-Za-z .']{0,20}?))?\.?$/;
const CIRCA_RE = /^(?:c\.|ca\.|circa\s|~)\s*/i;

export function parseInWorldDate(value: unknown, calendar?: Calendar | null): InWorldDate | null {
  if (value === null || value === undefined) return null;
  if (calendar) return readWithCalendar(value, calendar);
  let raw: string;
  if (value instanceof Date) raw = isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  else if (typeof value === 'string' || typeof value === 'number') raw = String(value);
  else return null;
  const label = raw.trim();
  if (label === '') return null;
  const out: InWorldDate = { raw, label };
  let text = label;
  const circa = CIRCA_RE.exec(text);
  if (circa) text = text.slice(circa[0].length);
  const m = DATE_RE.exec(text);
  if (!m) return out;
  const month = m[2] === undefined ? undefined : Number(m[2]);
  const day = m[3] === undefined ? undefined : Number(m[3]);
  if ((month !== undefined && (month < 1 || month > 99)) || (day !== undefined && (day < 1 || day > 99))) return out;
  out.year = Number(m[1]);
  if (month !== undefined) out.month = month;
  if (day !== undefined) out.day = day;
  if (m[4]) out.era = m[4].trim();
  if (circa) out.circa = true;
  return out;
}

function readWithCalendar(value: unknown, calendar: Calendar): InWorldDate | null {
  const raw = value instanceof Date ? (isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10)) : typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  const label = raw.trim();
  if (label === '') return null;
  const r = calendar.read(label);
  if (!r.ok) return { raw, label, invalid: r.reason };
  const d = r.date;
  const out: InWorldDate = { raw, label, year: d.year, ordinal: d.ordinal, display: calendar.format(d) };
  if (d.month !== undefined) out.month = d.month;
  if (d.day !== undefined) out.day = d.day;
  if (d.era !== undefined) out.era = d.era;
  if (d.circa) out.circa = true;
  return out;
}

/** Total order on optional dates: parseable by ordinal (calendar) or (year, month, day), then free-form, then none. */
export function compareDates(a: InWorldDate | null, b: InWorldDate | null): number {
  const ra = rank(a), rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra !== 0) return 0;
  if (a!.ordinal !== undefined && b!.ordinal !== undefined) return a!.ordinal - b!.ordinal;
  return (a!.year! - b!.year!) || ((a!.month ?? 0) - (b!.month ?? 0)) || ((a!.day ?? 0) - (b!.day ?? 0));
}

function rank(d: InWorldDate | null): number {
  if (!d) return 2;
  return d.year === undefined ? 1 : 0;
}

/**
 * A session number from a frontmatter value: a number, or a string holding one
 * (`"07"`, `"08 "`, `"Session 7"`). Returns null for empty or anything else.
 */
export function parseSession(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const m = /^\s*(?:session\s*)?(-?\d+(?:\.\d+)?)\s*$/i.exec(value);
  return m ? Number(m[1]) : null;
}
