/**
 * State of the world at (layer, session) computed from a compiled scope:
 * entity states with provenance, the graph, diffs. A session of null means
 * "after every event"; session N includes every event of session <= N.
 */
import { refTarget } from '../../shared/wikilinks.js';
import type { PropertyValue } from '../../shared/types.js';
import { edgeKey, isDead, type Compiled, type LayerScope } from './compile.js';
import type { EntityState, GraphState, Provenance, RelationshipState, TimelineDiff, TimelineFrame, PropertyChange } from './types.js';

const within = (s: number, session: number | null) => session === null || s <= session;

function sameItem(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (typeof v === 'string' ? refTarget(v).toLowerCase() : JSON.stringify(v));
  return norm(a) === norm(b);
}

/** Entity state at a session: the base with every change up to it applied. Returns the shared base object when nothing changed. */
export function entityStateAt(c: Compiled, sc: LayerScope, id: string, session: number | null): EntityState | undefined {
  const base = sc.base.get(id);
  if (!base) return undefined;
  const list = sc.changes.get(id);
  const own = sc.eventNoteSession.get(id);
  const appears = own !== undefined && within(own, session);
  if ((!list || list.length === 0 || !within(list[0]!.session, session)) && !appears) return base;
  const st: EntityState = { ...base, properties: { ...base.properties }, provenance: {} };
  if (appears) { st.lifecycle = 'exists'; st.exists = true; }
  let statusProv: Provenance | undefined;
  for (const ch of list ?? []) {
    if (!within(ch.session, session)) break;
    const { cons, prov } = ch;
    const p = cons.property;
    switch (cons.kind) {
      case 'set': st.properties[p!] = cons.value as PropertyValue; st.provenance[p!] = prov; break;
      case 'unset': delete st.properties[p!]; st.provenance[p!] = prov; break;
      case 'add': {
        const cur = st.properties[p!];
        const arr: unknown[] = Array.isArray(cur) ? [...cur] : cur === undefined || cur === null ? [] : [cur];
        if (!arr.some((x) => sameItem(x, cons.value))) arr.push(cons.value);
        st.properties[p!] = arr as PropertyValue; st.provenance[p!] = prov; break;
      }
      case 'remove': {
        const cur = st.properties[p!];
        if (Array.isArray(cur)) st.properties[p!] = cur.filter((x) => !sameItem(x, cons.value)) as PropertyValue;
        else if (cur !== undefined && sameItem(cur, cons.value)) delete st.properties[p!];
        st.provenance[p!] = prov; break;
      }
      case 'created': st.lifecycle = 'exists'; st.exists = true; st.created = prov; break;
      case 'destroyed': st.lifecycle = 'destroyed'; st.exists = false; st.destroyed = prov; break;
      default: break;
    }
    if (p && c.statusFields.includes(p)) statusProv = prov;
  }
  st.dead = isDead(c, st);
  if (st.dead && statusProv) st.died = statusProv;
  return st;
}

export interface EdgeSets {
  edges: Map<string, RelationshipState>;
  removed: Map<string, RelationshipState & { removedBy: Provenance }>;
}

/** Base edges + relationship changes up to the session (symmetric types match either direction on remove). */
export function edgesAt(c: Compiled, sc: LayerScope, session: number | null, prev?: { session: number; sets: EdgeSets }): EdgeSets {
  const edges = new Map(prev ? prev.sets.edges : sc.baseEdges);
  const removed = new Map(prev ? prev.sets.removed : undefined);
  for (const ch of sc.relChanges) {
    if (!within(ch.session, session)) break;
    if (prev && ch.session <= prev.session) continue;
    const { from, to, relationship } = ch.cons;
    if (!from || !to || !relationship) continue;
    const keys = [edgeKey(from, relationship, to)];
    if (c.symmetric.has(relationship)) keys.push(edgeKey(to, relationship, from));
    if (ch.cons.kind === 'relationship-add') {
      if (keys.some((k) => edges.get(k)?.origin === 'base')) continue;
      for (const k of keys) removed.delete(k);
      edges.set(keys[0]!, { from, to, type: relationship, origin: ch.base ? 'base' : 'event', provenance: ch.prov });
    } else {
      for (const k of keys) {
        const e = edges.get(k);
        if (!e) continue;
        edges.delete(k);
        if (e.origin === 'base' || ch.base) removed.set(k, { ...e, removedBy: ch.prov });
      }
    }
  }
  return { edges, removed };
}

/**
 * What graphAt steps on, per scope (built once): the base edges as arrays (a session's edges are the base's
 * with a small delta applied, never a copy of the whole map), entity ids by index, the base states in id order.
 */
