/**
 * The players' reads: the Core's read surface (and the timeline's) as players
 * may see it at (layer, session) — the app's players' view and
 * `lorecraft mcp --audience players` both use it. Every answer goes through
 * the lens (main/visibility/lens.ts), the one redaction the exports use too:
 * GM-only notes gone (links to them read "(secret)"), secret blocks removed
 * from bodies, secret properties and relationship fields hidden, GM-only
 * events never applied. Raw Cypher cannot be filtered: it is refused.
 */
import type {
  EntityRecord, EntitySummary, EntityView, GraphSnapshot, PathResult, Problem, PropertyValue, RelationView, RelationshipRecord,
  SearchHit, SyncStatus, Traversal, TraversalStep,
} from '../../shared/types.js';
import type { Schema } from '../config/types.js';
import { CoreError } from '../domain/errors.js';
import { bodySnippet, queryTerms } from '../store/kuzu/search.js';
import { buildTimelineIndex, type TimelineIndex } from '../timeline/timeline-index.js';
import { eventSettings } from '../timeline/events.js';
import { timelineInputFromModel } from '../timeline/service.js';
import type { EntityState, EntityStateView, GraphState, RelationshipState, TimelineDiff, TimelineEvent, TimelineFrame, TimelineQuery, SessionInfo } from '../timeline/types.js';
import { eachOf, hiddenEvents, lensAt, lensBase, type BodyCache, type Lens, type LensBase, type LensSource } from '../visibility/lens.js';
import { defaultLayer } from '../visibility/world.js';
import type { Core, Direction, EntityQuery, ListFilter, LookupMatch, TrashItem } from './api.js';
import type { CoreHost } from './core.js';
import { summaryOf } from './lookup.js';

export type { Audience } from '../visibility/rules.js';

/** Which audience's reads, at which session of which campaign layer. */
export interface ViewQuery {
  audience?: 'gm' | 'players';
  /** default: the only campaign layer, else the first layer */
  layer?: string;
  /** default null: after every event of the layer */
  session?: number | null;
}

/** The players' lens of the open vault at (layer, session) and the players' timeline (the core caches both). */
export interface LensProvider {
  lens(layer: string, session: number | null): Lens;
  playersIndex(): TimelineIndex;
  defaultLayer(): string;
}

/** `layer` is one of the vault's layers (the players' view and the lens of a session both ask), else unknown-layer */
export function knownLayer(config: { layers: Array<{ name: string }> }, layer: string): void {
  if (!config.layers.some((l) => l.name === layer)) throw new CoreError('unknown-layer', `unknown layer '${layer}'`, { layer });
}

/** relationships decided per step of prepare() (a few ms) */
const PREPARE_SLICE = 4096;

/**
 * prepare() builds the lens base and each relationship's players' answer only up to this many relationships.
 * They are what the first switch saves most on (~0.15 s at 10k's 34k relationships), but prepared for a GM who
 * may never show the players' view they stay in memory: measured in the web shell after opening again, +~45 MB
 * at 10k (34k relationships) and +~200 MB on the real-shaped 7k vault (183k), whose RSS target is 350 MB. Above
 * the bound prepare() keeps to the players' index, the list order and the problems' names (a few MB), and the
 * first switch builds the rest.
 */
export const PREPARE_RELATIONSHIPS_MAX = 60_000;

/** lenses kept per model version: the sessions last shown (each holds its answers: a few MB at 10k) */
const LENS_CACHE_MAX = 8;

/**
 * The players' lenses of one open vault, per model version: the players' timeline index (the GM's when no
 * event is GM-only, else one built without them), what every session's lens shares (lensBase), and the lenses
 * of the sessions last asked for. `warm` builds them off the interactive path: after the vault opened, after
 * every change and when the GM's timeline rests on a session, so that switching to the players' view finds
 * them built.
 */
export class PlayersLenses implements LensProvider {
  private ix: { version: number; ix: TimelineIndex } | null = null;
  private shared: { version: number; base: LensBase } | null = null;
  private lenses = new Map<string, { version: number; lens: Lens }>();
  /** bodies as players read them, by note content: a change re-reads only the notes it touched */
  private readonly bodies: BodyCache = new Map();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private warming = 0;
  /** a run of warm() or prepare() has steps left (the run numbered `warming`) */
  private running = false;
  /** told once no run is scheduled or running (idle()) */
  private idleWaiters: Array<() => void> = [];
  /** the model version prepare() last ran to its end for */
  private preparedVersion = -1;
  /** above this many relationships prepare() holds no lens base or answers ahead (PREPARE_RELATIONSHIPS_MAX) */
  prepareRelationshipsMax = PREPARE_RELATIONSHIPS_MAX;
  private stopped = false;

  constructor(private readonly host: CoreHost) {}

  defaultLayer(): string { return defaultLayer({ config: this.host.config() }); }

  playersIndex(): TimelineIndex {
    const m = this.host.engine.model;
    if (this.ix?.version === m.version) return this.ix.ix;
    const evType = eventSettings(m.schema()).type;
    const eventIds: string[] = [];
    for (const e of m.entities()) if (e.type === evType && !e.placeholder) eventIds.push(e.id);
    const hidden = hiddenEvents({ config: m.config(), schema: m.schema(), entity: (id) => m.entity(id) }, 'players', eventIds);
    let ix: TimelineIndex;
    if (!hidden.size) ix = this.host.timeline.index();
    else {
      // the GM's index without its GM-only events (its parsed events and scopes reused), unless a virtual entity
      // only a GM-only event creates forbids: then compiled again (with the GM's timeline's consequence lines:
      // no event file read again that it read already)
      const derived = this.host.timeline.index().without(hidden);
      if (derived) ix = derived;
      else {
        const input = timelineInputFromModel(m, this.host.vaultDir, undefined, this.host.timeline.lines);
        ix = buildTimelineIndex({ ...input, events: [...input.events].filter((e) => !hidden.has(e.id)) });
      }
    }
    this.ix = { version: m.version, ix };
    return ix;
  }

