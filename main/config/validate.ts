/**
 * Property validation of one note against its entity type. Pure; returns
 * Problems (file, line, field, hint) and never throws.
 *
 * Leniency, on purpose (hand-written YAML): a `string` property accepts numbers
 * and booleans; a `list` property accepts a single scalar as a one-item list;
 * a `date` accepts ISO-like `YYYY`, `YYYY-MM`, `YYYY-MM-DD` (negative years
 * allowed, optional time part) and a bare integer year. An empty value (`key:`)
 * counts as missing.
 */
import type { Problem } from '../../shared/types.js';
import type { ParsedNote } from '../parse/types.js';
import type { PropertyDef } from './types.js';
import type { SchemaIndex } from './schema-index.js';
import type { Calendar } from '../timeline/calendar.js';

const DATE_RE = /^-?\d{1,6}(-\d{1,2}(-\d{1,2}([T ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/;

export function isDateLike(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v);
  return typeof v === 'string' && DATE_RE.test(v.trim());
}

type ItemType = 'string' | 'integer' | 'number' | 'boolean' | 'date';

function scalarOk(v: unknown, t: ItemType): boolean {
  switch (t) {
    case 'string': return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'boolean': return typeof v === 'boolean';
    case 'date': return isDateLike(v);
  }
}

function show(v: unknown): string {
  const s = typeof v === 'string' ? `'${v}'` : JSON.stringify(v) ?? String(v);
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
}

const valuesText = (def: PropertyDef) => (def.values ?? []).map(String).join(', ');
const inValues = (def: PropertyDef, v: unknown) => (def.values ?? []).some((x) => x === v || String(x) === String(v));

/**
 * What a value of a declared property should have been, or null when it fits (one rule for note properties'
 * callers that hold a single value, e.g. relationship properties). Dates use the world's calendar when given.
 */
export function valueMismatch(def: PropertyDef, v: unknown, calendar: Calendar | null = null): string | null {
  if (v === undefined || v === null) return null;
  const date = (x: unknown) => (calendar ? calendar.read(x).ok : isDateLike(x));
  switch (def.type) {
    case 'enum': return inValues(def, v) ? null : `one of: ${valuesText(def)}`;
    case 'list': {
      const items = Array.isArray(v) ? v : [v];
      const bad = items.find((it) => (def.items === 'date' ? !date(it) : def.items ? !scalarOk(it, def.items) : it !== null && typeof it === 'object') || (def.values && !inValues(def, it)));
      return bad === undefined ? null : `a list of ${def.items ?? 'plain values'}${def.values ? ` from: ${valuesText(def)}` : ''}`;
    }
    case 'date': return date(v) ? null : 'a date';
    case 'integer': return scalarOk(v, 'integer') ? null : 'a whole number';
    case 'number': return scalarOk(v, 'number') ? null : 'a number';
    case 'boolean': return scalarOk(v, 'boolean') ? null : 'true or false';
    default: return scalarOk(v, 'string') ? null : 'a text value';
  }
}

/** Where a property problem is: the note's file, the property's line, the property (no object per property fits). */
function at(note: ParsedNote, def: PropertyDef): { file: string; line: number; field: string } {
  return { file: note.path, line: note.fieldLines[def.name] ?? 1, field: def.name };
}

function wrongType(note: ParsedNote, def: PropertyDef, v: unknown, expected: string): Problem {
  return {
    ...at(note, def), severity: 'error', code: 'property-type',
    message: `'${def.name}' should be ${expected}, not ${show(v)}`,
    hint: `write ${def.name}: <${expected}>`,
  };
}

export function validateProperties(note: ParsedNote, type: string | null, index: SchemaIndex): Problem[] {
  const problems: Problem[] = [];
  if (type === null) return problems;
  const defs = index.properties(type);
  for (const def of defs) {
    const v = note.frontmatter[def.name];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (def.required && def.default === undefined) {
        problems.push({
          ...at(note, def), severity: 'warning', code: 'required-missing',
          message: `${type} '${note.title}' has no '${def.name}' (required)`,
          hint: `add '${def.name}:' to the frontmatter${def.type === 'enum' ? ` (one of: ${valuesText(def)})` : ''}`,
        });
      }
      continue;
    }
    switch (def.type) {
      case 'enum':
        if (!inValues(def, v)) {
          problems.push({
            ...at(note, def), severity: 'error', code: 'enum-value',
            message: `'${def.name}' is ${show(v)}, which is not one of: ${valuesText(def)}`,
            hint: `use one of: ${valuesText(def)} (or add the value to schema.yaml)`,
          });
        }
        break;
      case 'list': {
        const items = Array.isArray(v) ? v : [v];
        const itemType = def.items;
        for (const it of items) {
          if (itemType === 'date' && index.calendar ? !index.calendar.read(it).ok : itemType && !scalarOk(it, itemType)) { problems.push(wrongType(note, def, v, `a list of ${itemType}`)); break; }
          if (!itemType && it !== null && typeof it === 'object') { problems.push(wrongType(note, def, v, 'a list of plain values')); break; }
          if (def.values && !inValues(def, it)) {
            problems.push({
              ...at(note, def), severity: 'error', code: 'enum-value',
              message: `'${def.name}' contains ${show(it)}, which is not one of: ${valuesText(def)}`,
              hint: `use values from: ${valuesText(def)}`,
            });
            break;
          }
        }
        break;
      }
      case 'string':
        if (!scalarOk(v, 'string')) problems.push(wrongType(note, def, v, 'a text value'));
        break;
      case 'integer':
        if (!scalarOk(v, 'integer')) problems.push(wrongType(note, def, v, 'a whole number'));
        break;
      case 'number':
        if (!scalarOk(v, 'number')) problems.push(wrongType(note, def, v, 'a number'));
        break;
      case 'boolean':
        if (!scalarOk(v, 'boolean')) problems.push(wrongType(note, def, v, 'true or false'));
        break;
      case 'date':
        if (index.calendar) {
          const r = index.calendar.read(v);
          if (!r.ok) {
            problems.push({
              ...at(note, def), severity: 'warning', code: 'calendar-date',
              message: `'${def.name}' is ${show(v)}, which the world's calendar cannot read: ${r.reason}`,
              hint: 'write a date of the calendar in lorecraft.yaml, e.g. 15 Frostfall 1203 AR, 1203-05-14 or c. 1200 AR',
            });
          }
        } else if (!isDateLike(v)) problems.push(wrongType(note, def, v, 'a date (YYYY-MM-DD, negative years allowed)'));
        break;
    }
  }
  return problems;
}
