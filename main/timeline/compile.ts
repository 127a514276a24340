/**
 * Compiles plain data (entities, relationships, event notes) into per-layer
 * scopes: ordered events, per-entity change lists, base states and base edges.
 * Everything a scrubber step needs is precomputed here, once per model change.
 */
import { normaliseName } from '../../shared/names.js';
import type { EntityRecord, Problem, RelationshipRecord } from '../../shared/types.js';
import type { Schema, VaultConfig } from '../config/types.js';
import { Calendar } from './calendar.js';
import { compareDates } from './dates.js';
import { eventSettings, parseEvent, refName, type EventNoteInput } from './events.js';
import { layerProblems, layerScope, NameIndex, referenceKeys } from './layers.js';
import type { Consequence, EntityState, Provenance, RelationshipState, TimelineEvent, TimelineOptions } from './types.js';

export interface TimelineInput {
  config: VaultConfig;
  schema: Schema;
  entities: Iterable<EntityRecord>;
  relationships: Iterable<RelationshipRecord>;
  /** the notes of the event type (see eventSettings(schema).type) */
  events: Iterable<EventNoteInput>;
  options?: TimelineOptions;
  /** line of a top-level field of a note, for layer problems */
  fieldLine?: (path: string, field: string) => number | undefined;
}

export const DEFAULT_STATUS_FIELDS = ['status', 'state', 'condition', 'alive'];
export const DEFAULT_DEAD_VALUES = ['dead', 'deceased', 'killed', 'slain', 'destroyed', 'ruined', 'razed', 'fallen', 'lost', 'dissolved', 'disbanded', 'false'];

/** One applicable change, in application order. */
export interface Change {
  order: number;
  session: number;
  cons: Consequence;
  prov: Provenance;
  /** a relationship written in a note whose `since` / `until` starts or ends it (not an event's consequence) */
  base?: boolean;
}

export interface LayerScope {
  layer: string;
  layers: string[];
  /** events of the scope in application order (order = index) */
  events: TimelineEvent[];
  /** entity ids of the scope (notes, placeholders, virtual), sorted */
  ids: string[];
  base: Map<string, EntityState>;
  /** property / lifecycle changes per entity, in order */
  changes: Map<string, Change[]>;
  /** relationship changes in order */
  relChanges: Change[];
  /** base edges by key */
  baseEdges: Map<string, RelationshipState>;
  /** session (or null) at which an event note itself appears: its own session */
  eventNoteSession: Map<string, number>;
  sessions: number[];
  /** per session: entities whose state changes in it (incl. event notes appearing) — for incremental steps */
  touchedIn: Map<number, Set<string>>;
  /** the relationships written with `since` / `until` (between entities of the scope) */
  timed: RelationshipRecord[];
  /** keys of the relationships that only hold from a later session (`since`): not in baseEdges */
  later: Set<string>;
}

export interface Compiled {
  config: VaultConfig;
  schema: Schema;
  entities: Map<string, EntityRecord>;
  virtual: Map<string, { id: string; name: string; layer: string }>;
  names: NameIndex;
  events: TimelineEvent[];
  problems: Problem[];
  relationships: RelationshipRecord[];
  statusFields: string[];
  deadValues: Set<string>;
  symmetric: Set<string>;
  /** per event of `events` (same index): the problems its note raised */
  eventProblems: Problem[][];
  /** the layers' problems (after the events' in `problems`) */
  layerProblems: Problem[];
  /** per virtual entity: the event notes that create it */
  virtualBy: Map<string, Set<string>>;
}

/**
 * A relationship's key in a layer's scope (baseEdges, later) and the edge sets of a session: one flat string.
 * A template literal made a chain of four cons strings per key, kept as long as the scope (~6 MB of them at
 * 10k's 50k relationships in the web shell's heap snapshot, rss15e); Array join makes the flat string at once.
 */
export const edgeKey = (from: string, type: string, to: string) => [from, type, to].join('\u0000');