  private source(): LensSource {
    const m = this.host.engine.model;
    return { config: m.config(), schema: m.schema(), entity: (id: string) => m.entity(id), entities: () => m.entities(), relationships: () => m.edges() };
  }

  private lensBase(): LensBase {
    const m = this.host.engine.model;
    if (this.shared?.version !== m.version) this.shared = { version: m.version, base: lensBase(this.source(), this.bodies) };
    return this.shared.base;
  }

  lens(layer: string, session: number | null): Lens {
    const m = this.host.engine.model;
    const k = `${layer}\u0000${session}`;
    const hit = this.lenses.get(k);
    if (hit?.version === m.version) { this.lenses.delete(k); this.lenses.set(k, hit); return hit.lens; }
    knownLayer(this.host.config(), layer);
    const ix = this.playersIndex();
    const lens = lensAt(this.source(), ix, { audience: 'players', layer, session }, this.lensBase());
    for (const [key, v] of this.lenses) if (v.version !== m.version) this.lenses.delete(key);
    if (this.lenses.size >= LENS_CACHE_MAX) this.lenses.delete(this.lenses.keys().next().value!);
    this.lenses.set(k, { version: m.version, lens });
    return lens;
  }

  /**
   * Build what a switch to the players' view at `at()` needs, after `delayMs` without another call: the
   * players' index, the lens base, the lens and the answers the app asks for first (list, canvas, problems,
   * the timeline's frame). One step per macrotask, so a request that arrives meanwhile waits for one step at
   * most; a change of the notes meanwhile ends it (the change schedules the next).
   */
  warm(at: () => { layer: string; session: number | null }, delayMs = 300): void {
    this.schedule(delayMs, () => {
      const { layer, session } = at();
      return [
        () => { this.playersIndex(); },
        () => { this.lensBase(); },
        () => { this.lens(layer, session); },
        () => { playersTimeline(this).frame(layer, session); },
        () => { playersTimeline(this).graphAt(layer, session); },
        () => { warmView(this.host, this.lens(layer, session)); },
      ];
    });
  }

  /**
   * Build, `delayMs` after the last call, what every players' lens of the current model version shares and
   * holds little memory (not the lenses themselves, which the app builds ahead only once the players' view has
   * been shown: CoreImpl's `playersShown`): the players' index, its layer scope and its graph at the layer's
   * first session, the lens base with the players' answer for each relationship written in the notes, every
   * entity in list order and the entities each problem's message names. Then a first switch only builds the lens at its session. One step per
   * macrotask, ended by a change of the notes (the change schedules the next), as warm() is.
   */
  prepare(layer: () => string, delayMs = 300): void {
    this.schedule(delayMs, () => {
      const shared = sharedOf(this.host);
      let rels: Iterator<RelationshipState> | null = null;
      const lean = this.host.engine.model.counts().relationships > this.prepareRelationshipsMax;
      return [
        () => { this.playersIndex(); },
        // a big world: no lens base nor answers held ahead (PREPARE_RELATIONSHIPS_MAX)
        ...(lean ? [] : [
          () => { rels = this.playersIndex().baseRelationships(layer())[Symbol.iterator](); },
          // the graph at the layer's first session: a graph at any later one steps on from it (what changed since)
          () => { const ix = this.playersIndex(); const first = ix.sessions(layer())[0]; if (first) ix.graphAt(layer(), first.session); },
          () => { this.lensBase(); },
          // the relationships' answers in slices, so that a request waits a few ms at most
          () => {
            const base = this.lensBase();
            for (let i = 0; i < PREPARE_SLICE; i++) {
              const r = rels!.next();
              if (r.done) return;
              base.playersRelationship(r.value);
            }
            return true; // again
          },
        ]),
        () => { shared.sorted(); },
        () => { const all = this.host.problems(); const named = shared.namedBy(all); for (let i = 0; i < all.length; i++) named(i); },
      ];
    }, (version) => { this.preparedVersion = version; });
  }

  /**
   * The runner of warm() and prepare(): `delayMs` after the last call, the steps `build()` makes (then) run one
   * per macrotask, so that a request that arrives meanwhile waits for one step at most; a step that returns true
   * runs again. A later call, stop() or a change of the notes ends the run (the change schedules the next); a
   * step that throws ends it too (a layer gone, a broken timeline: the switch says so itself). `done` is told
   * the model version a run reached its end for.
   */
  private schedule(delayMs: number, build: () => Array<() => boolean | void>, done?: (version: number) => void): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const run = ++this.warming;
      this.running = true;
      const version = this.host.engine.model.version;
      // the run's end, whichever it is (a newer run's own end is its own)
      const end = (): void => { if (run === this.warming) { this.running = false; this.settle(); } };
      let steps: Array<() => boolean | void>;
      try { steps = build(); } catch { end(); return; }
      const next = (): void => {
        if (this.stopped || run !== this.warming || this.host.engine.model.version !== version) { end(); return; }
        const step = steps[0];
        if (!step) { done?.(version); end(); return; }
        try { if (step() !== true) steps.shift(); } catch { end(); return; }
        setImmediate(next);
      };
      next();
    }, delayMs);
    this.timer.unref?.();
  }

  private settle(): void {
    if (this.timer || this.running) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * Resolves once no run of warm() or prepare() is scheduled or in progress (at once when none is): what they
   * built is then held and what they dropped is garbage (CoreSession collects it once after an open).
   */
  idle(): Promise<void> {
    if (!this.timer && !this.running) return Promise.resolve();
    return new Promise((r) => { this.idleWaiters.push(r); });
  }

  /** has prepare() run to its end for the current model version (what every lens shares, within its bound)? */
  prepared(): boolean {
    return this.preparedVersion === this.host.engine.model.version;
  }

  /** is the lens at (layer, session) of the current model version built? */
  has(layer: string, session: number | null): boolean {
    return this.lenses.get(`${layer}\u0000${session}`)?.version === this.host.engine.model.version;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = false;
    this.settle();
  }
}