interface Prepared {
  keys: string[];
  edges: RelationshipState[];
  pos: Map<string, number>;
  index: Map<string, number>;
  baseStates: EntityState[];
  /** ids not yet created in the base: the only ones that can be not yet created at a session */
  unborn: string[];
  /** per base edge: an end is in `unborn` */
  touchesUnborn: Uint8Array;
}
const prepared = new WeakMap<LayerScope, Prepared>();
/** the base edges' arrays, per base edge map (scopes that share their base edges share these: buildScope's `like`) */
const preparedEdges = new WeakMap<Map<string, RelationshipState>, Pick<Prepared, 'keys' | 'edges' | 'pos'>>();
/** ids by index, per id list (shared the same way) */
const preparedIndex = new WeakMap<string[], Map<string, number>>();
function prepare(sc: LayerScope): Prepared {
  let p = prepared.get(sc);
  if (p) return p;
  let pe = preparedEdges.get(sc.baseEdges);
  if (!pe) {
    const keys = [...sc.baseEdges.keys()], edges = [...sc.baseEdges.values()];
    const pos = new Map<string, number>();
    keys.forEach((k, i) => pos.set(k, i));
    pe = { keys, edges, pos };
    preparedEdges.set(sc.baseEdges, pe);
  }
  const { keys, edges, pos } = pe;
  let index = preparedIndex.get(sc.ids);
  if (!index) {
    index = new Map<string, number>();
    for (let i = 0; i < sc.ids.length; i++) index.set(sc.ids[i]!, i);
    preparedIndex.set(sc.ids, index);
  }
  const baseStates = sc.ids.map((id) => sc.base.get(id)!);
  const unborn = baseStates.filter((s) => s.lifecycle === 'not-yet-created').map((s) => s.id);
  const un = new Set(unborn);
  const touchesUnborn = new Uint8Array(edges.length);
  if (un.size) edges.forEach((e, i) => { if (un.has(e.from) || un.has(e.to)) touchesUnborn[i] = 1; });
  p = { keys, edges, pos, index, baseStates, unborn, touchesUnborn };
  prepared.set(sc, p);
  return p;
}

/**
 * The edges at a session as a delta over the base edges, with the iteration order of the Map that edgesAt
 * builds: base edges never deleted keep their place (`replaced` when set in place), every edge inserted
 * afterwards follows in `tail`, in insertion order. Copying one is copying what changed, not the 34k edges.
 */
export interface EdgeDelta {
  /** per base edge: deleted from its base place (it may be back in `tail`) */
  gone: Uint8Array;
  replaced: Map<number, RelationshipState>;
  tail: Map<string, RelationshipState>;
  removed: Map<string, RelationshipState & { removedBy: Provenance }>;
}

function applyRelChanges(c: Compiled, sc: LayerScope, p: Prepared, d: EdgeDelta, after: number | null, session: number | null): void {
  const get = (k: string): RelationshipState | undefined => {
    const t = d.tail.get(k);
    if (t) return t;
    const i = p.pos.get(k);
    return i === undefined || d.gone[i] ? undefined : d.replaced.get(i) ?? p.edges[i];
  };
  const del = (k: string): void => {
    if (d.tail.delete(k)) return;
    const i = p.pos.get(k);
    if (i !== undefined && !d.gone[i]) { d.gone[i] = 1; d.replaced.delete(i); }
  };
  const set = (k: string, v: RelationshipState): void => {
    if (d.tail.has(k)) { d.tail.set(k, v); return; }
    const i = p.pos.get(k);
    if (i !== undefined && !d.gone[i]) d.replaced.set(i, v);
    else d.tail.set(k, v);
  };
  // the same steps as edgesAt, on the delta
  for (const ch of sc.relChanges) {
    if (!within(ch.session, session)) break;
    if (after !== null && ch.session <= after) continue;
    const { from, to, relationship } = ch.cons;
    if (!from || !to || !relationship) continue;
    const keys = [edgeKey(from, relationship, to)];
    if (c.symmetric.has(relationship)) keys.push(edgeKey(to, relationship, from));
    if (ch.cons.kind === 'relationship-add') {
      if (keys.some((k) => get(k)?.origin === 'base')) continue;
      for (const k of keys) d.removed.delete(k);
      set(keys[0]!, { from, to, type: relationship, origin: ch.base ? 'base' : 'event', provenance: ch.prov });
    } else {
      for (const k of keys) {
        const e = get(k);
        if (!e) continue;
        del(k);
        if (e.origin === 'base' || ch.base) d.removed.set(k, { ...e, removedBy: ch.prov });
      }
    }
  }
}

/** Everything needed to step on from a session without replaying from the base. */
export interface Snapshot {
  session: number;
  /** entity states in the scope's id order */
  states: EntityState[];
  edges: EdgeDelta;
}

