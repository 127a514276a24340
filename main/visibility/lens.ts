/**
 * The lens: what one audience may see of the world at (layer, session), as
 * questions answered on demand — the one redaction behind the exports
 * (worldAt, world.ts), the app's players' view and the players' MCP (both
 * through main/core/audience.ts). Built from a TimelineIndex that already
 * leaves out what the audience never learns (GM-only events: `audienceEvents`),
 * so building a lens is linear in the entities and edges and touches no body:
 * bodies and properties are redacted when asked for, once each.
 */
import type { EntityRecord, PropertyValue, RelationshipRecord } from '../../shared/types.js';
import { LINK_REL } from '../../shared/types.js';
import type { Schema, VaultConfig } from '../config/types.js';
import { findLinks, parseLink, replaceLinks } from '../../shared/wikilinks.js';
import type { TimelineIndex } from '../timeline/timeline-index.js';
import { entityPositions } from '../timeline/state.js';
import type { EntityState, GraphState, RelationshipState, TimelineEvent } from '../timeline/types.js';
import { redactBody, visibilityRules, type Audience, type VisibilityRules } from './rules.js';

/** What a lens reads: the notes as written (the model, or the CLI's files-only model). */
export interface LensSource {
  config: VaultConfig;
  schema: Schema;
  entity(id: string): EntityRecord | undefined;
  entities(): Iterable<EntityRecord>;
  relationships(): Iterable<RelationshipRecord>;
}

export interface LensQuery {
  audience: Audience;
  layer: string;
  /** null: after every event of the layer */
  session: number | null;
}

/** A relationship that holds at the session and that the audience may see. */
export interface LensRelationship {
  from: string;
  to: string;
  type: string;
  /** the frontmatter field that declares it (null: a body link, or added by an event) */
  field: string | null;
  origin: 'base' | 'event';
}

export interface Lens extends LensQuery {
  readonly rules: VisibilityRules;
  /** the audience's graph at the session (GM-only events never applied for players) */
  readonly graph: GraphState;
  /** ids the audience sees at the session (not-yet-created ones are not there yet) */
  readonly visible: ReadonlySet<string>;
  /** the relationships that hold at the session between visible entities, declared where the audience can read */
  readonly relationships: LensRelationship[];
  /** the graph's relationships behind `relationships`, one for one and in the same order */
  readonly held: RelationshipState[];
  /** events applied up to the session whose note the audience sees (or that have no note) */
  readonly applied: TimelineEvent[];
  state(id: string): EntityState | undefined;
  /** a relationship as written in a note (a model edge): may the audience see it (both ends visible too)? */
  edgeVisible(r: RelationshipRecord): boolean;
  /** is this property of this entity GM-only at the session (secret and not revealed, or the visibility field)? */
  hidesProperty(id: string, property: string): boolean;
  /** the properties as the audience may read them: hidden ones removed, links to hidden notes masked */
  properties(id: string, props: Record<string, PropertyValue>): Record<string, PropertyValue>;
  /** the body as the audience may read it: secret blocks removed, links to hidden notes masked (cached) */
  body(rec: EntityRecord): string;
  /** `text -> text` with links to entities the audience cannot see replaced by their label, or "(secret)" */
  mask(text: string): string;
  /** the event as the audience may read it: participants, location and consequences about hidden entities or properties left out */
  event(e: TimelineEvent): TimelineEvent;
}

/**
 * The event notes the audience never learns of: for players, every GM-only event note
 * (its consequences never happened as far as they know). Empty for the GM.
 */
export function hiddenEvents(src: Pick<LensSource, 'config' | 'schema' | 'entity'>, audience: Audience, eventIds: Iterable<string>): Set<string> {
  const out = new Set<string>();
  if (audience !== 'players') return out;
  const rules = visibilityRules(src.config, src.schema);
  for (const id of eventIds) {
    const r = src.entity(id);
    if (r && !r.placeholder && rules.noteVisibility(r) === 'gm') out.add(id);
  }
  return out;
}