export const PLAYERS_READ_ONLY = "the players' view is read-only: switch to the GM view to edit";

/** The timeline questions the app and MCP ask, as players may see them. */
export interface PlayersTimeline {
  sessions(layer: string): SessionInfo[];
  timeline(layer: string, q?: TimelineQuery): TimelineEvent[];
  stateAt(entity: string, layer: string, session?: number | null): EntityStateView | null;
  graphAt(layer: string, session?: number | null): GraphState;
  frame(layer: string, session?: number | null): TimelineFrame;
  diff(layer: string, from: number, to: number): TimelineDiff;
  /** what the canvas overlay reads of graphAt (the entities' lifecycles), without redacting every entity's properties */
  overlayStates(layer: string, session?: number | null): OverlayStates;
}

/** The entities' lifecycles at a session (of those that do not simply exist, or were created) and the relationships removed. */
export interface OverlayStates {
  entities: Array<Pick<EntityState, 'id' | 'lifecycle' | 'dead' | 'created' | 'destroyed' | 'died'>>;
  removedRelationships: GraphState['removedRelationships'];
}

const key = (from: string, type: string, to: string) => `${from}\u0000${type}\u0000${to}`;

/**
 * What is asked of one lens again and again, computed once: a lens is one model version at one session, so
 * every answer below holds for as long as the lens is used (the app refetches all of them after a switch).
 */
interface LensMemo {
  graphAt?: GraphState;
  overlay?: OverlayStates;
  frame?: TimelineFrame;
  /** every visible entity's summary, sorted as list() answers */
  sorted?: EntitySummary[];
  graphs?: Map<string, GraphSnapshot>;
  problems?: { of: Problem[]; out: Problem[] };
  importance?: { of: Record<string, number>; out: Record<string, number> };
  placeholders?: number;
}
const memos = new WeakMap<Lens, LensMemo>();
function memoOf(lens: Lens): LensMemo {
  let m = memos.get(lens);
  if (!m) { m = {}; memos.set(lens, m); }
  return m;
}

/** the answers a switch to the players' view asks for first, computed ahead (PlayersLenses.warm) */
function warmView(host: CoreHost, lens: Lens): void {
  const v = new PlayersView(host, lens);
  void v.list({ limit: 1 });
  void v.graph();
  v.status();
}

/** The schema as players may read it: secret properties and secret relationship fields left out. */
export function playersSchema(s: Schema): Schema {
  return {
    ...s,
    entity_types: s.entity_types.map((t) => ({
      ...t,
      properties: t.properties.filter((p) => !p.secret),
      field_mappings: t.field_mappings.filter((m) => !m.secret),
    })),
  };
}

/**
 * The players' timeline: the players' index (GM-only events left out), each answer filtered by the
 * lens at its own session. `cap`: the latest session this reader may see (a server started at a session).
 */