/** what frameOf reads of a graph graphAt made: its edge delta and the entities not yet created */
const views = new WeakMap<GraphState, { edges: EdgeDelta; unborn: Set<string>; index: ReadonlyMap<string, number> }>();

/**
 * Where each entity is in `g.entities` (id -> position), for a graph graphAt made: one Map per id list, shared by
 * every session's graph of the scope (and by the scopes built `like` another: the players' index shares the GM's).
 * Undefined for a graph made elsewhere.
 */
export function entityPositions(g: GraphState): ReadonlyMap<string, number> | undefined {
  return views.get(g)?.index;
}

/**
 * graphAt's source for a scope built `like` another (TimelineIndex.without): that scope, its graph at the same
 * session, and every entity an event left out touches (its note, the entities and targets of its consequences).
 */
export interface LikeGraph {
  scope: LayerScope;
  graph: GraphState;
  touched: ReadonlySet<string>;
}

/**
 * The graph at a session. With `prev` (a snapshot at an earlier session) only the
 * entities touched by the sessions in between are recomputed and only the
 * relationship changes in between applied: a scrubber moving forward step by
 * step does work proportional to what changed (plus one pass over the edges). With `like` (and no `prev`), the
 * entity states the scope shares with another's graph at the same session are taken from it.
 */
export function graphAt(c: Compiled, sc: LayerScope, session: number | null, prev?: Snapshot, like?: LikeGraph): { graph: GraphState; snapshot: Snapshot | null } {
  const p = prepare(sc);
  const usable = prev && session !== null && prev.session <= session ? prev : undefined;
  let states: EntityState[];
  if (!usable && like && like.scope.ids === sc.ids && like.graph.session === session && like.graph.entities.length === sc.ids.length) {
    // the same session of the index this one was derived from (the GM's, asked a moment before): an entity whose
    // base state is the very same object and that no left-out event touches has the same change list up to the
    // session, so its state there is that graph's (the same object); only the others are computed
    const theirs = like.graph.entities, mine = p.baseStates, their = prepare(like.scope).baseStates;
    states = new Array<EntityState>(mine.length);
    for (let i = 0; i < mine.length; i++) {
      states[i] = mine[i] === their[i] && !like.touched.has(sc.ids[i]!) ? theirs[i]! : entityStateAt(c, sc, sc.ids[i]!, session)!;
    }
  } else if (usable) {
    states = usable.states.slice();
    for (const s of sc.sessions) {
      if (s <= usable.session || s > session!) continue;
      for (const id of sc.touchedIn.get(s)!) {
        const i = p.index.get(id);
        if (i !== undefined) states[i] = entityStateAt(c, sc, id, session)!;
      }
    }
  } else states = sc.ids.map((id) => entityStateAt(c, sc, id, session)!);
  const d: EdgeDelta = usable
    ? { gone: usable.edges.gone.slice(), replaced: new Map(usable.edges.replaced), tail: new Map(usable.edges.tail), removed: new Map(usable.edges.removed) }
    : { gone: new Uint8Array(p.edges.length), replaced: new Map(), tail: new Map(), removed: new Map() };
  applyRelChanges(c, sc, p, d, usable ? usable.session : null, session);
  const unborn = new Set<string>();
  for (const id of p.unborn) if (states[p.index.get(id)!]!.lifecycle === 'not-yet-created') unborn.add(id);
  // an edge to something not yet created does not hold yet
  const relationships: RelationshipState[] = [];
  for (let i = 0; i < p.edges.length; i++) {
    if (d.gone[i]) continue;
    const e = d.replaced.size ? d.replaced.get(i) ?? p.edges[i]! : p.edges[i]!;
    if (p.touchesUnborn[i] && unborn.size && (unborn.has(e.from) || unborn.has(e.to))) continue;
    relationships.push(e);
  }
  for (const e of d.tail.values()) if (!unborn.size || (!unborn.has(e.from) && !unborn.has(e.to))) relationships.push(e);
  const graph: GraphState = { layer: sc.layer, session, entities: states.slice(), relationships, removedRelationships: [...d.removed.values()] };
  views.set(graph, { edges: d, unborn, index: p.index });
  return { graph, snapshot: session === null ? null : { session, states, edges: d } };
}

