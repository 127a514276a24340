/**
 * Event notes -> TimelineEvent: session, in-world date, participants,
 * location and validated consequences (each with the line of its list item).
 * Pure over plain data; problems are returned, never thrown.
 */
import { formatLink, refTarget } from '../../shared/wikilinks.js';
import { entityId } from '../../shared/names.js';
import type { EntityRecord, Problem, PropertyValue } from '../../shared/types.js';
import type { EntityType, Schema } from '../config/types.js';
import type { Calendar } from './calendar.js';
import { parseInWorldDate, parseSession } from './dates.js';
import type { NameIndex } from './layers.js';
import { readFrontmatterLines } from './source.js';
import { relationshipAllowed, relationshipNames, relationshipType } from './schema-rules.js';
import type { Consequence, EntityRef, TimelineEvent } from './types.js';

/** An event note as the timeline needs it (from the parser's ParsedNote and the model's EntityRecord). */
export interface EventNoteInput {
  /** entity id of the note */
  id: string;
  name: string;
  /** vault-relative posix path */
  path: string;
  layer: string;
  frontmatter: Record<string, unknown>;
  /** 1-based line of each top-level frontmatter key */
  fieldLines: Record<string, number>;
  /** the file text: gives each consequence item its own line (else the `consequences:` line is used) */
  source?: string;
  /** precomputed 1-based line of each consequence item (from an earlier read of the same bytes); wins over source */
  itemLines?: number[];
}

export interface EventSettings {
  type: string;
  session_field: string;
  date_field: string;
  participants_field: string;
  location_field: string;
}

export { relationshipAllowed, relationshipType } from './schema-rules.js';

export function eventSettings(schema: Schema): EventSettings {
  const e = schema.events ?? {};
  return {
    type: e.type ?? 'event',
    session_field: e.session_field ?? 'session',
    date_field: e.date_field ?? 'date_in_world',
    participants_field: e.participants_field ?? 'participants',
    location_field: e.location_field ?? 'location',
  };
}

export interface EventContext {
  schema: Schema;
  settings: EventSettings;
  names: NameIndex;
  /** layer scope of the event's own layer (layer first, then its dependencies) */
  scope: string[];
  /** the world's calendar (lorecraft.yaml `calendar:`), when it has one */
  calendar?: Calendar | null;
  /** virtual entities (created by an event, no note), by layer then normalised name -> id */
  virtual: (ref: string, scope: string[]) => string | undefined;
}

const ACTIONS = ['value', 'add', 'remove', 'unset'] as const;

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** `Campaign 1 - Session 06 - Title.md` -> 6: the fallback when the session field is missing or empty. */
export function sessionFromFileName(p: string): number | null {
  const m = /\bsession[\s_-]*(\d+)\b/i.exec(p.slice(p.lastIndexOf('/') + 1));
  return m ? Number(m[1]) : null;
}

/** Strip `[[ ]]` and a `|label` from a frontmatter reference. */
export function refName(v: unknown): string | null {
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return null;
  const name = refTarget(v).replace(/\.md$/i, '').trim();
  return name === '' ? null : name;
}