export function playersTimeline(p: LensProvider, cap: number | null = null): PlayersTimeline {
  const at = (s: number | null | undefined): number | null => {
    const session = s ?? null;
    if (cap === null) return session;
    if (session === null) return cap;
    if (session > cap) throw new CoreError('forbidden', `session ${session} is after session ${cap}, the latest this players' view may see`, { session, cap });
    return session;
  };
  const ix = () => p.playersIndex();
  const visibleEvents = (layer: string, lens: Lens, events: TimelineEvent[]) => events.filter((e) => lens.visible.has(e.id)).map((e) => lens.event(e));
  return {
    sessions(layer) {
      // the sessions players know of at the lens's session: those up to it with an event they see. Later
      // sessions are not listed at all, not even by number (how far the GM has prepared is GM knowledge)
      const lens = p.lens(layer, at(null));
      const upTo = lens.session;
      return ix().sessions(layer)
        .filter((s) => upTo === null || s.session <= upTo)
        .map((s) => ({ ...s, events: s.events.filter((id) => lens.visible.has(id)) }))
        .filter((s) => s.events.length > 0);
    },
    timeline(layer, q = {}) {
      const lens = p.lens(layer, at(q.to ?? null));
      if (q.entity !== undefined) {
        // events "involving" a hidden entity would tell of it: only entities players see can be asked about
        const id = ix().resolve(q.entity, layer);
        if (!id || !lens.visible.has(id)) throw new CoreError('not-found', `no entity '${q.entity}' in layer '${layer}' or the layers it depends on`, { entity: q.entity, layer });
      }
      return visibleEvents(layer, lens, ix().timeline(layer, q));
    },
    stateAt(entity, layer, session) {
      const lens = p.lens(layer, at(session));
      // the state is the lens's own graph's (the players' index at the lens's session): no replay of the edges
      const id = ix().resolve(entity, layer);
      const st = id === null ? undefined : lens.state(id);
      if (!st || !lens.visible.has(st.id)) return null;
      const properties = lens.properties(st.id, st.properties);
      const g = lens.graph;
      return {
        ...st,
        properties,
        provenance: Object.fromEntries(Object.entries(st.provenance).filter(([k]) => k in properties)),
        relationships: st.lifecycle === 'not-yet-created' ? [] : lens.held.filter((r) => r.from === st.id || r.to === st.id),
        removedRelationships: g.removedRelationships.filter((r) => (r.from === st.id || r.to === st.id) && lens.visible.has(r.from) && lens.visible.has(r.to)),
      };
    },
    graphAt(layer, session) {
      const lens = p.lens(layer, at(session));
      const memo = memoOf(lens);
      if (memo.graphAt) return memo.graphAt;
      const g = lens.graph;
      return (memo.graphAt = {
        layer: g.layer, session: g.session,
        entities: g.entities.filter((e) => lens.visible.has(e.id)).map((e) => ({ ...e, properties: lens.properties(e.id, e.properties) })),
        // lens.held: the graph's relationships that hold for players, in the graph's order
        relationships: lens.held,
        removedRelationships: g.removedRelationships.filter((r) => lens.visible.has(r.from) && lens.visible.has(r.to)),
      });
    },
    overlayStates(layer, session) {
      const lens = p.lens(layer, at(session));
      const memo = memoOf(lens);
      if (memo.overlay) return memo.overlay;
      const g = lens.graph;
      // graphAt's entities and removed relationships, less what the overlay does not read (properties are not redacted here)
      const entities: OverlayStates['entities'] = [];
      const all = g.entities;
      for (let i = 0; i < all.length; i++) {
        const e = all[i]!;
        if (!lens.visible.has(e.id) || (e.lifecycle === 'exists' && !e.dead && !e.created)) continue;
        entities.push({ id: e.id, lifecycle: e.lifecycle, dead: e.dead, created: e.created, destroyed: e.destroyed, died: e.died });
      }
      return (memo.overlay = { entities, removedRelationships: memo.graphAt?.removedRelationships ?? g.removedRelationships.filter((r) => lens.visible.has(r.from) && lens.visible.has(r.to)) });
    },
    frame(layer, session) {
      const lens = p.lens(layer, at(session));
      const memo = memoOf(lens);
      if (memo.frame) return memo.frame;
      const f = ix().frame(layer, lens.session);
      const v = (id: string) => lens.visible.has(id);
      const added = new Set(lens.relationships.filter((r) => r.origin === 'event').map((r) => key(r.from, r.type, r.to)));
      return (memo.frame = {
        layer: f.layer, session: f.session,
        lifecycle: Object.fromEntries(Object.entries(f.lifecycle).filter(([id]) => v(id))),
        dead: f.dead.filter(v),
        added: f.added.filter((a) => added.has(key(a.from, a.type, a.to)) && v(a.event)),
        hidden: f.hidden.filter((h) => v(h.from) && v(h.to)),
        changed: f.changed.filter(v),
      });
    },
    diff(layer, from, to) {
      const lens = p.lens(layer, at(Math.max(from, to)));
      const d = ix().diff(layer, from, to);
      const v = (id: string) => lens.visible.has(id);
      const named = <T extends { entity: string }>(xs: T[]) => xs.filter((x) => v(x.entity));
      return {
        ...d,
        events: d.events.filter(v),
        created: named(d.created), destroyed: named(d.destroyed), died: named(d.died), revived: named(d.revived),
        changes: d.changes.filter((c) => v(c.entity) && !lens.hidesProperty(c.entity, c.property))
          .map((c) => ({ ...c, before: c.before === undefined ? undefined : maskAny(lens, c.before), after: c.after === undefined ? undefined : maskAny(lens, c.after) })),
        relationshipsAdded: d.relationshipsAdded.filter((r) => v(r.from) && v(r.to)),
        relationshipsRemoved: d.relationshipsRemoved.filter((r) => v(r.from) && v(r.to)),
      };
    },
  };
}

function maskAny(lens: Lens, x: PropertyValue): PropertyValue {
  if (typeof x === 'string') return lens.mask(x);
  return Array.isArray(x) ? x.map((v) => (typeof v === 'string' ? lens.mask(v) : v)) as PropertyValue : x;
}

const bySummary = (a: { name: string; id: string }, b: { name: string; id: string }) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/**
 * What every players' view of one core shares, whatever its session: entity summaries (per record: unchanged
 * notes keep theirs across versions), every entity's summary in list order, and which entities each problem's
 * message names (per model version). A view filters these by its lens.
 */
class ViewShared {
  private readonly summaries = new WeakMap<EntityRecord, EntitySummary>();
  private all: { version: number; sorted: EntitySummary[] } | null = null;
  private named: {
    version: number; of: Problem[]; ids: Array<string[] | undefined>;
    index: NameIndex | null;
  } | null = null;

  constructor(private readonly host: CoreHost) {}

  summaryOf(rec: EntityRecord): EntitySummary {
    let s = this.summaries.get(rec);
    if (!s) { s = summaryOf(rec); this.summaries.set(rec, s); }
    return s;
  }

  /**
   * The canvas's row of a relationship: a new object each time (a lens's graph keeps its own). Kept per record in
   * a WeakMap they were shared across lenses, but adding ~50k (10k) to ~180k (real7k) keys to it was ~35 / ~140 ms
   * of a first switch, more than making the rows.
   */
  edgeRow(r: RelationshipRecord): GraphSnapshot['edges'][number] {
    return { from: r.from, to: r.to, type: r.type, field: r.field };
  }

