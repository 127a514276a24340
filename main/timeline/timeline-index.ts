/**
 * The timeline index: built once per model change from plain data, answers
 * every timeline question. Layer scopes are compiled lazily; graph states are
 * memoised per (layer, session) so a scrubber going back and forth is a map hit.
 */
import type { Problem } from '../../shared/types.js';
import { buildScope, compile, compileWithout, type Compiled, type LayerScope, type TimelineInput } from './compile.js';
import { diffSessions, edgesAt, entityStateAt, frameOf, graphAt, type LikeGraph, type Snapshot } from './state.js';
import type { EntityStateView, GraphState, RelationshipInterval, RelationshipState, SessionInfo, TimelineDiff, TimelineEvent, TimelineFrame, TimelineQuery } from './types.js';
import { relationshipHistory } from './history.js';
import { compareDates } from './dates.js';
import { CoreError } from '../domain/errors.js';

export interface TimelineIndex {
  /** configured layer names */
  layers(): string[];
  /** numbered sessions of the layer's scope, ascending, with in-world date labels */
  sessions(layer: string): SessionInfo[];
  /** events in application order; `entity` keeps events that involve it (participant, location, consequence) */
  timeline(layer: string, q?: TimelineQuery): TimelineEvent[];
  /** the layer's events in calendar order (by in-world date: the world's calendar when it has one; undated last, then session, then path) */
  chronicle(layer: string): TimelineEvent[];
  /** one entity (name or id, resolved in the layer's scope) at a session (omitted = after every event) */
  stateAt(entity: string, layer: string, session?: number | null): EntityStateView | null;
  graphAt(layer: string, session?: number | null): GraphState;
  /**
   * The relationships written in the notes that hold before any event (the layer's base edges): the very
   * objects every session's graphAt shares where no event changed them, in graphAt's order. Do not change them.
   */
  baseRelationships(layer: string): Iterable<RelationshipState>;
  /** the scrubber's step: only what differs from the base graph (memoised like graphAt) */
  frame(layer: string, session?: number | null): TimelineFrame;
  diff(layer: string, from: number, to: number): TimelineDiff;
  problems(): Problem[];
  /**
   * When relationships between `a` and `b` (or from/to `a` with any other, and of `type` when given) held:
   * intervals from the notes and the events. Names or ids. Null when a name resolves to nothing.
   */
  relationshipHistory(layer: string, a: string, b?: string, type?: string): RelationshipInterval[] | null;
  /** resolve a name or id within a layer's scope */
  resolve(entity: string, layer: string): string | null;
  /**
   * The index of the same input without the event notes `hidden` (the players' timeline), built from this one's
   * compiled events and layer scopes instead of from the notes again (compileWithout): it answers as
   * buildTimelineIndex of the filtered input would. Null when it cannot be derived (a virtual entity only a
   * hidden event creates): build that index then.
   */
  without(hidden: ReadonlySet<string>): TimelineIndex | null;
}

const GRAPH_CACHE_MAX = 256;

export function buildTimelineIndex(input: TimelineInput): TimelineIndex {
  return indexOf(compile(input));
}

/**
 * What an index derived by `without` reads of its source: a layer's scope (buildScope's `like`), the source's graph
 * at a session when it has made it already (else undefined), and the events left out.
 */
interface Source {
  scope(layer: string): LayerScope;
  graph(layer: string, session: number | null): GraphState | undefined;
  hidden: ReadonlySet<string>;
}

/** the key of an index's memos per (layer, session): its graphs and frames */
function memoKey(layer: string, session: number | null): string {
  return `${layer}\u0000${session}`;
}

