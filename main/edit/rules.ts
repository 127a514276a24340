/**
 * Schema checks for edit commands. Every refusal is CoreError('invalid') whose
 * message names the field and what was expected; `details.field` carries it.
 */
import { CoreError } from '../domain/errors.js';
import type { EntityType, FieldMapping, PropertyDef, Schema, VaultConfig } from '../config/types.js';
import { RESERVED_FIELDS } from '../config/types.js';

/** Does a note in layer `from` see entities of layer `to`? Its own layer and what it depends on, transitively. */
export function layerSees(config: VaultConfig, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const l = stack.pop()!;
    if (l === to) return true;
    if (seen.has(l)) continue;
    seen.add(l);
    stack.push(...(config.layers.find((x) => x.name === l)?.depends_on ?? []));
  }
  return false;
}

/**
 * Why a link written in `holder`'s note to `other` would not resolve (null when it would): the holder's layer
 * does not see the other's, so the link would show as a placeholder there. Said in the GM's words.
 */
export function layerRefusal(config: VaultConfig, holder: { name: string; layer: string }, other: { name: string; layer: string }): string | null {
  if (layerSees(config, holder.layer, other.layer)) return null;
  const both = config.layers.filter((l) => layerSees(config, l.name, holder.layer) && layerSees(config, l.name, other.layer)).map((l) => l.name);
  return `${holder.name} is in the ${holder.layer} layer, which cannot see ${other.name} (${other.layer} layer): the link would not resolve there`
    + (both.length ? `; a note in ${both.join(' or ')} can link both` : '');
}

export function invalid(message: string, details: Record<string, unknown> = {}): CoreError {
  return new CoreError('invalid', message, details);
}

export function typeDef(schema: Schema, type: string | null): EntityType | undefined {
  if (type === null) return undefined;
  const t = type.toLowerCase();
  return schema.entity_types.find((e) => e.name.toLowerCase() === t);
}

export function requireType(schema: Schema, type: string): EntityType {
  const def = typeDef(schema, type);
  if (!def) {
    const known = schema.entity_types.map((e) => e.name).join(', ') || '(none)';
    throw invalid(`unknown entity type '${type}' (schema types: ${known})`, { field: 'type' });
  }
  return def;
}

export function propDef(def: EntityType | undefined, field: string): PropertyDef | undefined {
  return def?.properties.find((p) => p.name === field);
}

export function isReserved(schema: Schema, field: string): boolean {
  return (RESERVED_FIELDS as readonly string[]).includes(field) || field === 'alias' || field === schema.title_field;
}

const DATE_RE = /^-?\d{1,6}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/;

function checkScalar(kind: string, v: unknown, where: string, values?: PropertyDef['values']): void {
  const ok =
    kind === 'string' ? typeof v === 'string'
      : kind === 'integer' ? typeof v === 'number' && Number.isInteger(v)
        : kind === 'number' ? typeof v === 'number' && Number.isFinite(v)
          : kind === 'boolean' ? typeof v === 'boolean'
            : kind === 'date' ? typeof v === 'string' && DATE_RE.test(v)
              : kind === 'enum' ? (values ?? []).some((x) => x === v)
                : true;
  if (!ok) {
    const expect = kind === 'enum' ? `one of ${(values ?? []).map((x) => JSON.stringify(x)).join(', ')}`
      : kind === 'date' ? 'a date like 1203-05-14 (year[-month[-day]])' : `a${kind === 'integer' ? 'n' : ''} ${kind}`;
    throw invalid(`${where} must be ${expect}, got ${JSON.stringify(v)}`);
  }
}

/**
 * Validate a value for a property of a typed entity (undefined def: untyped note).
 * A key the type does not declare is refused only when the note does not hold it
 * yet (`present` false): the schema shapes the form, it never blocks editing a
 * value the file already has (the unknown-property problem stays info-level).
 */
export function checkProperty(schema: Schema, def: EntityType | undefined, field: string, value: unknown, present = false): void {
  const where = def ? `${def.name}.${field}` : field;
  if (field === 'tags' || field === 'aliases' || field === 'alias') {
    const arr = Array.isArray(value) ? value : [value];
    if (!arr.every((x) => typeof x === 'string' && x.trim())) throw invalid(`${field} must be a list of non-empty strings`, { field });
    return;
  }
  if (field === schema.title_field) throw invalid(`${field} is the note's name: use rename`, { field });
  if (field === 'type') throw invalid(`type cannot be set as a property (it decides the entity type)`, { field });
  if (def && def.field_mappings.some((m) => m.field === field)) {
    const m = def.field_mappings.find((x) => x.field === field)!;
    throw invalid(`${where} holds the relationship ${m.relationship}: use link/unlink`, { field, relationship: m.relationship });
  }
  if (field === 'related') throw invalid(`related holds relationships: use link/unlink with RELATED_TO`, { field, relationship: 'RELATED_TO' });
  // an event note's `consequences` (docs/timeline.md) is not a schema property: a list of
  // mappings, checked item by item by the timeline (problems with file and line)
  if (def && field === 'consequences' && def.name === (schema.events?.type ?? 'event')) {
    if (!Array.isArray(value) || !value.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))) {
      throw invalid(`${where} must be a list of consequence mappings ({ entity, property|relationship|created|destroyed, ... })`, { field });
    }
    return;
  }
  if (!def) return; // untyped notes: no schema to check against
  const p = propDef(def, field);
  if (!p) {
    if (present) return;
    const known = def.properties.map((x) => x.name).join(', ') || '(none)';
    throw invalid(`type ${def.name} has no property '${field}' (known: ${known})`, { field });
  }
  try {
    if (p.type === 'list') {
      if (!Array.isArray(value)) throw invalid(`${where} must be a list, got ${JSON.stringify(value)}`);
      for (const item of value) {
        if (p.items) checkScalar(p.items, item, `each item of ${where}`);
        if (p.values) checkScalar('enum', item, `each item of ${where}`, p.values);
      }
    } else {
      checkScalar(p.type, value, where, p.values);
    }
  } catch (e) {
    if (e instanceof CoreError) throw invalid(e.message, { field });
    throw e;
  }
}