  /**
   * The first `k` entities `accept` keeps in list order (sorted()'s) and how many it keeps. From sorted() once it is
   * made for this model version; before, by a selection over the records: a cold open's first page does not wait
   * for every name to be sorted and summarised (the players' view's preparation, or a later page, sorts them).
   */
  firstInOrder(accept: (e: EntityRecord | EntitySummary) => boolean, k: number): { items: EntitySummary[]; total: number } {
    const m = this.host.engine.model;
    if (this.all?.version === m.version) {
      const items: EntitySummary[] = [];
      let total = 0;
      for (const e of this.all.sorted) if (accept(e)) { if (total < k) items.push(e); total++; }
      return { items, total };
    }
    const top: EntityRecord[] = [];
    let total = 0;
    for (const e of m.entities()) {
      if (!accept(e)) continue;
      total++;
      if (top.length === k && (k === 0 || bySummary(e, top[k - 1]!) >= 0)) continue;
      let lo = 0;
      let hi = top.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (bySummary(top[mid]!, e) <= 0) lo = mid + 1; else hi = mid; }
      top.splice(lo, 0, e);
      if (top.length > k) top.pop();
    }
    return { items: top.map((r) => this.summaryOf(r)), total };
  }

  /** every entity of the model (placeholders too) by name, then id */
  sorted(): EntitySummary[] {
    const m = this.host.engine.model;
    if (this.all?.version !== m.version) {
      const all: EntitySummary[] = [];
      for (const e of m.entities()) all.push(this.summaryOf(e));
      this.all = { version: m.version, sorted: all.sort(bySummary) };
    }
    return this.all.sorted;
  }

  /**
   * Per problem of `all`, the entities whose name or alias (3 characters or more) its message holds, lowercased
   * (what a players' view checks against the entities it hides). Names are found by their first three letters.
   * Each problem's are found when first asked (`namedBy(all)(i)`): a view asks only of the problems it keeps
   * otherwise (on the real-shaped 7k vault, all of them cost ~0.3 s of the first switch); prepare() asks of all.
   */
  namedBy(all: Problem[]): (i: number) => string[] {
    const m = this.host.engine.model;
    if (this.named?.version !== m.version || this.named.of !== all) this.named = { version: m.version, of: all, ids: new Array(all.length), index: null };
    const named = this.named;
    return (i) => (named.ids[i] ??= this.namesIn(named, all[i]!.message));
  }

  /** the entities `message` names (see namedBy) */
  private namesIn(named: NonNullable<ViewShared['named']>, message: string): string[] {
    // the index holds only the names that could be in one of the problems' messages (their first three letters
    // are three letters of one): a lowercased copy and a Map entry for a few names, not for every name
    return namesByIndex((named.index ??= nameIndex(this.host.engine.model.entities(), named.of.map((p) => p.message))), message);
  }
}

/** which entities' names and aliases (3 characters or more, lowercased) a problem's message holds */
interface NameIndex { byName: Map<string, string[]>; byStart: Map<number, number[]> }
type Named = Pick<EntityRecord, 'id' | 'name' | 'aliases'>;

/**
 * Every name and alias of 3 characters or more (lowercased) -> its entities, and the names by their first three
 * letters (trigram). With `messages`, only the names that could be in one of them: those whose first three letters
 * (ASCII folded to lower case) are three letters of a lowercased message, and every name whose first three are not
 * all ASCII (namesByIndex then finds in those messages what it finds with every name).
 */
export function nameIndex(entities: Iterable<Named>, messages?: readonly string[]): NameIndex {
  let starts: Set<number> | null = null;
  if (messages) {
    starts = new Set();
    for (const m of messages) {
      const msg = m.toLowerCase();
      for (let i = 0; i + 3 <= msg.length; i++) starts.add(trigram(msg, i));
    }
  }
  const byName = new Map<string, string[]>();
  const add = (n: string, id: string) => {
    if (n.length < 3) return;
    if (starts) { const t = asciiTrigram(n); if (t >= 0 && !starts.has(t)) return; }
    const k = n.toLowerCase();
    const ids = byName.get(k);
    if (!ids) byName.set(k, [id]); else if (!ids.includes(id)) ids.push(id);
  };
  for (const e of entities) {
    add(e.name, e.id);
    for (const a of e.aliases) add(a, e.id);
  }
  // per first three letters, the lengths of the names that start with them (a few: names of one start, such as
  // "Npc 1" to "Npc 3000", are found by length, not each tried at every place the start is in a message)
  const byStart = new Map<number, number[]>();
  for (const k of byName.keys()) {
    const start = trigram(k, 0);
    const ls = byStart.get(start);
    if (!ls) byStart.set(start, [k.length]); else if (!ls.includes(k.length)) ls.push(k.length);
  }
  return { byName, byStart };
}

/** the entities whose name or alias (3 characters or more, lowercased) `message` (lowercased) holds, by the index */
export function namesByIndex(index: NameIndex, message: string): string[] {
  const { byName, byStart } = index;
  const msg = message.toLowerCase();
  const found = new Set<string>();
  for (let i = 0; i + 3 <= msg.length; i++) {
    // the three characters at i as one number (no string made per position of every message)
    const ls = byStart.get(trigram(msg, i));
    if (!ls) continue;
    for (let j = 0; j < ls.length; j++) {
      const end = i + ls[j]!;
      if (end > msg.length) continue;
      const ids = byName.get(msg.slice(i, end));
      if (ids) for (let k = 0; k < ids.length; k++) found.add(ids[k]!);
    }
  }
  return [...found];
}

