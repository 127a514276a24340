/**
 * The world as one audience may see it at one session of one layer: the source
 * of every export and of the players' view. For `gm`: every note, every event
 * applied. For `players`: GM-only notes, secret properties, secret relationship
 * fields and secret blocks are gone; GM-only events are not applied at all (their
 * consequences never happened as far as players know); an event that reveals a
 * note or a property makes it visible from its session on.
 *
 * Built from plain data (a TimelineInput: config, schema, entities, edges, event
 * notes), so it runs on the files-only model (CLI) as on the app's live model.
 */
import type { EntityRecord, PropertyValue, RelationshipRecord } from '../../shared/types.js';
import { buildTimelineIndex } from '../timeline/timeline-index.js';
import type { TimelineInput } from '../timeline/compile.js';
import type { Lifecycle, TimelineEvent } from '../timeline/types.js';
import { LINK_REL } from '../../shared/types.js';
import { findLinks, parseLink, replaceLinks, targetName } from '../../shared/wikilinks.js';
import { redactBody, visibilityRules, type Audience } from './rules.js';

export interface WorldQuery {
  audience: Audience;
  /** default: the only campaign layer, else the first layer */
  layer?: string;
  /** default: after every event of the layer (null); ignored for a canonical layer without events */
  session?: number | null;
}

/** An entity as the audience sees it at the session: the note's identity fields, its state and redacted text. */
export interface WorldEntity extends Pick<EntityRecord, 'id' | 'name' | 'type' | 'layer' | 'path' | 'placeholder' | 'tags' | 'aliases'> {
  /** the properties as they stand at the session (events applied), secret ones removed for players */
  properties: Record<string, PropertyValue>;
  /** the body, secret blocks removed for players */
  body: string;
  lifecycle: Lifecycle;
  dead: boolean;
}

export interface WorldRelationship {
  from: string;
  to: string;
  type: string;
  /** the frontmatter field that declares it (null: a body link, or added by an event) */
  field: string | null;
  origin: 'base' | 'event';
}

export interface WorldEvent {
  id: string;
  name: string;
  session: number | null;
  date: string | null;
  participants: string[];
  location: string | null;
  /** one line each, only those about entities the audience sees */
  consequences: string[];
}

export interface WorldView {
  audience: Audience;
  layer: string;
  session: number | null;
  project: string;
  entities: WorldEntity[];
  relationships: WorldRelationship[];
  events: WorldEvent[];
}