function refs(v: unknown): unknown[] {
  if (v === null || v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

function cleanValue(v: unknown): PropertyValue {
  if (typeof v === 'string') {
    const n = refName(v);
    return v.trim().startsWith('[[') && n ? formatLink(n) : v;
  }
  return v as PropertyValue;
}

export function parseEvent(note: EventNoteInput, ctx: EventContext): { event: TimelineEvent; problems: Problem[] } {
  const problems: Problem[] = [];
  const s = ctx.settings;
  const fm = note.frontmatter;
  const reread = note.itemLines ? { fieldLines: {} as Record<string, number>, itemLines: note.itemLines }
    : note.source !== undefined ? readFrontmatterLines(note.source) : null;
  const fieldLine = (f: string) => note.fieldLines[f] ?? reread?.fieldLines[f];
  const resolveRef = (name: string): EntityRecord | string | undefined =>
    ctx.names.resolve(name, ctx.scope) ?? ctx.virtual(name, ctx.scope);
  const idOf = (r: EntityRecord | string | undefined) => (r === undefined ? null : typeof r === 'string' ? r : r.id);
  const toRef = (v: unknown): EntityRef | null => {
    const name = refName(v);
    if (!name) return null;
    const rec = ctx.names.resolve(name, ctx.scope);
    // show the entity's name, not a folder path the link was written with
    return { name: rec?.name ?? name.slice(name.lastIndexOf('/') + 1), id: rec?.id ?? null };
  };

  let session = parseSession(fm[s.session_field]);
  const rawCons = fm.consequences;
  const consItems = Array.isArray(rawCons) ? rawCons : [];
  const fromFile = session === null && isBlank(fm[s.session_field]) ? sessionFromFileName(note.path) : null;
  if (fromFile !== null) {
    session = fromFile;
    problems.push({
      severity: 'info', code: 'event-session', file: note.path, line: fieldLine(s.session_field), field: s.session_field, entityId: note.id,
      message: `event '${note.name}' has no ${s.session_field}: session ${fromFile} is taken from its file name`,
      hint: `set ${s.session_field}: ${fromFile} to make it explicit`,
    });
  } else if (session === null) {
    problems.push({
      severity: consItems.length > 0 ? 'warning' : 'info', code: 'event-session', file: note.path,
      line: fieldLine(s.session_field), field: s.session_field, entityId: note.id,
      message: `event '${note.name}' has no session number (${s.session_field}: ${JSON.stringify(fm[s.session_field] ?? null)})`,
      hint: consItems.length > 0 ? `set ${s.session_field}: N — its consequences apply only once it has a session` : `set ${s.session_field}: N to place it on the timeline`,
    });
  }
  if (rawCons !== undefined && rawCons !== null && !Array.isArray(rawCons)) {
    problems.push({ severity: 'error', code: 'event-consequence', file: note.path, line: fieldLine('consequences'), field: 'consequences', entityId: note.id, message: 'consequences must be a list of items like { entity: X, property: p, value: v }', hint: 'write consequences as a YAML list (- entity: ...)' });
  }

  const consequences: Consequence[] = [];
  consItems.forEach((item, i) => {
    const line = reread?.itemLines[i] ?? fieldLine('consequences') ?? 1;
    const c = parseConsequence(item, line, note, ctx, resolveRef, idOf, problems);
    consequences.push(c);
  });

  const date = parseInWorldDate(fm[s.date_field], ctx.calendar);
  if (date?.invalid) {
    problems.push({
      severity: 'warning', code: 'calendar-date', file: note.path, line: fieldLine(s.date_field), field: s.date_field, entityId: note.id,
      message: `event '${note.name}': the world's calendar cannot read ${s.date_field} '${date.label}': ${date.invalid}`,
      hint: 'write a date of the calendar in lorecraft.yaml (e.g. 15 Frostfall 1203 AR, 1203-05-14, c. 1200 AR); until then it sorts after the dated events',
    });
  }
  const locs = refs(fm[s.location_field]).map(toRef).filter((r): r is EntityRef => r !== null);
  return {
    event: {
      id: note.id, name: note.name, path: note.path, layer: note.layer, session,
      date,
      participants: refs(fm[s.participants_field]).map(toRef).filter((r): r is EntityRef => r !== null),
      location: locs[0] ?? null,
      consequences,
      order: 0,
    },
    problems,
  };
}

function parseConsequence(
  item: unknown, line: number, note: EventNoteInput, ctx: EventContext,
  resolveRef: (n: string) => EntityRecord | string | undefined,
  idOf: (r: EntityRecord | string | undefined) => string | null,
  problems: Problem[],
): Consequence {
  const base = { file: note.path, line, field: 'consequences', entityId: note.id };
  const bad = (code: string, message: string, hint: string, text: string, entityName = ''): Consequence => {
    problems.push({ severity: 'error', code, message, hint, ...base });
    return { kind: 'set', entityName, entity: null, line, valid: false, text };
  };
  if (!item || typeof item !== 'object' || Array.isArray(item)) {
    return bad('event-consequence', `consequence ${JSON.stringify(item)} is not a mapping`, 'write { entity: NAME, property: P, value: V } (see docs/timeline.md)', String(item));
  }
  const o = item as Record<string, unknown>;
  if ('reveals' in o) return parseReveal(o, line, note, resolveRef, idOf, bad);
  // `ends: { relationship: R, to: X }` / `starts: { … }` are the relationship remove / add written as a sentence
  for (const [k, action] of [['ends', 'remove'], ['starts', 'add']] as const) {
    const v = o[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && 'relationship' in v) {
      const { relationship, to } = v as Record<string, unknown>;
      return parseConsequence({ entity: o.entity, relationship, [action]: to }, line, note, ctx, resolveRef, idOf, problems);
    }
  }
  const entityName = refName(o.entity);
  if (!entityName) return bad('event-consequence', 'consequence without an entity', 'add entity: NAME', JSON.stringify(o));
  const warn = (code: string, message: string, hint: string) => problems.push({ severity: 'warning', code, message, hint, ...base });
  const resolved = resolveRef(entityName);

  if (o.created === true || o.destroyed === true) {
    const kind = o.created === true ? 'created' : 'destroyed';
    if (o.created === true && o.destroyed === true) return bad('event-consequence', `'${entityName}' is both created and destroyed by one item`, 'split it into two items', entityName, entityName);
    let id = idOf(resolved);
    if (!id && kind === 'created') id = entityId(note.layer, entityName);
    if (!id) return bad('event-unknown-entity', `consequence names '${entityName}', which is no entity in layer '${note.layer}' or the layers it depends on`, `check the name, or create a note '${entityName}'`, `${entityName} ${kind}`, entityName);
    return { kind, entityName, entity: id, line, valid: true, text: `${entityName} ${kind}` };
  }

  const entity = idOf(resolved);
  const record = typeof resolved === 'object' ? resolved : undefined;
  const typeDef = record?.type ? ctx.schema.entity_types.find((t) => t.name === record.type) : undefined;

  if (typeof o.relationship === 'string') {
    const action = 'add' in o ? 'add' : 'remove' in o ? 'remove' : null;
    const targetName = refName(action ? o[action] : undefined);
    const text = `${entityName} ${action === 'remove' ? '-/-' : '--'}${o.relationship}--> ${targetName ?? '?'}`;
    if (!action || !targetName) return bad('event-consequence', `relationship consequence needs add: NAME or remove: NAME`, `write { entity: ${entityName}, relationship: ${o.relationship}, add: OTHER }`, text, entityName);
    if (!entity) return bad('event-unknown-entity', `consequence names '${entityName}', which is no entity in layer '${note.layer}' or the layers it depends on`, `check the name, or create a note '${entityName}'`, text, entityName);
    const target = idOf(resolveRef(targetName));
    if (!target) return bad('event-unknown-entity', `relationship target '${targetName}' is no entity in layer '${note.layer}' or the layers it depends on`, `check the name, or create a note '${targetName}'`, text, entityName);
    const rel = relationshipType(ctx.schema, o.relationship);
    if (!rel) return bad('event-unknown-relationship', `unknown relationship type '${o.relationship}'`, `use one of: ${relationshipNames(ctx.schema).join(', ')}`, text, entityName);
    const [from, to] = rel.inverse ? [target, entity] : [entity, target];
    const targetRec = typeof resolveRef(targetName) === 'object' ? resolveRef(targetName) as EntityRecord : undefined;
    const [fromT, toT] = rel.inverse ? [targetRec?.type, record?.type] : [record?.type, targetRec?.type];
    if (!relationshipAllowed(ctx.schema, rel.name, fromT ?? null, toT ?? null)) {
      warn('event-relationship-types', `${rel.name} is not declared between '${fromT}' and '${toT}' in schema.yaml`, `add a field mapping with relationship ${rel.name} and target_type ${toT} on type ${fromT}, or pick another relationship`);
    }
    return { kind: action === 'add' ? 'relationship-add' : 'relationship-remove', entityName, entity, relationship: rel.name, targetName, target, from, to, line, valid: true, text };
  }

  if (typeof o.property === 'string' && o.property !== '') {
    const p = o.property;
    const present = ACTIONS.filter((a) => a in o && !(a === 'unset' && o.unset !== true));
    const action = present[0];
    const shown = action === 'unset' ? 'unset' : action ? JSON.stringify(o[action]) : '?';
    const text = `${entityName}.${p} ${action === 'value' ? '=' : action === 'add' ? '+=' : action === 'remove' ? '-=' : ''} ${action === 'unset' ? '(unset)' : shown}`.replace(/\s+/g, ' ');
    if (present.length !== 1) return bad('event-consequence', `property consequence needs exactly one of value, add, remove, unset: true (found ${present.join(', ') || 'none'})`, `write { entity: ${entityName}, property: ${p}, value: V }`, text, entityName);
    if (!entity) return bad('event-unknown-entity', `consequence names '${entityName}', which is no entity in layer '${note.layer}' or the layers it depends on`, `check the name, or create a note '${entityName}'`, text, entityName);
    checkProperty(typeDef, p, action!, o[action!], warn);
    const kind = action === 'value' ? 'set' : action!;
    const c: Consequence = { kind, entityName, entity, property: p, line, valid: true, text };
    if (action !== 'unset') c.value = cleanValue(o[action!]);
    return c;
  }
  return bad('event-consequence', `consequence for '${entityName}' has no property, relationship, created or destroyed`, 'see docs/timeline.md for the consequence kinds', entityName, entityName);
}

/**
 * `{ reveals: NOTE }`: a GM-only note becomes visible to players from the event's session on;
 * `{ entity: X, reveals: p }` or `reveals: [p, q]`: X's secret properties do. (Visibility: docs/vault-format.md.)
 */
function parseReveal(
  o: Record<string, unknown>, line: number, note: EventNoteInput,
  resolveRef: (n: string) => EntityRecord | string | undefined,
  idOf: (r: EntityRecord | string | undefined) => string | null,
  bad: (code: string, message: string, hint: string, text: string, entityName?: string) => Consequence,
): Consequence {
  if (o.entity !== undefined && o.entity !== null) {
    const entityName = refName(o.entity) ?? '';
    const props = (Array.isArray(o.reveals) ? o.reveals : [o.reveals]).filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim());
    const text = `${entityName} reveals ${props.join(', ') || '?'}`;
    if (!props.length) return bad('event-consequence', `'reveals' with an entity names the properties it reveals`, `write { entity: ${entityName}, reveals: [property] }`, text, entityName);
    const entity = idOf(resolveRef(entityName));
    if (!entity) return bad('event-unknown-entity', `consequence names '${entityName}', which is no entity in layer '${note.layer}' or the layers it depends on`, `check the name, or create a note '${entityName}'`, text, entityName);
    return { kind: 'reveal', entityName, entity, property: props.join(', '), value: props, line, valid: true, text };
  }
  const entityName = refName(o.reveals);
  const text = `reveals ${entityName ?? '?'}`;
  if (!entityName) return bad('event-consequence', `'reveals' names one note (or, with entity:, its properties)`, 'write { reveals: "[[Note]]" } (one item per note)', text);
  const entity = idOf(resolveRef(entityName));
  if (!entity) return bad('event-unknown-entity', `'reveals' names '${entityName}', which is no entity in layer '${note.layer}' or the layers it depends on`, `check the name, or create a note '${entityName}'`, text, entityName);
  return { kind: 'reveal', entityName, entity, line, valid: true, text: `${entityName} revealed` };
}

function checkProperty(typeDef: EntityType | undefined, p: string, action: string, value: unknown, warn: (code: string, m: string, h: string) => void) {
  if (!typeDef) return;
  const mapping = typeDef.field_mappings.find((m) => m.field === p);
  if (mapping) {
    warn('event-unknown-property', `'${p}' on type '${typeDef.name}' is a relationship field (${mapping.relationship}), not a property`, `write { relationship: ${mapping.relationship}, add: NAME } instead`);
    return;
  }
  const def = typeDef.properties.find((d) => d.name === p);
  if (!def) {
    const known = typeDef.properties.map((d) => d.name);
    warn('event-unknown-property', `type '${typeDef.name}' has no property '${p}'`, known.length ? `known properties: ${known.join(', ')}` : `declare '${p}' under ${typeDef.name}.properties in schema.yaml`);
    return;
  }
  if ((action === 'add' || action === 'remove') && def.type !== 'list') {
    warn('event-not-list', `'${p}' on type '${typeDef.name}' is ${def.type}, not a list: add/remove treat it as one`, `use value: to set it`);
  }
  if (def.values && (action === 'value' || action === 'add') && (def.type === 'enum' || def.type === 'list')) {
    const items = Array.isArray(value) ? value : [value];
    for (const v of items) {
      if (!def.values.map(String).includes(String(v))) {
        warn('event-enum-value', `'${String(v)}' is not an allowed value of ${typeDef.name}.${p}`, `allowed: ${def.values.join(', ')}`);
      }
    }
  }
}