/** the UTF-16 code units at i, i+1, i+2 of `s` as one exact number (each < 2^16: the sum is < 2^48) */
const trigram = (s: string, i: number): number => s.charCodeAt(i) * 4294967296 + s.charCodeAt(i + 1) * 65536 + s.charCodeAt(i + 2);
/** an ASCII letter's lower case (A-Z), else the code unit */
const asciiLower = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);
/**
 * The trigram of `s.toLowerCase()` at 0 when the first three code units of `s` are ASCII (their lower case is
 * then the lowercased string's first three, whatever follows), else -1.
 */
const asciiTrigram = (s: string): number => {
  const a = s.charCodeAt(0), b = s.charCodeAt(1), c = s.charCodeAt(2);
  if (a >= 128 || b >= 128 || c >= 128) return -1;
  return asciiLower(a) * 4294967296 + asciiLower(b) * 65536 + asciiLower(c);
};
/** every entity of the open vault (placeholders too) by name, then id: once per model version (the GM's list reads it too) */
export function entitiesInListOrder(host: CoreHost): readonly EntitySummary[] {
  return sharedOf(host).sorted();
}

/** ViewShared.firstInOrder of the core's shared lists: a page at the head of the list without sorting all of it. */
export function firstInListOrder(host: CoreHost, accept: (e: EntityRecord | EntitySummary) => boolean, k: number): { items: EntitySummary[]; total: number } {
  return sharedOf(host).firstInOrder(accept, k);
}

const viewShared = new WeakMap<CoreHost, ViewShared>();
function sharedOf(host: CoreHost): ViewShared {
  let v = viewShared.get(host);
  if (!v) { v = new ViewShared(host); viewShared.set(host, v); }
  return v;
}

/** The Core's reads as players see them at one (layer, session). Writes and raw Cypher are refused. */
export class PlayersView implements Core {
  readonly audience = 'players' as const;
  private readonly shared: ViewShared;
  constructor(private readonly host: CoreHost, readonly lens: Lens) {
    this.shared = sharedOf(host);
  }

  get vaultDir(): string { return this.host.vaultDir; }
  config() { return this.host.config(); }
  schema(): Schema { return playersSchema(this.host.schema()); }
  /** the counts players may know (how many notes are hidden is itself GM knowledge) */
  status(): SyncStatus {
    const st = this.host.status();
    const memo = memoOf(this.lens);
    const placeholders = (memo.placeholders ??= [...this.lens.visible].filter((id) => this.lens.state(id)?.placeholder).length);
    return { ...st, entities: this.lens.visible.size, relationships: this.lens.relationships.length, placeholders, problems: this.problems().length };
  }
  sync(opts?: { full?: boolean }) { return this.host.sync(opts); }
  watch() { return this.host.watch(); }
  onChange(fn: Parameters<CoreHost['onChange']>[0]) { return this.host.onChange(fn); }
  readAsset(ref: string) { return this.host.readAsset(ref); }
  /** the view does not own the core */
  async close(): Promise<void> { /* nothing */ }

  private visible(id: string): boolean { return this.lens.visible.has(id); }

  private summary(id: string): EntitySummary | null {
    const rec = this.host.engine.model.entity(id);
    if (rec) return this.shared.summaryOf(rec);
    const st = this.lens.state(id);
    return st ? { id, name: st.name, type: st.type, layer: st.layer, path: null, placeholder: true, tags: [] } : null;
  }