export function compile(input: TimelineInput): Compiled {
  const settings = eventSettings(input.schema);
  const entities = new Map<string, EntityRecord>();
  for (const e of input.entities) entities.set(e.id, e);
  const names = new NameIndex(entities.values());
  const notes = [...input.events].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  // pass 1: entities that only exist through `created: true` (no note anywhere in scope)
  const virtual = new Map<string, { id: string; name: string; layer: string }>();
  const virtualBy = new Map<string, Set<string>>();
  for (const n of notes) {
    const cons = Array.isArray(n.frontmatter.consequences) ? n.frontmatter.consequences : [];
    for (const c of cons) {
      if (!c || typeof c !== 'object' || (c as Record<string, unknown>).created !== true) continue;
      const name = refName((c as Record<string, unknown>).entity);
      if (!name || names.resolve(name, layerScope(input.config, n.layer))) continue;
      const id = `${n.layer}/${normaliseName(name)}`;
      if (!virtual.has(id)) virtual.set(id, { id, name, layer: n.layer });
      const by = virtualBy.get(id);
      if (by) by.add(n.id); else virtualBy.set(id, new Set([n.id]));
    }
  }
  const virtualRef = (ref: string, scope: string[]) => {
    for (const l of scope) for (const k of referenceKeys(ref)) if (virtual.has(`${l}/${k}`)) return `${l}/${k}`;
    return undefined;
  };

  const problems: Problem[] = [];
  const events: TimelineEvent[] = [];
  const eventProblems: Problem[][] = [];
  const calendar = input.config.calendar ? new Calendar(input.config.calendar) : null;
  for (const n of notes) {
    const { event, problems: p } = parseEvent(n, { schema: input.schema, settings, names, calendar, scope: layerScope(input.config, n.layer), virtual: virtualRef });
    events.push(event);
    eventProblems.push(p);
    problems.push(...p);
  }
  const layerPs = layerProblems(input.config, entities.values(), { eventType: settings.type, fieldLine: input.fieldLine });
  problems.push(...layerPs);
  return {
    config: input.config, schema: input.schema, entities, virtual, names, events, problems, eventProblems, layerProblems: layerPs, virtualBy,
    relationships: [...input.relationships],
    statusFields: input.options?.statusFields ?? input.schema.events?.status_fields ?? DEFAULT_STATUS_FIELDS,
    deadValues: new Set((input.options?.deadValues ?? input.schema.events?.dead_values ?? DEFAULT_DEAD_VALUES).map((v) => v.toLowerCase())),
    symmetric: new Set(['RELATED_TO', ...input.schema.relationship_types.filter((r) => r.symmetric).map((r) => r.name)]),
  };
}

/**
 * `c` compiled from the same input without the event notes `hidden` (the players' timeline: GM-only events left
 * out), reusing what does not depend on them: the entities and their name index, every other event as parsed,
 * the relationships. An event is parsed from its own note, the names and the virtual entities (those that only
 * exist through `created: true`), so this equals compile() of the filtered input as long as every virtual
 * entity is still created by a note kept. Null when one is not (compile the filtered input then).
 */
export function compileWithout(c: Compiled, hidden: ReadonlySet<string>): Compiled | null {
  for (const by of c.virtualBy.values()) {
    let kept = false;
    for (const id of by) if (!hidden.has(id)) { kept = true; break; }
    if (!kept) return null;
  }
  const events: TimelineEvent[] = [];
  const eventProblems: Problem[][] = [];
  const problems: Problem[] = [];
  c.events.forEach((e, i) => {
    if (hidden.has(e.id)) return;
    events.push(e);
    eventProblems.push(c.eventProblems[i]!);
    problems.push(...c.eventProblems[i]!);
  });
  problems.push(...c.layerProblems);
  const virtualBy = new Map<string, Set<string>>();
  for (const [v, by] of c.virtualBy) virtualBy.set(v, new Set([...by].filter((id) => !hidden.has(id))));
  return { ...c, events, problems, eventProblems, virtualBy };
}