/** lensAt's marks of an entity at the session (see there) */
const SEEN = 1, HIDDEN = 2, PLACEHOLDER = 4;

/** above this many records from one entity, lensBase finds a relationship's records by its `to` (see `candidates`) */
const GROUP_FROM = 16;

/**
 * `fn` on each item, by index: a first switch runs these loops in the interpreter, where a for-of makes an object
 * per step (~1 MB per loop over the 10k vault's 34k relationships). Not an array (a Map's values): spread into one
 * first (the spread of a Map's iterator is one builtin, no object per step).
 */
export function eachOf<T>(xs: Iterable<T>, fn: (x: T) => void): void {
  const list: readonly T[] = Array.isArray(xs) ? xs : [...xs];
  for (let i = 0; i < list.length; i++) fn(list[i]!);
}

const isBodyLink = (r: RelationshipRecord) => r.type === LINK_REL && r.field === null;
const fileKeys = (path: string | null) => (path ? [path.replace(/\.md$/i, ''), path.replace(/^.*\//, '').replace(/\.md$/i, '')] : []);

function maskValue(v: PropertyValue, mask: (t: string) => string): PropertyValue {
  if (typeof v === 'string') return mask(v);
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? mask(x) : x)) as PropertyValue;
  return v;
}

/**
 * The lens of `q.audience` at (layer, session) over `index`, which must be the audience's own
 * timeline (built without `hiddenEvents`).
 */
/**
 * What every lens of one model version shares, whatever its session: which notes are GM-only, the edges by
 * key and by declaring note, the bodies as players read them, and which edges survive the body redaction.
 * Build it once per model version (the core caches it) and hand it to every lensAt.
 */
export interface LensBase {
  readonly rules: VisibilityRules;
  gmNote(id: string): boolean;
  /** the notes' records by their `from`, in the notes' order */
  edgesFrom: Map<string, RelationshipRecord[]>;
  bySource: Map<string, EntityRecord>;
  /** the body with its secret blocks removed (for players; the redacted text is cached when it differs) */
  redacted(e: EntityRecord): string;
  /** a body link whose [[link]] is still in the redacted body (the links left are found once per note) */
  linkSurvives(r: RelationshipRecord): boolean;
  /** the notes' records of a relationship that holds (cached per state object: base edges are shared by every session) */
  recordsOf(rel: { from: string; type: string; to: string }): RelationshipRecord[];
  /**
   * Whether players may see a record's declaration, as far as it does not depend on the session: null never
   * (no declaring note, a secret field, a body link the redaction removed), '' always, else the id of the
   * GM-only note that declares it (seen once an event reveals that note, a body link only if it survives the
   * redaction of that note's body). What it reads of the declaring note is cached per note.
   */
  declaredBy(r: RelationshipRecord): string | null;
  /** ids of the placeholders (entities only referenced) */
  placeholders(): ReadonlySet<string>;
  /**
   * A relationship that holds, as players see it when no note is revealed at the session (null: no declaration
   * they may read), and whether a revealed note could change that. Cached per state object: every lens of the
   * model version shares the answer and the object.
   */
  playersRelationship(rel: RelationshipState): { plain: LensRelationship | null; reveals: boolean };
  /** lowercased name, alias or file key -> entity id (real notes before placeholders), for masking links */
  linkIds(): Map<string, string>;
}

/**
 * Bodies as players read them, kept across model versions by note id and content hash: `redacted` is null
 * when redaction removes nothing (the body is then not held here: the model's is the one). A body may be
 * read from its file when asked (main/sync/body.ts), so each note's is read once per content, not per lens.
 */
export type BodyCache = Map<string, { hash: string; redacted: string | null }>;

export function lensBase(src: LensSource, bodyCache: BodyCache = new Map()): LensBase {
  const rules = visibilityRules(src.config, src.schema);
  // the GM-only notes, found in one pass over the notes when first asked: a lens asks of every entity of its graph
  // (a Map of every id's answer, each found by its own lookup of the record, took ~2x as long on a first switch)
  let gms: Set<string> | null = null;
  const gmNote = (id: string) => {
    if (!gms) {
      gms = new Set();
      for (const r of src.entities()) if (!r.placeholder && rules.noteVisibility(r) === 'gm') gms.add(r.id);
    }
    return gms.has(id);
  };
  // by declaring end (no string key per edge): a relationship's records are those of its `from` of its type and `to`
  const edgesFrom = new Map<string, RelationshipRecord[]>();
  eachOf(src.relationships(), (r) => {
    const list = edgesFrom.get(r.from);
    if (list) list.push(r); else edgesFrom.set(r.from, [r]);
  });
  const bySource = new Map<string, EntityRecord>();
  for (const e of src.entities()) if (e.path) bySource.set(e.path, e);
  /** the redacted body when redaction removed something, else null */
  const secretsOf = (e: EntityRecord): string | null => {
    if (e.hash === null) return null; // a placeholder: no body
    let c = bodyCache.get(e.id);
    if (c?.hash !== e.hash) {
      const raw = e.body;
      const r = redactBody(raw);
      c = { hash: e.hash, redacted: r === raw ? null : r };
      bodyCache.set(e.id, c);
    }
    return c.redacted;
  };
  const redacted = (e: EntityRecord) => secretsOf(e) ?? e.body;
  // per note whose redaction removed something: every name and target (lowercased, without .md) of the links
  // left in its redacted body, found once (a note's body links each asked the whole body again: on the
  // real-shaped 7k vault, notes of a few thousand links made that ~20 s)
  const linksLeft = new Map<string, Set<string>>();
  const leftIn = (from: EntityRecord, body: string): Set<string> => {
    let v = linksLeft.get(from.id);
    if (!v) {
      v = new Set();
      for (const m of findLinks(body)) {
        const l = parseLink(m.inner);
        if (l === null) continue;
        v.add(l.name.toLowerCase());
        v.add(l.target.replace(/\.md$/i, '').toLowerCase());
      }
      linksLeft.set(from.id, v);
    }
    return v;
  };
  // a target's name, aliases and file keys, lowercased, per target (a note of thousands of body links asks of
  // each of its targets, and many notes link the same targets)
  const targetNames = new Map<string, string[]>();
  const namesOf = (target: EntityRecord): string[] => {
    let v = targetNames.get(target.id);
    if (!v) {
      v = [target.name.toLowerCase()];
      for (const a of target.aliases) v.push(a.toLowerCase());
      for (const k of fileKeys(target.path)) v.push(k.toLowerCase());
      targetNames.set(target.id, v);
    }
    return v;
  };
  // (not cached per record: with the links left per note it is a few lookups, where a Map of records took one
  // insert per body link of every note with a secret block)
  const linkSurvives = (r: RelationshipRecord): boolean => {
    const from = bySource.get(r.source);
    const target = src.entity(r.to);
    if (!from || !target) return false;
    const body = secretsOf(from);
    if (body === null) return true; // nothing was removed: the link is still there
    // a link left in the body names the target (its name, an alias or its file)
    const left = leftIn(from, body);
    for (const k of namesOf(target)) if (left.has(k)) return true;
    return false;
  };
  // a `from` with many records (a note of thousands of body links on the real-shaped 7k vault): its records grouped
  // by `to`, in the notes' order, built when first asked, so that deciding each of its relationships does not scan
  // all of them (quadratic in a note's links)
  const byTo = new Map<string, Map<string, RelationshipRecord[]>>();
  /** the records from `from` that may go to `to` (all of `from`'s when few, else those to `to`), in the notes' order */
  const candidates = (from: string, to: string): RelationshipRecord[] | undefined => {
    const list = edgesFrom.get(from);
    if (!list || list.length <= GROUP_FROM) return list;
    let g = byTo.get(from);
    if (!g) {
      g = new Map();
      for (const r of list) { const l = g.get(r.to); if (l) l.push(r); else g.set(r.to, [r]); }
      byTo.set(from, g);
    }
    return g.get(to);
  };
  const recsOf = new WeakMap<object, RelationshipRecord[]>();
  const recordsOf = (rel: { from: string; type: string; to: string }) => {
    let v = recsOf.get(rel);
    if (!v) { v = (candidates(rel.from, rel.to) ?? []).filter((r) => r.type === rel.type && r.to === rel.to); recsOf.set(rel, v); }
    return v;
  };
  // what a record's declaration depends on of its declaring note, per note (by path: a string key, where a
  // cache per record would key 34k objects): the note, GM-only or not, its body redacted or not
  // (`redacted` is read when a body link first asks: a field's declaration needs no body, and a body may be read
  // from its file)
  const notes = new Map<string, { rec: EntityRecord; gm: boolean; redacted: boolean | undefined } | null>();
  const declaringNote = (path: string) => {
    let n = notes.get(path);
    if (n === undefined) {
      const rec = bySource.get(path);
      n = rec ? { rec, gm: gmNote(rec.id), redacted: undefined } : null;
      notes.set(path, n);
    }
    return n;
  };
  const declaredBy = (r: RelationshipRecord): string | null => {
    const from = declaringNote(r.source);
    if (!from || rules.isSecretField(from.rec.type, r.field)) return null;
    // a GM-only note's body is redacted only once it is revealed (isBodyLink: lensAt checks the link then)
    if (from.gm) return from.rec.id;
    if (!isBodyLink(r)) return '';
    // nothing removed from the body: every link in it is still there (linkSurvives: if its target is a note)
    if (!(from.redacted ??= secretsOf(from.rec) !== null)) return src.entity(r.to) ? '' : null;
    return linkSurvives(r) ? '' : null;
  };
  let phs: Set<string> | null = null;
  const placeholders = () => {
    if (!phs) { phs = new Set(); for (const e of src.entities()) if (e.placeholder) phs.add(e.id); }
    return phs;
  };
  // a Map, not a WeakMap: the base lives as long as the model version whose states it is asked about, and ~34k
  // weak entries cost the collector far more than strong ones
  const seen = new Map<RelationshipState, { plain: LensRelationship | null; reveals: boolean }>();
  const playersRelationship = (rel: RelationshipState) => {
    let v = seen.get(rel);
    if (v) return v;
    let field: string | null = null;
    let reveals = false;
    let plain: LensRelationship | null;
    if (rel.origin === 'base') {
      // recordsOf(rel) in order, without making the list: the first declaration players may read wins
      let any = false;
      let first: RelationshipRecord | undefined;
      const from = candidates(rel.from, rel.to);
      if (from) {
        for (const r of from) {
          if (r.type !== rel.type || r.to !== rel.to) continue;
          any = true;
          const by = declaredBy(r);
          if (by === '') { first = r; break; }
          if (by !== null) reveals = true; // a GM-only note's declaration: read once revealed, and it comes first
        }
      }
      field = first?.field ?? null;
      plain = any && !first ? null : { from: rel.from, to: rel.to, type: rel.type, field, origin: rel.origin };
    } else plain = { from: rel.from, to: rel.to, type: rel.type, field, origin: rel.origin };
    v = { plain, reveals };
    seen.set(rel, v);
    return v;
  };
  let links: Map<string, string> | null = null;
  const linkIds = (): Map<string, string> => {
    if (links) return links;
    links = new Map();
    const all = [...src.entities()].sort((a, b) => Number(a.placeholder) - Number(b.placeholder));
    for (const e of all) for (const k of [e.name, ...e.aliases, ...fileKeys(e.path)]) if (!links.has(k.toLowerCase())) links.set(k.toLowerCase(), e.id);
    return links;
  };
  return { rules, gmNote, edgesFrom, bySource, redacted, linkSurvives, recordsOf, declaredBy, playersRelationship, linkIds, placeholders };
}

export function lensAt(src: LensSource, index: TimelineIndex, q: LensQuery, shared?: LensBase): Lens {
  const base = shared ?? lensBase(src);
  const rules = base.rules;
  const players = q.audience === 'players';
  const gmNote = base.gmNote;
  const g = index.graphAt(q.layer, q.session);
  const applied = index.timeline(q.layer).filter((e) => e.session !== null && (q.session === null || e.session <= q.session));

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
  // per entity of the graph, in one pass, by its position in g.entities (the scope's Map of positions, shared by
  // every session's graph and with the GM's index: no Map per lens): whether it is surely not visible at the session
  // (HIDDEN: not yet created, or a note the audience cannot see) or a placeholder (PLACEHOLDER: known only through a
  // relationship that holds); an id without a state is surely hidden too. One read per end of a relationship below,
  // where separate sets took several (and a call each) on every one of the 34k (10k) to 183k (real-shaped 7k)
  // relationships of a first switch
  const ents = g.entities;
  let positions = entityPositions(g);
  if (!positions) { const m = new Map<string, number>(); for (let i = 0; i < ents.length; i++) m.set(ents[i]!.id, i); positions = m; }
  const pos = positions;
  const marks = new Uint8Array(ents.length);
  const placeholders = players ? base.placeholders() : null;
  for (let i = 0; i < ents.length; i++) {
    const st = ents[i]!;
    marks[i] = st.lifecycle === 'not-yet-created' || (players && !placeholders!.has(st.id) && !noteVisible(st.id)) ? HIDDEN : SEEN;
  }
  // placeholders without a state here (another layer's): hidden, yet they exempt a relationship from the skip
  const elsewhere = new Map<string, number>();
  if (placeholders?.size) {
    for (const id of placeholders) {
      const i = pos.get(id);
      if (i === undefined) elsewhere.set(id, HIDDEN | PLACEHOLDER); else marks[i]! |= PLACEHOLDER;
    }
  }
  const stateOf = (id: string): EntityState | undefined => {
    const i = pos.get(id);
    return i === undefined ? undefined : ents[i];
  };
  const hidesProperty = (id: string, prop: string) => players
    && (prop === rules.field || (rules.isSecretProperty(stateOf(id)?.type ?? src.entity(id)?.type ?? null, prop) && !revealedProps.has(`${id}\u0000${prop}`)));

  const redactedBody = (e: EntityRecord) => (players ? base.redacted(e) : e.body);
  const declaredVisibly = (r: RelationshipRecord): boolean => {
    if (!players) return true;
    const by = base.declaredBy(r);
    return by === '' || (by !== null && revealedNotes.has(by) && (!isBodyLink(r) || base.linkSurvives(r)));
  };

  // the relationships that hold at the session: base ones keep their declaring field (secret fields, and edges
  // declared by notes the audience cannot see, are left out). For players the answer is the base's, shared by
  // every session, unless a note revealed by then declares the edge
  const holding: LensRelationship[] = [];
  const holdingStates: RelationshipState[] = [];
  const referenced = new Set<string>();
  const revealing = revealedNotes.size > 0;
  const rels = g.relationships;
  for (let ri = 0; ri < rels.length; ri++) {
    const rel = rels[ri]!;
    // an end surely not visible at the session: the relationship is never one of `relationships`, so it is not
    // decided at all, unless an end is a placeholder (a relationship that holds makes a placeholder known,
    // whatever its other end)
    // each end's mark (a position in marks, else a placeholder elsewhere or hidden), written out: no call per end
    const fi = pos.get(rel.from), ti = pos.get(rel.to);
    const ends = (fi === undefined ? elsewhere.get(rel.from) ?? HIDDEN : marks[fi]!) | (ti === undefined ? elsewhere.get(rel.to) ?? HIDDEN : marks[ti]!);
    if ((ends & (HIDDEN | PLACEHOLDER)) === HIDDEN) continue;
    let out: LensRelationship | null;
    const known = players ? base.playersRelationship(rel) : null;
    if (known && (!known.reveals || !revealing)) out = known.plain;
    else {
      let field: string | null = null;
      if (rel.origin === 'base') {
        const recs = base.recordsOf(rel);
        let first: RelationshipRecord | undefined;
        for (const r of recs) if (declaredVisibly(r)) { first = r; break; }
        if (recs.length && !first) continue;
        field = first?.field ?? null;
      }
      out = { from: rel.from, to: rel.to, type: rel.type, field, origin: rel.origin };
    }
    if (!out) continue;
    holding.push(out);
    holdingStates.push(rel);
    if (ends & PLACEHOLDER) {
      if (placeholders!.has(rel.from)) referenced.add(rel.from);
      if (placeholders!.has(rel.to)) referenced.add(rel.to);
    }
  }

  const visible = new Set<string>();
  for (let i = 0; i < ents.length; i++) {
    const st = ents[i]!, m = marks[i]!;
    // a placeholder's name comes from the references to it: only those the audience sees make it known
    // (an entity created by an event without a note comes from an event players see: GM events are left out)
    if (m & PLACEHOLDER ? st.lifecycle !== 'not-yet-created' && referenced.has(st.id) : m === SEEN) visible.add(st.id);
  }
  const relationships: LensRelationship[] = [];
  const held: RelationshipState[] = [];
  for (let i = 0; i < holding.length; i++) {
    const r = holding[i]!;
    if (!visible.has(r.from) || !visible.has(r.to)) continue;
    relationships.push(r);
    held.push(holdingStates[i]!);
  }

  // a link to a note the audience cannot see keeps only the text the GM chose for it (its |label), else "(secret)"
  const mask = (text: string): string => {
    if (!players || text.indexOf('[[') < 0) return text;
    const ids = base.linkIds();
    return replaceLinks(text, (link, _embed, raw) => {
      if (!link) return raw;
      const id = ids.get(link.target.toLowerCase()) ?? ids.get(link.name.toLowerCase());
      return id && !visible.has(id) ? link.label ?? '(secret)' : raw;
    });
  };
  const bodies = new Map<string, string>();
  const evType = src.schema.events?.type ?? 'event';

  return {
    audience: q.audience, layer: q.layer, session: q.session, rules, graph: g, visible, relationships, held, applied: applied.filter((e) => visible.has(e.id) || !src.entity(e.id)),
    state: stateOf,
    edgeVisible: (r) => visible.has(r.from) && visible.has(r.to) && declaredVisibly(r),
    hidesProperty,
    properties(id, props) {
      if (!players) return props;
      const out: Record<string, PropertyValue> = {};
      const isEvent = (stateOf(id)?.type ?? src.entity(id)?.type) === evType;
      for (const [k, v] of Object.entries(props)) {
        // an event's own `consequences` list is told by its filtered rows (event()), never as written
        if (hidesProperty(id, k) || (isEvent && k === 'consequences')) continue;
        out[k] = maskValue(v, mask);
      }
      return out;
    },
    body(rec) {
      if (!players) return rec.body;
      let b = bodies.get(rec.id);
      if (b === undefined) { b = mask(redactedBody(rec)); bodies.set(rec.id, b); }
      return b;
    },
    mask,
    event(e) {
      if (!players) return e;
      const ref = (r: { name: string; id: string | null }) => (r.id && visible.has(r.id) ? r : null);
      return {
        ...e,
        participants: e.participants.filter((p) => ref(p)),
        location: e.location && ref(e.location) ? e.location : null,
        consequences: e.consequences
          .filter((c) => c.valid && (!c.entity || visible.has(c.entity)) && (!c.target || visible.has(c.target)))
          .filter((c) => !c.property || c.kind === 'reveal' || !hidesProperty(c.entity ?? '', c.property))
          .map((c) => ({ ...c, text: mask(c.text), ...(c.value !== undefined ? { value: maskValue(c.value, mask) } : {}) })),
      };
    },
  };
}
