/**
 * Pure form logic: which widget a property gets, and the value typed into an
 * input -> the value to write, or an error shown inline (nothing is written).
 * main validates again (CoreError 'invalid'); this gives the answer at once.
 */
import type { PropertyDefView } from '../../../shared/contract-edit.js';

export type Widget = 'select' | 'number' | 'checkbox' | 'date' | 'chips' | 'text';

export function widgetOf(p: PropertyDefView): Widget {
  switch (p.type) {
    case 'enum': return 'select';
    case 'integer': case 'number': return 'number';
    case 'boolean': return 'checkbox';
    case 'date': return 'date';
    case 'list': return 'chips';
    default: return 'text';
  }
}

export type Parsed = { ok: true; value: unknown; unset?: boolean } | { ok: false; error: string };

const DATE_RE = /^-?\d{1,6}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/;

function scalar(kind: string, raw: string, values?: PropertyDefView['values']): Parsed {
  const t = raw.trim();
  switch (kind) {
    case 'integer':
      if (!/^[-+]?\d+$/.test(t)) return { ok: false, error: `must be a whole number, not “${raw}”` };
      return { ok: true, value: Number(t) };
    case 'number': {
      const n = Number(t);
      if (!t || !Number.isFinite(n)) return { ok: false, error: `must be a number, not “${raw}”` };
      return { ok: true, value: n };
    }
    case 'boolean':
      if (t === 'true' || t === 'false') return { ok: true, value: t === 'true' };
      return { ok: false, error: 'must be true or false' };
    case 'date':
      if (!DATE_RE.test(t)) return { ok: false, error: `must be a date like 1203-05-14 (year[-month[-day]]), not “${raw}”` };
      return { ok: true, value: t };
    case 'enum': {
      const hit = (values ?? []).find((v) => String(v) === t);
      if (hit === undefined) return { ok: false, error: `must be one of ${(values ?? []).join(', ')}` };
      return { ok: true, value: hit };
    }
    default:
      return { ok: true, value: raw };
  }
}

/**
 * The value to write for what the user entered. An empty input means "unset"
 * (refused for a required property).
 */
export function parseInput(p: PropertyDefView, raw: string): Parsed {
  if (raw.trim() === '' && p.type !== 'string') {
    return p.required ? { ok: false, error: 'is required' } : { ok: true, value: undefined, unset: true };
  }
  if (raw === '' && p.type === 'string') {
    return p.required ? { ok: false, error: 'is required' } : { ok: true, value: undefined, unset: true };
  }
  return scalar(p.type, raw, p.values);
}

/** A list property's new items, each checked against the item type. */
export function parseListItem(p: PropertyDefView, raw: string): Parsed {
  if (!raw.trim()) return { ok: false, error: 'an item cannot be empty' };
  const r = scalar(p.items ?? 'string', raw, undefined);
  if (!r.ok) return r;
  if (p.values && !p.values.some((v) => String(v) === String(r.value))) return { ok: false, error: `must be one of ${p.values.join(', ')}` };
  return r;
}

/** How a stored value reads in an input. */
export function display(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A frontmatter value as a list of strings (scalar, list or absent). */
export function asList(v: unknown): string[] {
  if (v === null || v === undefined || v === '') return [];
  return (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
}

/** `[[Target|label]]` or a plain name -> the name it refers to. */
export { refName } from '../../../shared/wikilinks.js';

/**
 * The form control of a key the schema does not declare, after the value the
 * file holds: numbers and booleans keep their kind, lists of scalars are chips,
 * anything else is text. null: a nested value, shown as written.
 */
export function undeclaredDef(name: string, v: unknown): PropertyDefView | null {
  const scalar = (x: unknown) => x === null || ['string', 'number', 'boolean'].includes(typeof x);
  if (Array.isArray(v)) return v.every(scalar) ? { name, type: 'list', required: false } : null;
  if (typeof v === 'boolean') return { name, type: 'boolean', required: false };
  if (typeof v === 'number') return { name, type: Number.isInteger(v) ? 'integer' : 'number', required: false };
  return scalar(v) ? { name, type: 'string', required: false } : null;
}