export function diffSessions(c: Compiled, sc: LayerScope, from: number, to: number): TimelineDiff {
  const lo = Math.min(from, to), hi = Math.max(from, to);
  const forward = to >= from;
  const events = sc.events.filter((e) => e.session !== null && e.session > lo && e.session <= hi);
  const touched = new Set<string>();
  for (const e of events) {
    touched.add(e.id);
    for (const k of e.consequences) if (k.valid && k.entity && !k.relationship) touched.add(k.entity);
  }
  const out: TimelineDiff = { layer: sc.layer, from, to, events: events.map((e) => e.id), created: [], destroyed: [], died: [], revived: [], changes: [], relationshipsAdded: [], relationshipsRemoved: [] };
  for (const id of [...touched].sort()) {
    const a = entityStateAt(c, sc, id, from), b = entityStateAt(c, sc, id, to);
    if (!a || !b) continue;
    const later = forward ? b : a;
    const name = b.name;
    if (a.lifecycle !== b.lifecycle && !sc.eventNoteSession.has(id)) {
      if (b.lifecycle === 'exists') out.created.push({ entity: id, name, provenance: later.created });
      else out.destroyed.push({ entity: id, name, provenance: later.destroyed ?? later.created });
    }
    if (a.dead !== b.dead) (b.dead ? out.died : out.revived).push({ entity: id, name, provenance: later.died ?? later.provenance[c.statusFields.find((f) => later.provenance[f]) ?? ''] });
    const props = new Set([...Object.keys(a.properties), ...Object.keys(b.properties)]);
    for (const p of [...props].sort()) {
      if (JSON.stringify(a.properties[p]) === JSON.stringify(b.properties[p])) continue;
      const ch: PropertyChange = { entity: id, name, property: p, before: a.properties[p], after: b.properties[p] };
      const prov = later.provenance[p];
      if (prov) ch.provenance = prov;
      out.changes.push(ch);
    }
  }
  const ea = edgesAt(c, sc, from).edges, eb = edgesAt(c, sc, to).edges;
  for (const [k, e] of eb) if (!ea.has(k)) out.relationshipsAdded.push(e);
  for (const [k, e] of ea) if (!eb.has(k)) out.relationshipsRemoved.push(e);
  return out;
}

/** The compact scrubber frame of a graph state (see TimelineFrame). */
export function frameOf(sc: LayerScope, g: GraphState): TimelineFrame {
  const v = views.get(g);
  if (!v) return frameOfGraph(sc, g);
  const p = prepare(sc);
  const lifecycle: TimelineFrame['lifecycle'] = {};
  const dead: string[] = [];
  const changed: string[] = [];
  g.entities.forEach((e, i) => {
    if (e.lifecycle !== 'exists') lifecycle[e.id] = e.lifecycle;
    if (e.dead) dead.push(e.id);
    if (e !== p.baseStates[i] && Object.keys(e.provenance).length > 0) changed.push(e.id);
  });
  const added: TimelineFrame['added'] = [];
  // indexed, not for-of: a first frame runs this in the interpreter, where for-of makes an object per step (34k at 10k)
  const rels = g.relationships;
  for (let i = 0; i < rels.length; i++) {
    const r = rels[i]!;
    if (r.origin === 'event') added.push({ from: r.from, to: r.to, type: r.type, event: r.provenance!.event });
  }
  // a base edge holds unless deleted (and not added back since) or an end is not created yet
  const hidden: TimelineFrame['hidden'] = [];
  const { edges: d, unborn } = v;
  for (let i = 0; i < p.edges.length; i++) {
    const r = p.edges[i]!;
    const unbornEnd = p.touchesUnborn[i] && unborn.size > 0 && (unborn.has(r.from) || unborn.has(r.to));
    if (!unbornEnd && (!d.gone[i] || d.tail.has(p.keys[i]!))) continue;
    hidden.push({ from: r.from, to: r.to, type: r.type });
  }
  return { layer: g.layer, session: g.session, lifecycle, dead, added, hidden, changed };
}

/** frameOf for any graph state (one graphAt did not make): by the keys of the edges that hold */
export function frameOfGraph(sc: LayerScope, g: GraphState): TimelineFrame {
  const lifecycle: TimelineFrame['lifecycle'] = {};
  const dead: string[] = [];
  const changed: string[] = [];
  for (const e of g.entities) {
    if (e.lifecycle !== 'exists') lifecycle[e.id] = e.lifecycle;
    if (e.dead) dead.push(e.id);
    if (e !== sc.base.get(e.id) && Object.keys(e.provenance).length > 0) changed.push(e.id);
  }
  const holding = new Set<string>();
  const added: TimelineFrame['added'] = [];
  for (const r of g.relationships) {
    holding.add(edgeKey(r.from, r.type, r.to));
    if (r.origin === 'event') added.push({ from: r.from, to: r.to, type: r.type, event: r.provenance!.event });
  }
  const hidden: TimelineFrame['hidden'] = [];
  for (const [k, r] of sc.baseEdges) if (!holding.has(k)) hidden.push({ from: r.from, to: r.to, type: r.type });
  return { layer: g.layer, session: g.session, lifecycle, dead, added, hidden, changed };
}