/** `text -> text` with every link to an entity outside `visible` replaced by its label, or "(secret)" */
function hiddenLinkMask(all: Iterable<EntityRecord>, visible: Set<string>): (text: string) => string {
  const byKey = new Map<string, string>();
  const sorted = [...all].sort((a, b) => Number(a.placeholder) - Number(b.placeholder));
  for (const e of sorted) {
    const keys = [e.name, ...e.aliases, ...(e.path ? [e.path.replace(/\.md$/i, ''), e.path.replace(/^.*\//, '').replace(/\.md$/i, '')] : [])];
    for (const k of keys) if (!byKey.has(k.toLowerCase())) byKey.set(k.toLowerCase(), e.id);
  }
  return (text) => replaceLinks(text, (link, _embed, raw) => {
    if (!link) return raw;
    const id = byKey.get(link.target.toLowerCase()) ?? byKey.get(link.name.toLowerCase());
    return id && !visible.has(id) ? link.label ?? '(secret)' : raw;
  });
}

function maskValue(v: PropertyValue, mask: (t: string) => string): PropertyValue {
  if (typeof v === 'string') return mask(v);
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? mask(x) : x)) as PropertyValue;
  return v;
}

export function defaultLayer(input: Pick<TimelineInput, 'config'>): string {
  const campaigns = input.config.layers.filter((l) => !l.canonical);
  return (campaigns.length === 1 ? campaigns[0]! : input.config.layers[0]!).name;
}

const edgeKey = (from: string, type: string, to: string) => `${from}\u0000${type}\u0000${to}`;

export function worldAt(input: TimelineInput, q: WorldQuery): WorldView {
  const rules = visibilityRules(input.config, input.schema);
  const players = q.audience === 'players';
  const records = new Map<string, EntityRecord>();
  for (const e of input.entities) records.set(e.id, e);
  const gmNote = (id: string) => {
    const r = records.get(id);
    return !!r && !r.placeholder && rules.noteVisibility(r) === 'gm';
  };

  // GM-only events never happened for players: leave them out before the timeline applies anything.
  const events = players ? [...input.events].filter((ev) => !gmNote(ev.id)) : [...input.events];
  const ix = buildTimelineIndex({ ...input, events });
  const layer = q.layer ?? defaultLayer(input);
  const session = q.session ?? null;
  const g = ix.graphAt(layer, session);
  const applied = ix.timeline(layer).filter((e) => e.session !== null && (session === null || e.session <= session));

  const revealedNotes = new Set<string>();
  const revealedProps = new Set<string>();
  for (const ev of applied) {
    for (const c of ev.consequences) {
      if (c.kind !== 'reveal' || !c.valid || !c.entity) continue;
      if (Array.isArray(c.value)) for (const p of c.value) revealedProps.add(`${c.entity}\u0000${String(p)}`);
      else revealedNotes.add(c.entity);
    }
  }

  const noteVisible = (id: string) => !players || !gmNote(id) || revealedNotes.has(id);
  const states = new Map(g.entities.map((s) => [s.id, s]));
  const secretProp = (id: string | null, prop: string) => !!id && rules.isSecretProperty(states.get(id)?.type ?? null, prop) && !revealedProps.has(`${id}\u0000${prop}`);

  // relationships: base edges keep their declaring field (secret fields, and edges declared by notes players
  // cannot see, are GM-only); body links survive only if the redacted body still holds the link
  const byKey = new Map<string, RelationshipRecord[]>();
  for (const r of input.relationships) {
    const k = edgeKey(r.from, r.type, r.to);
    const list = byKey.get(k);
    if (list) list.push(r); else byKey.set(k, [r]);
  }
  const sourceOf = new Map<string, EntityRecord>();
  for (const e of records.values()) if (e.path) sourceOf.set(e.path, e);
  const redacted = new Map<string, string>();
  const bodyFor = (e: EntityRecord) => {
    if (!players) return e.body;
    let b = redacted.get(e.id);
    if (b === undefined) { b = redactBody(e.body); redacted.set(e.id, b); }
    return b;
  };
  const linkSurvives = (r: RelationshipRecord): boolean => {
    const src = sourceOf.get(r.source);
    const target = records.get(r.to);
    if (!src || !target) return false;
    const names = new Set([target.name, ...target.aliases, ...(target.path ? [target.path.replace(/\.md$/i, ''), targetName(target.path)] : [])].map((n) => n.toLowerCase()));
    return findLinks(bodyFor(src)).some((m) => {
      const l = parseLink(m.inner);
      return l !== null && (names.has(l.name.toLowerCase()) || names.has(l.target.replace(/\.md$/i, '').toLowerCase()));
    });
  };
  const declaredVisibly = (r: RelationshipRecord): boolean => {
    const src = sourceOf.get(r.source);
    if (!src || !noteVisible(src.id)) return false;
    if (rules.isSecretField(src.type, r.field)) return false;
    if (r.type === LINK_REL && r.field === null) return linkSurvives(r);
    return true;
  };

  const relationships: WorldRelationship[] = [];
  const referenced = new Set<string>();
  for (const rel of g.relationships) {
    let field: string | null = null;
    if (rel.origin === 'base') {
      const recs = byKey.get(edgeKey(rel.from, rel.type, rel.to)) ?? [];
      const ok = players ? recs.filter(declaredVisibly) : recs;
      if (recs.length && !ok.length) continue;
      field = ok[0]?.field ?? null;
    }
    relationships.push({ from: rel.from, to: rel.to, type: rel.type, field, origin: rel.origin });
    referenced.add(rel.from); referenced.add(rel.to);
  }

  const entities: WorldEntity[] = [];
  const visible = new Set<string>();
  for (const st of g.entities) {
    if (st.lifecycle === 'not-yet-created') continue;
    const rec = records.get(st.id);
    if (players) {
      if (rec?.placeholder) {
        // a placeholder's name comes from the references to it: only those players can see make it known
        // (an entity created by an event without a note comes from an event players see: GM events are left out)
        if (!referenced.has(st.id)) continue;
      } else if (!noteVisible(st.id)) continue;
    }
    const properties: Record<string, PropertyValue> = {};
    for (const [k, v] of Object.entries(st.properties)) {
      if (players && (k === rules.field || secretProp(st.id, k))) continue;
      properties[k] = v;
    }
    entities.push({
      id: st.id, name: st.name, type: st.type, layer: st.layer, path: rec?.path ?? null, placeholder: st.placeholder || st.virtual,
      tags: rec?.tags ?? [], aliases: rec?.aliases ?? [], properties, body: rec ? bodyFor(rec) : '',
      lifecycle: st.lifecycle, dead: st.dead,
    });
    visible.add(st.id);
  }
  entities.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  if (players) {
    // a link to a note players cannot see keeps only the text the GM chose for it (its |label), else reads "(secret)";
    // an event's own `consequences` list is replaced by the filtered event rows below
    const mask = hiddenLinkMask(records.values(), visible);
    const evType = input.schema.events?.type ?? 'event';
    for (const e of entities) {
      e.body = mask(e.body);
      if (e.type === evType) delete e.properties.consequences;
      for (const [k, v] of Object.entries(e.properties)) e.properties[k] = maskValue(v, mask);
    }
  }
  const rels = relationships.filter((r) => visible.has(r.from) && visible.has(r.to));

  const nameOf = (id: string | null) => (id && visible.has(id) ? states.get(id)?.name ?? null : null);
  const eventRows: WorldEvent[] = applied.filter((e) => visible.has(e.id) || !records.has(e.id)).map((e: TimelineEvent) => ({
    id: e.id, name: e.name, session: e.session, date: e.date ? e.date.display ?? e.date.label : null,
    participants: e.participants.map((p) => nameOf(p.id)).filter((n): n is string => n !== null),
    location: nameOf(e.location?.id ?? null),
    consequences: e.consequences
      .filter((c) => c.valid && (!c.entity || visible.has(c.entity)) && (!c.target || visible.has(c.target)))
      .filter((c) => !players || !c.property || c.kind === 'reveal' || !secretProp(c.entity, c.property))
      .map((c) => c.text),
  }));

  return { audience: q.audience, layer, session, project: input.config.project, entities, relationships: rels, events: eventRows };
}