/** Application order: session (none last), then in-world date, then file path. */
export function compareEvents(a: TimelineEvent, b: TimelineEvent): number {
  if (a.session !== b.session) {
    if (a.session === null) return 1;
    if (b.session === null) return -1;
    return a.session - b.session;
  }
  return compareDates(a.date, b.date) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

export function provenanceOf(e: TimelineEvent, c: Consequence): Provenance {
  const p: Provenance = { event: e.id, name: e.name, path: e.path, session: e.session ?? 0, line: c.line };
  if (e.date) p.date = e.date.display ?? e.date.label;
  return p;
}

/**
 * The scope of `layer`. `like`: the same layer's scope of a Compiled with the same entities, virtual entities
 * and relationships (compileWithout's source): its ids, the base states that come out the same, its list of
 * `since` / `until` relationships and, when no `since` resolves differently, its base edges are taken as they are.
 */
export function buildScope(c: Compiled, layer: string, like?: LayerScope): LayerScope {
  const layers = layerScope(c.config, layer);
  const inScope = new Set(layers);
  const events = c.events.filter((e) => inScope.has(e.layer)).sort(compareEvents).map((e, order) => ({ ...e, order }));
  let ids: string[];
  if (like) ids = like.ids;
  else {
    ids = [];
    for (const e of c.entities.values()) if (inScope.has(e.layer)) ids.push(e.id);
    for (const v of c.virtual.values()) if (inScope.has(v.layer) && !c.entities.has(v.id)) ids.push(v.id);
    ids.sort();
  }

  const changes = new Map<string, Change[]>();
  const relChanges: Change[] = [];
  const createdAt = new Set<string>();
  const eventNoteSession = new Map<string, number>();
  const sessions = new Set<number>();
  const touchedIn = new Map<number, Set<string>>();
  for (const e of events) {
    if (e.session === null) continue;
    sessions.add(e.session);
    eventNoteSession.set(e.id, e.session);
    let touched = touchedIn.get(e.session);
    if (!touched) { touched = new Set(); touchedIn.set(e.session, touched); }
    touched.add(e.id);
    for (const cons of e.consequences) {
      if (!cons.valid || !cons.entity) continue;
      const ch: Change = { order: e.order, session: e.session, cons, prov: provenanceOf(e, cons) };
      if (cons.kind === 'relationship-add' || cons.kind === 'relationship-remove') { relChanges.push(ch); continue; }
      if (cons.kind === 'created') createdAt.add(cons.entity);
      touchedIn.get(e.session)!.add(cons.entity);
      let list = changes.get(cons.entity);
      if (!list) { list = []; changes.set(cons.entity, list); }
      list.push(ch);
    }
  }

  const base = new Map<string, EntityState>();
  for (const id of ids) {
    const rec = c.entities.get(id);
    const v = c.virtual.get(id);
    const notYet = createdAt.has(id) || eventNoteSession.has(id);
    const same = like?.base.get(id);
    // a base state is made of the record (or virtual entity) and whether it is created later: shared when that agrees
    if (same && (same.lifecycle === 'not-yet-created') === notYet) { base.set(id, same); continue; }
    const st: EntityState = {
      id, name: rec?.name ?? v!.name, type: rec?.type ?? null, layer: rec?.layer ?? v!.layer,
      placeholder: rec?.placeholder ?? false, virtual: !rec,
      lifecycle: notYet ? 'not-yet-created' : 'exists', exists: !notYet, dead: false,
      properties: { ...(rec?.properties ?? {}) }, provenance: {},
    };
    st.dead = isDead(c, st);
    base.set(id, Object.freeze(st) as EntityState);
  }

  // `since` / `until` on a relationship written in a note: it holds from / no longer holds at a session (a number,
  // or an event of the scope: its session, in its place among that session's events)
  const evById = new Map(events.map((e) => [e.id, e]));
  const when = (v: unknown): { session: number; order: number; event?: TimelineEvent } | null => {
    if (typeof v === 'number' && Number.isFinite(v)) return { session: v, order: -1 };
    const name = refName(v);
    if (name && /^\s*\d+\s*$/.test(name)) return { session: Number(name), order: -1 };
    const id = name ? c.names.resolve(name, layers)?.id : undefined;
    const ev = id ? evById.get(id) : undefined;
    return ev && ev.session !== null ? { session: ev.session, order: ev.order, event: ev } : null;
  };
  const later = new Set<string>();
  const timed: RelationshipRecord[] = [];
  for (const r of like ? like.timed : c.relationships) {
    const p = { ...r.inverseProperties, ...r.properties };
    if (p.since === undefined && p.until === undefined) continue;
    if (!base.has(r.from) || !base.has(r.to)) continue;
    timed.push(r);
    for (const [key, kind] of [['since', 'relationship-add'], ['until', 'relationship-remove']] as const) {
      if (p[key] === undefined || p[key] === null) continue;
      const w = when(p[key]);
      if (!w) continue;
      const cons: Consequence = {
        kind, entityName: c.entities.get(r.from)?.name ?? r.from, entity: r.from, relationship: r.type, from: r.from, to: r.to,
        targetName: c.entities.get(r.to)?.name ?? r.to, target: r.to, line: r.line, valid: true,
        text: `${c.entities.get(r.from)?.name ?? r.from} ${r.type} ${c.entities.get(r.to)?.name ?? r.to} ${key} ${w.event ? w.event.name : `session ${w.session}`}`,
      };
      const src = c.entities.get(r.from);
      const prov: Provenance = w.event ? provenanceOf(w.event, cons)
        : { event: src?.id ?? r.from, name: `${key} session ${w.session} (${r.source})`, path: r.source, session: w.session, line: r.line };
      relChanges.push({ order: w.order, session: w.session, cons, prov, base: true });
      if (key === 'since') later.add(edgeKey(r.from, r.type, r.to));
    }
  }
  relChanges.sort((a, b) => a.session - b.session || a.order - b.order);

  let baseEdges: Map<string, RelationshipState>;
  if (like && like.later.size === later.size && [...later].every((k) => like.later.has(k))) baseEdges = like.baseEdges;
  else {
    baseEdges = new Map();
    for (const r of c.relationships) {
      if (!base.has(r.from) || !base.has(r.to)) continue;
      const k = edgeKey(r.from, r.type, r.to);
      if (later.has(k)) continue;
      baseEdges.set(k, { from: r.from, to: r.to, type: r.type, origin: 'base' });
    }
  }
  return { layer, layers, events, ids, base, changes, relChanges, baseEdges, eventNoteSession, sessions: [...sessions].sort((a, b) => a - b), touchedIn, timed, later };
}

export function isDead(c: Compiled, st: EntityState): boolean {
  for (const f of c.statusFields) {
    const v = st.properties[f];
    if (v === undefined || v === null || Array.isArray(v) || typeof v === 'object') continue;
    if (c.deadValues.has(String(v).toLowerCase())) return true;
  }
  return false;
}