/** Relationship names the schema knows, plus the built-ins. */
export function relInfo(schema: Schema, rel: string): { canonical: string; mirror: string | null } | undefined {
  const R = rel.toUpperCase();
  if (R === 'RELATED_TO') return { canonical: R, mirror: null };
  for (const r of schema.relationship_types) {
    if (r.name === R) return { canonical: r.name, mirror: r.symmetric ? r.name : r.inverse ?? null };
    if (r.inverse === R) return { canonical: r.name, mirror: r.name };
  }
  return undefined;
}

export interface WriteTarget {
  /** which end holds the field: 'from' (the command's first entity) or 'to' */
  end: 'from' | 'to';
  field: string;
  cardinality: 'list' | 'scalar';
  mapping: FieldMapping | null;
}

/**
 * Where `from -[rel]-> to` is written: a field of from's type mapped to `rel`,
 * else (for an inverse or symmetric name) a field of to's type mapped to the
 * mirror name, else `related` for RELATED_TO.
 */
export function writeTarget(schema: Schema, fromType: string | null, toType: string | null, rel: string): WriteTarget {
  const R = rel.toUpperCase();
  if (R === 'LINKS_TO') throw invalid('LINKS_TO comes from links in the body: edit the body instead', { field: 'relationship' });
  const info = relInfo(schema, R);
  if (!info) {
    const known = schema.relationship_types.flatMap((r) => [r.name, ...(r.inverse ? [r.inverse] : [])]).join(', ') || '(none)';
    throw invalid(`unknown relationship '${rel}' (schema: ${known}, RELATED_TO)`, { field: 'relationship' });
  }
  const on = (type: string | null, name: string) => typeDef(schema, type)?.field_mappings.find((m) => m.relationship.toUpperCase() === name);
  const a = on(fromType, R);
  if (a) return { end: 'from', field: a.field, cardinality: a.cardinality ?? 'list', mapping: a };
  if (info.mirror) {
    const b = on(toType, info.mirror);
    if (b) return { end: 'to', field: b.field, cardinality: b.cardinality ?? 'list', mapping: b };
  }
  if (R === 'RELATED_TO') return { end: 'from', field: 'related', cardinality: 'list', mapping: null };
  throw invalid(`no field of type ${fromType ?? '(untyped)'} maps to ${R}${info.mirror ? ` and no field of type ${toType ?? '(untyped)'} maps to ${info.mirror}` : ''}: add a field_mapping to schema.yaml`, { field: 'relationship' });
}

/** Refuse a target whose type the mapping does not allow. */
export function checkTargetType(m: FieldMapping | null, targetType: string | null, targetName: string): void {
  if (!m?.target_type) return;
  const allowed = (Array.isArray(m.target_type) ? m.target_type : [m.target_type]).map((x) => x.toLowerCase());
  if (!targetType || !allowed.includes(targetType.toLowerCase())) {
    throw invalid(`${m.field} (${m.relationship}) takes ${allowed.join(' or ')}, but ${targetName} is ${targetType ?? 'untyped'}`, { field: m.field });
  }
}

const WIN_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** Bidirectional controls: ALM, LRM, RLM, embeddings/overrides (U+202A-202E), isolates (U+2066-2069). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** C0 and C1 controls, DEL, line/paragraph separators and the bidirectional controls: refused in names. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const codePoint = (c: string): string => 'U+' + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');

/** A name usable as a file name on every OS and inside [[links]]; refused otherwise. */
export function checkEntityName(name: string): string {
  const n = name.normalize('NFC').trim();
  if (!n) throw invalid('the name is empty', { field: 'name' });
  if (n.length > 200) throw invalid('the name is longer than 200 characters', { field: 'name' });
  const ctl = CONTROL.exec(n);
  if (ctl) {
    const cp = codePoint(ctl[0]);
    // shown with every such character spelled out, so the message itself is not reordered
    const shown = n.replace(new RegExp(CONTROL.source, 'g'), (c) => `<${codePoint(c)}>`);
    const what = BIDI.test(ctl[0]) ? 'a bidirectional-control character' : ctl[0] === '\u2028' || ctl[0] === '\u2029' ? 'a line or paragraph separator' : 'a control character';
    throw invalid(`the name '${shown}' contains ${cp} (${what}), which would hide or reorder what the name shows`, { field: 'name', codePoint: cp });
  }
  const bad = /[/\\:*?"<>|[\]#^]/.exec(n);
  if (bad) throw invalid(`the name '${n}' contains '${bad[0]}', which cannot be in a file name or a [[link]]`, { field: 'name' });
  if (n.startsWith('.') || n.endsWith('.')) throw invalid(`the name '${n}' starts or ends with a dot`, { field: 'name' });
  if (WIN_RESERVED.test(n)) throw invalid(`'${n}' is a reserved file name on Windows`, { field: 'name' });
  return n;
}