/** the index over `c`; `from`: the index `c` was derived from (TimelineIndex.without) */
function indexOf(c: Compiled, from?: Source): TimelineIndex {
  const scopes = new Map<string, LayerScope>();
  const graphs = new Map<string, GraphState>();
  const frames = new Map<string, TimelineFrame>();
  const layerNames = c.config.layers.map((l) => l.name);

  const scope = (layer: string): LayerScope => {
    if (!layerNames.includes(layer)) {
      throw new CoreError('unknown-layer', `unknown layer '${layer}' (layers: ${layerNames.join(', ')})`, { layer });
    }
    let sc = scopes.get(layer);
    if (!sc) { sc = buildScope(c, layer, from?.scope(layer)); scopes.set(layer, sc); }
    return sc;
  };
  const resolve = (entity: string, layer: string): string | null => {
    const sc = scope(layer);
    if (sc.base.has(entity)) return entity;
    const rec = c.names.resolve(entity, sc.layers);
    if (rec && sc.base.has(rec.id)) return rec.id;
    for (const l of sc.layers) {
      const v = [...c.virtual.values()].find((x) => x.layer === l && x.name.toLowerCase() === entity.trim().toLowerCase());
      if (v) return v.id;
    }
    return null;
  };

  /** the entities the source's events left out touch, per layer (see likeGraph) */
  const touchedBy = new Map<string, Set<string>>();
  /** the source's graph at (layer, session) when it has one, to take the entity states the two share (graphAt's `like`) */
  const likeGraph = (layer: string, session: number | null): LikeGraph | undefined => {
    const graph = from?.graph(layer, session);
    if (!from || !graph) return undefined;
    const their = from.scope(layer);
    let touched = touchedBy.get(layer);
    if (!touched) {
      touched = new Set();
      for (const e of their.events) {
        if (!from.hidden.has(e.id)) continue;
        touched.add(e.id);
        for (const k of e.consequences) {
          if (k.entity) touched.add(k.entity);
          if (k.target) touched.add(k.target);
        }
      }
      touchedBy.set(layer, touched);
    }
    return { scope: their, graph, touched };
  };

  // memo per (layer, session) + snapshots to step on from the nearest earlier session
  const snapshots = new Map<string, Map<number, Snapshot>>();
  const graph = (layer: string, session: number | null): GraphState => {
    const key = memoKey(layer, session);
    let g = graphs.get(key);
    if (!g) {
      const snaps = snapshots.get(layer) ?? new Map<number, Snapshot>();
      snapshots.set(layer, snaps);
      let prev: Snapshot | undefined;
      if (session !== null) for (const [s, snap] of snaps) if (s <= session && (!prev || s > prev.session)) prev = snap;
      const r = graphAt(c, scope(layer), session, prev, prev ? undefined : likeGraph(layer, session));
      g = r.graph;
      if (r.snapshot && snaps.size < GRAPH_CACHE_MAX) snaps.set(r.snapshot.session, r.snapshot);
      if (graphs.size >= GRAPH_CACHE_MAX) graphs.delete(graphs.keys().next().value!);
      graphs.set(key, g);
    }
    return g;
  };

  return {
    layers: () => [...layerNames],
    sessions(layer) {
      const sc = scope(layer);
      return sc.sessions.map((s) => {
        const evs = sc.events.filter((e) => e.session === s);
        const dated = [...evs].sort((a, b) => compareDates(a.date, b.date))[0];
        const dateLabel = dated?.date?.display ?? dated?.date?.label ?? '';
        return { session: s, dateLabel, label: dateLabel ? `Session ${s} · ${dateLabel}` : `Session ${s}`, events: evs.map((e) => e.id) };
      });
    },
    chronicle(layer) {
      return [...scope(layer).events].sort((a, b) => compareDates(a.date, b.date)
        || (a.session ?? Infinity) - (b.session ?? Infinity) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    timeline(layer, q = {}) {
      const sc = scope(layer);
      const id = q.entity !== undefined ? resolve(q.entity, layer) : undefined;
      if (q.entity !== undefined && !id) throw new CoreError('not-found', `no entity '${q.entity}' in layer '${layer}' or the layers it depends on`, { entity: q.entity, layer });
      return sc.events.filter((e) => {
        if (q.from !== undefined && (e.session === null || e.session < q.from)) return false;
        if (q.to !== undefined && (e.session === null || e.session > q.to)) return false;
        if (!id) return true;
        return e.id === id || e.location?.id === id || e.participants.some((p) => p.id === id)
          || e.consequences.some((k) => k.entity === id || k.target === id);
      });
    },
    stateAt(entity, layer, session = null) {
      const sc = scope(layer);
      const id = resolve(entity, layer);
      if (!id) return null;
      const st = entityStateAt(c, sc, id, session)!;
      const { edges, removed } = edgesAt(c, sc, session);
      // as in graphAt: a relationship with an end not yet created does not hold yet
      const holds = (other: string) => entityStateAt(c, sc, other, session)?.lifecycle !== 'not-yet-created';
      return {
        ...st,
        relationships: st.lifecycle === 'not-yet-created' ? [] : [...edges.values()].filter((e) => (e.from === id && holds(e.to)) || (e.to === id && holds(e.from))),
        removedRelationships: [...removed.values()].filter((e) => e.from === id || e.to === id),
      };
    },
    graphAt: (layer, session = null) => graph(layer, session),
    baseRelationships: (layer) => scope(layer).baseEdges.values(),
    frame(layer, session = null) {
      const key = memoKey(layer, session);
      let f = frames.get(key);
      if (!f) {
        f = frameOf(scope(layer), graph(layer, session));
        if (frames.size >= GRAPH_CACHE_MAX) frames.delete(frames.keys().next().value!);
        frames.set(key, f);
      }
      return f;
    },
    diff: (layer, from, to) => diffSessions(c, scope(layer), from, to),
    problems: () => [...c.problems],
    relationshipHistory(layer, a, b, type) {
      const ia = resolve(a, layer);
      const ib = b === undefined ? undefined : resolve(b, layer);
      if (!ia || ib === null) return null;
      return relationshipHistory(c, scope(layer), ia, ib, type);
    },
    resolve,
    without(hidden) {
      const d = compileWithout(c, hidden);
      return d && indexOf(d, { scope, graph: (layer, session) => graphs.get(memoKey(layer, session)), hidden });
    },
  };
}