  /** a name, alias, file name or id, among the entities players see */
  private resolve(nameOrId: string, q: EntityQuery = {}): string | null {
    const direct = this.host.resolveEntity(nameOrId, q);
    if (direct && this.visible(direct.id)) return direct.id;
    if (this.visible(nameOrId.trim())) return nameOrId.trim();
    const text = nameOrId.trim().replace(/^\[\[([^\]|#]*).*$/, '$1').toLowerCase();
    for (const st of this.lens.graph.entities) {
      if (!this.visible(st.id)) continue;
      if (q.type && st.type?.toLowerCase() !== q.type.toLowerCase()) continue;
      if (q.layer && st.layer !== q.layer) continue;
      const rec = this.host.engine.model.entity(st.id);
      if (st.name.toLowerCase() === text || rec?.aliases.some((a) => a.toLowerCase() === text)) return st.id;
    }
    return null;
  }

  private must(nameOrId: string): string {
    const id = this.resolve(nameOrId);
    if (!id) throw new CoreError('not-found', `no entity named '${nameOrId}'`, { name: nameOrId });
    return id;
  }

  async getEntity(nameOrId: string, q?: EntityQuery): Promise<EntityView | null> {
    const id = this.resolve(nameOrId, q);
    if (!id) return null;
    const m = this.host.engine.model;
    const rec = m.entity(id);
    const st = this.lens.state(id)!;
    const relations: RelationView[] = [];
    const view = (r: RelationshipRecord, dir: 'out' | 'in'): void => {
      if (!this.lens.edgeVisible(r)) return;
      const other = this.summary(dir === 'out' ? r.to : r.from);
      if (!other) return;
      const sym = this.host.index.isSymmetric(r.type);
      const label = dir === 'out' || sym ? r.type : this.host.index.inverseOf(r.type) ?? r.type;
      const props = dir === 'out' || sym ? r.properties : r.inverseProperties;
      relations.push({ type: r.type, label, direction: sym ? 'both' : dir, other, field: r.field, source: r.source, ...(props ? { properties: props } : {}) });
    };
    for (const r of m.edgesFrom(id)) view(r, 'out');
    for (const r of m.edgesTo(id)) if (r.from !== id) view(r, 'in');
    relations.sort((a, b) => a.label.localeCompare(b.label) || a.other.name.localeCompare(b.other.name) || a.direction.localeCompare(b.direction) || a.other.id.localeCompare(b.other.id));
    const base = rec ?? { id, name: st.name, type: st.type, layer: st.layer, path: null, hash: null, tags: [], aliases: [], properties: {}, body: '', placeholder: true };
    return { ...base, properties: this.lens.properties(id, st.properties), body: rec ? this.lens.body(rec) : '', relations };
  }

  private matches(found: LookupMatch[], limit: number): LookupMatch[] {
    return found.filter((x) => this.visible(x.entity.id)).slice(0, limit);
  }
  async lookup(name: string, limit = 10): Promise<LookupMatch[]> { return this.matches(await this.host.lookup(name, limit * 4 + 20), limit); }
  async suggest(prefix: string, limit = 10): Promise<LookupMatch[]> { return this.matches(await this.host.suggest(prefix, limit * 4 + 20), limit); }

  /**
   * every visible entity's summary by name (then id), once per lens: the model's entities in the order every
   * lens shares, those players see kept, merged with the few visible entities that have no note (made by events)
   */
  private sorted(): EntitySummary[] {
    const memo = memoOf(this.lens);
    if (memo.sorted) return memo.sorted;
    const m = this.host.engine.model;
    const notes = this.shared.sorted().filter((e) => this.visible(e.id));
    const others: EntitySummary[] = [];
    for (const id of this.lens.visible) {
      if (m.entity(id)) continue;
      const e = this.summary(id);
      if (e) others.push(e);
    }
    if (!others.length) return (memo.sorted = notes);
    others.sort(bySummary);
    const all: EntitySummary[] = [];
    let i = 0, j = 0;
    while (i < notes.length || j < others.length) {
      if (j >= others.length || (i < notes.length && bySummary(notes[i]!, others[j]!) <= 0)) all.push(notes[i++]!);
      else all.push(others[j++]!);
    }
    return (memo.sorted = all);
  }

  async list(filter: ListFilter = {}): Promise<{ items: EntitySummary[]; total: number }> {
    const tag = filter.tag?.replace(/^#/, '').toLowerCase();
    const type = filter.type?.toLowerCase();
    const items: EntitySummary[] = [];
    for (const e of this.sorted()) {
      if (e.placeholder && !filter.placeholders) continue;
      if (type && e.type?.toLowerCase() !== type) continue;
      if (filter.layer && e.layer !== filter.layer) continue;
      if (tag && !e.tags.some((t) => { const l = t.toLowerCase(); return l === tag || l.startsWith(tag + '/'); })) continue;
      items.push(e);
    }
    const offset = Math.max(0, filter.offset ?? 0);
    return { items: items.slice(offset, offset + (filter.limit ?? items.length)), total: items.length };
  }

  /** the relationships players see from one entity, as (step, other end) */
  private edgesOf(id: string, direction: Direction, type?: string): Array<{ step: Omit<TraversalStep, 'depth'>; other: string }> {
    const m = this.host.engine.model;
    const out: Array<{ step: Omit<TraversalStep, 'depth'>; other: string }> = [];
    const ix = this.host.index;
    for (const r of m.edgesFrom(id)) {
      if ((type && r.type !== type) || !this.lens.edgeVisible(r)) continue;
      const sym = ix.isSymmetric(r.type);
      if (direction === 'in' && !sym) continue;
      out.push({ step: { from: r.from, to: r.to, type: r.type, label: r.type, direction: sym ? 'both' : 'out', ...(r.properties ? { properties: r.properties } : {}) }, other: r.to });
    }
    for (const r of m.edgesTo(id)) {
      if (r.from === id || (type && r.type !== type) || !this.lens.edgeVisible(r)) continue;
      const sym = ix.isSymmetric(r.type);
      if (direction === 'out' && !sym) continue;
      out.push({ step: { from: r.from, to: r.to, type: r.type, label: sym ? r.type : ix.inverseOf(r.type) ?? r.type, direction: sym ? 'both' : 'in', ...(r.inverseProperties ? { properties: r.inverseProperties } : {}) }, other: r.from });
    }
    return out;
  }

  async relations(nameOrId: string, opts: { depth?: number; type?: string; direction?: Direction } = {}): Promise<Traversal> {
    const root = this.must(nameOrId);
    const depth = Math.min(5, Math.max(1, Math.floor(opts.depth ?? 1)));
    let type = opts.type;
    if (type) {
      const canon = this.host.index.canonicalName(type.toUpperCase());
      if (!canon) throw new CoreError('unknown-relationship', `'${type}' is not a relationship type of the schema`, { type });
      type = canon;
    }
    const seen = new Set([root]);
    const steps: TraversalStep[] = [];
    let frontier = [root];
    for (let d = 1; d <= depth && frontier.length; d++) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const { step, other } of this.edgesOf(id, opts.direction ?? 'both', type)) {
          if (seen.has(other)) continue;
          seen.add(other);
          next.push(other);
          steps.push({ depth: d, ...step });
        }
      }
      frontier = next;
    }
    seen.delete(root);
    return { root: this.summary(root)!, entities: [...seen].map((id) => this.summary(id)!).filter(Boolean), steps };
  }

  async path(from: string, to: string, maxDepth = 6): Promise<PathResult | null> {
    const a = this.must(from), b = this.must(to);
    const limit = Math.min(10, Math.max(1, Math.floor(maxDepth)));
    const prev = new Map<string, { id: string; step: Omit<TraversalStep, 'depth'> } | null>([[a, null]]);
    let frontier = [a];
    for (let d = 0; d < limit && frontier.length && !prev.has(b); d++) {
      const next: string[] = [];
      for (const id of frontier) for (const { step, other } of this.edgesOf(id, 'both')) {
        if (prev.has(other)) continue;
        prev.set(other, { id, step });
        next.push(other);
      }
      frontier = next;
    }
    if (!prev.has(b)) return null;
    const ids = [b];
    const steps: TraversalStep[] = [];
    for (let cur = prev.get(b); cur; cur = prev.get(cur.id)) { ids.unshift(cur.id); steps.unshift({ depth: 0, ...cur.step }); }
    steps.forEach((s, i) => { s.depth = i + 1; });
    return { entities: ids.map((id) => this.summary(id)!), steps };
  }

  /**
   * The GM's ranked search, kept only where players could have found it: a visible entity whose name, alias
   * or tag matched, or whose body as players read it holds a query word (its snippet is cut from that body).
   */
  async search(text: string, opts: { layer?: string; type?: string; limit?: number } = {}): Promise<SearchHit[]> {
    const limit = opts.limit ?? 20;
    const terms = queryTerms(text);
    const hits = await this.host.search(text, { ...opts, limit: Math.min(500, limit * 5 + 50) });
    const out: SearchHit[] = [];
    for (const h of hits) {
      if (!this.visible(h.entity.id)) continue;
      if (h.matched === 'body') {
        const rec = this.host.engine.model.entity(h.entity.id);
        const snippet = rec ? bodySnippet(this.lens.body(rec), terms) : null;
        if (!snippet) continue;
        out.push({ ...h, snippet });
      } else out.push(h);
      if (out.length >= limit) break;
    }
    return out;
  }

  async searchCount(text: string, opts: { layer?: string; type?: string } = {}): Promise<number> {
    return (await this.search(text, { ...opts, limit: 500 })).length;
  }

  cypher(): Promise<Record<string, unknown>[]> {
    return Promise.reject(new CoreError('forbidden', "raw Cypher cannot be filtered for players: query_graph is refused in the players' view (use search_lore, get_entity, get_relationships)"));
  }

  /** the trash holds deleted notes as written: GM material */
  trash(): Promise<TrashItem[]> {
    return Promise.reject(new CoreError('forbidden', "the trash is the GM's: it is not part of the players' view"));
  }

  /** problems of the notes players see, none about a hidden property or naming a hidden entity */
  problems(): Problem[] {
    const all = this.host.problems();
    const memo = memoOf(this.lens);
    if (memo.problems?.of !== all) memo.problems = { of: all, out: this.filterProblems(all) };
    return [...memo.problems.out];
  }

  private filterProblems(all: Problem[]): Problem[] {
    const m = this.host.engine.model;
    // a message naming an entity players do not see (by its name or an alias) would tell of it
    const named = this.shared.namedBy(all);
    return all.filter((p, i) => {
      const id = p.entityId ?? (p.file ? m.entityIdOfPath(p.file) : undefined);
      if (p.file && !id && /\.md$/i.test(p.file)) return false;
      if (id && !this.visible(id)) return false;
      if (id && p.field && this.lens.hidesProperty(id, p.field)) return false;
      return named(i).every((n) => this.visible(n));
    });
  }

  async graph(filter: { layer?: string } = {}): Promise<GraphSnapshot> {
    const memo = memoOf(this.lens);
    const k = filter.layer ?? '';
    let g = memo.graphs?.get(k);
    if (!g) {
      g = this.graphOf(filter);
      (memo.graphs ??= new Map()).set(k, g);
    }
    return { nodes: [...g.nodes], edges: [...g.edges] };
  }

  private graphOf(filter: { layer?: string }): GraphSnapshot {
    const nodes: EntitySummary[] = [];
    for (const id of this.lens.visible) {
      const s = this.summary(id);
      if (s && (!filter.layer || s.layer === filter.layer)) nodes.push(s);
    }
    const edges: GraphSnapshot['edges'] = [];
    eachOf(this.host.engine.model.edges(), (r) => {
      if ((!filter.layer || (this.summary(r.from)?.layer === filter.layer && this.summary(r.to)?.layer === filter.layer)) && this.lens.edgeVisible(r)) {
        edges.push(this.shared.edgeRow(r));
      }
    });
    return { nodes, edges };
  }

  /** canvas importance of the entities players see (the answer is shared: do not change it) */
  async importance(): Promise<Record<string, number>> {
    const all = await this.host.importance();
    const memo = memoOf(this.lens);
    if (memo.importance?.of !== all) {
      const out: Record<string, number> = {};
      for (const id of this.lens.visible) if (id in all) out[id] = all[id]!;
      memo.importance = { of: all, out };
    }
    return memo.importance.out;
  }
}

/**
 * A Core whose every call asks `get()` for the current view (a view is a snapshot of one model version:
 * the players' MCP keeps serving while the notes change).
 */
export function liveView<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get(_t, prop) {
      const v = get();
      const x = (v as Record<PropertyKey, unknown>)[prop];
      return typeof x === 'function' ? (x as (...a: unknown[]) => unknown).bind(v) : x;
    },
  });
}
