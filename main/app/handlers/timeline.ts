/**
 * The `timeline-*` group (shared/contract-timeline.ts) over the session's one
 * TimelineService (session.current().timeline). Reads are synchronous lookups in the
 * engine's memoised index; "new event here" is the core's recordEvent (origin
 * 'app': one undo step; unknown participants become placeholders).
 */
import type { timelineHandlers, TimelineGraphAt, TimelineEventView } from '../../../shared/contract-timeline.js';
import type { CoreHost, CoreSession, PlayersTimeline, Provenance, TimelineEvent, TimelineService } from '../../core/index.js';
import type { Group } from './vault.js';
import type { AudienceName } from '../../../shared/contract-view.js';
import { audienceOf } from './view.js';

const APP = { origin: 'app' as const };

/** Lanes of the scrubber, in display order. */
export const LANES = ['deaths & ruin', 'creations', 'relationships', 'changes', 'sessions'] as const;

/** The lane an event is drawn in: its most dramatic consequence (valid ones only). */
export function laneOf(e: TimelineEvent, dead = /^(dead|deceased|killed|slain|destroyed|ruined|razed|fallen|lost|dissolved|disbanded|false)$/i): (typeof LANES)[number] {
  const ks = e.consequences.filter((k) => k.valid);
  if (ks.some((k) => k.kind === 'destroyed' || (k.kind === 'set' && typeof k.value === 'string' && dead.test(k.value)))) return 'deaths & ruin';
  if (ks.some((k) => k.kind === 'created')) return 'creations';
  if (ks.some((k) => k.kind === 'relationship-add' || k.kind === 'relationship-remove')) return 'relationships';
  if (ks.length > 0) return 'changes';
  return 'sessions';
}

/** 'The Burning of Millbrook, session 3' */
export function cite(p: Provenance | undefined): string | undefined {
  return p ? `${p.name}, session ${p.session}` : undefined;
}

function withTags(core: CoreHost, e: TimelineEvent): TimelineEventView {
  return { ...e, tags: core.engine.model.entity(e.id)?.tags ?? [] };
}

/** The canvas overlay for (layer, session): only what deviates from the base graph. */
/** the timeline as the audience sees it: the GM's, or the players' (GM-only events never applied, hidden entities gone) */
function timelineFor(session: CoreSession, asked?: AudienceName): Pick<TimelineService, 'frame' | 'graphAt' | 'timeline' | 'sessions' | 'stateAt' | 'diff'> & Partial<Pick<PlayersTimeline, 'overlayStates'>> {
  const core = session.current();
  // players: nothing past the view's session (the renderer moves the view's session before it steps there)
  return audienceOf(core, asked) === 'players' ? core.playersTimeline(core.viewAt().session) : core.timeline;
}

export function overlayAt(session: CoreSession, layer: string, at: number | null, audience?: AudienceName): TimelineGraphAt {
  return overlayOf(timelineFor(session, audience), layer, at);
}

/** the overlay over one audience's timeline (the players' reads overlayStates when it has it, else graphAt) */
export function overlayOf(tl: Pick<TimelineService, 'frame' | 'graphAt' | 'timeline'> & Partial<Pick<PlayersTimeline, 'overlayStates'>>, layer: string, at: number | null): TimelineGraphAt {
  const frame = tl.frame(layer, at);
  // memoised: frame() computed it already (the players' overlay reads only the lifecycles: no property redacted)
  const graph = tl.overlayStates ? tl.overlayStates(layer, at) : tl.graphAt(layer, at);
  const entities: TimelineGraphAt['entities'] = {};
  const dead = new Set(frame.dead);
  for (const e of graph.entities) {
    if (e.lifecycle === 'not-yet-created') {
      entities[e.id] = { status: 'not-yet-created' };
    } else if (dead.has(e.id)) {
      // dead wins over destroyed: a slain NPC is shown dead (the note names both when both hold)
      const note = cite(e.died);
      const also = e.lifecycle === 'destroyed' && e.destroyed && cite(e.destroyed) !== note ? `; destroyed ← ${cite(e.destroyed)}` : '';
      entities[e.id] = { status: 'dead', ...(note ? { note: `dead ← ${note}${also}` } : {}) };
    } else if (e.lifecycle === 'destroyed') {
      const note = cite(e.destroyed);
      entities[e.id] = { status: 'destroyed', ...(note ? { note: `destroyed ← ${note}` } : {}) };
    } else if (e.created) {
      // 'created' = came into being at the session shown; later it is simply alive (the note still says since when)
      entities[e.id] = { status: e.created.session === at ? 'created' : 'alive', note: `created ← ${cite(e.created)}` };
    }
  }
  const names = new Map(tl.timeline(layer).map((ev) => [ev.id, ev]));
  const removedBy = new Map(graph.removedRelationships.map((r) => [`${r.from}\u0000${r.type}\u0000${r.to}`, r.removedBy]));
  return {
    layer, session: frame.session, entities,
    addedEdges: frame.added.map((a) => {
      const ev = names.get(a.event);
      return { from: a.from, to: a.to, type: a.type, ...(ev ? { note: `added ← ${ev.name}, session ${ev.session}` } : {}) };
    }),
    removedEdges: frame.hidden.map((h) => {
      const note = cite(removedBy.get(`${h.from}\u0000${h.type}\u0000${h.to}`));
      return { from: h.from, to: h.to, type: h.type, ...(note ? { note: `removed ← ${note}` } : {}) };
    }),
    changed: frame.changed,
  };
}

export function timelineGroup(session: CoreSession): Group<typeof timelineHandlers> {
  const core = () => session.current();
  const tl = (audience?: AudienceName) => timelineFor(session, audience);
  return {
    'timeline-sessions': async ({ layer, audience }) => {
      const c = core();
      const sessions = tl(audience).sessions(layer);
      const events = tl(audience).timeline(layer);
      const laneMap: Record<string, string> = {};
      for (const e of events) laneMap[e.id] = laneOf(e);
      const used = new Set(Object.values(laneMap));
      const first = sessions[0]?.session ?? 1;
      return {
        layer, sessions, events: events.map((e) => withTags(c, e)),
        lanes: LANES.filter((l) => used.has(l)), laneOf: laneMap,
        before: Math.min(0, first - 1),
      };
    },
    'timeline-events': async ({ layer, from, to, entity, audience }) => {
      const c = core();
      const q = { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}), ...(entity !== undefined ? { entity } : {}) };
      return tl(audience).timeline(layer, q).map((e) => withTags(c, e));
    },
    'timeline-graph-at': async ({ layer, session: at, audience }) => overlayAt(session, layer, at, audience),
    'timeline-state': async ({ nameOrId, layer, session: at, audience }) => tl(audience).stateAt(nameOrId, layer, at ?? null),
    'timeline-diff': async ({ layer, from, to, audience }) => tl(audience).diff(layer, from, to),
    'timeline-create-event': async ({ layer, session: at, title, date, participants, location, consequences }) => {
      const r = await core().recordEvent({
        layer, session: at, title, placeholders: true,
        ...(date ? { date } : {}), ...(participants ? { participants } : {}), ...(location ? { location } : {}),
        ...(consequences ? { consequences: consequences as Array<Record<string, unknown>> } : {}),
      }, APP);
      return { id: r.id, path: r.path, changed: r.changed, event: r.event };
    },
  };
}
