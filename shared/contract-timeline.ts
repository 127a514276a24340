/**
 * The `timeline-*` handler group: the scrubber's questions to the timeline
 * engine (main/timeline, one `createTimeline(host)` per open core) and
 * "new event here", which writes an event note through the write-back.
 *
 * Session numbers below the layer's first session mean "the world before play".
 * Unknown layers / entities come back as wire errors ('unknown-layer', 'not-found').
 */
import { z } from 'zod';
import { handler, ChangeEventZ } from './schemas.js';
import { AudienceZ } from './contract-view.js';

const Audience = AudienceZ.optional();

const Json = z.unknown();
const Layer = z.string().min(1);
const Session = z.number().int();

export const ProvenanceZ = z.object({
  event: z.string(), name: z.string(), path: z.string(), session: z.number(),
  date: z.string().optional(), line: z.number(),
});
export type ProvenanceView = z.infer<typeof ProvenanceZ>;

const InWorldDateZ = z.object({
  raw: z.string(), label: z.string(),
  year: z.number().optional(), month: z.number().optional(), day: z.number().optional(),
  era: z.string().optional(), circa: z.boolean().optional(),
  /** with the world's calendar: days since its epoch, the date in the world's format, or why it cannot be read */
  ordinal: z.number().optional(), display: z.string().optional(), invalid: z.string().optional(),
});

const EntityRefZ = z.object({ name: z.string(), id: z.string().nullable() });

const ConsequenceZ = z.object({
  kind: z.enum(['set', 'add', 'remove', 'unset', 'relationship-add', 'relationship-remove', 'created', 'destroyed', 'reveal']),
  entityName: z.string(), entity: z.string().nullable(),
  property: z.string().optional(), value: Json.optional(), relationship: z.string().optional(),
  targetName: z.string().optional(), target: z.string().nullable().optional(),
  from: z.string().nullable().optional(), to: z.string().nullable().optional(),
  line: z.number(), valid: z.boolean(), text: z.string(),
});

export const TimelineEventZ = z.object({
  id: z.string(), name: z.string(), path: z.string(), layer: z.string(),
  session: z.number().nullable(), date: InWorldDateZ.nullable(),
  participants: z.array(EntityRefZ), location: EntityRefZ.nullable(),
  consequences: z.array(ConsequenceZ), order: z.number(),
  /** the event note's entity type tags (first tag = the lane the scrubber draws it in) */
  tags: z.array(z.string()),
});
export type TimelineEventView = z.infer<typeof TimelineEventZ>;

export const SessionInfoZ = z.object({
  session: z.number(), dateLabel: z.string(), label: z.string(), events: z.array(z.string()),
});

/** What the scrubber loads once per layer: its sessions and the events to mark in lanes. */
export const TimelineSessionsZ = z.object({
  layer: z.string(),
  sessions: z.array(SessionInfoZ),
  /** every event of the layer's scope in application order (unscheduled ones last, session null) */
  events: z.array(TimelineEventZ),
  /** lane names in display order: one per consequence kind family (see main/app/handlers/timeline.ts `laneOf`) */
  lanes: z.array(z.string()),
  /** event id -> lane */
  laneOf: z.record(z.string(), z.string()),
  /** the session number that shows the world before play */
  before: z.number(),
});
export type TimelineSessions = z.infer<typeof TimelineSessionsZ>;

export const OverlayStatusZ = z.enum(['alive', 'dead', 'destroyed', 'not-yet-created', 'created']);

const EdgeZ = z.object({ from: z.string(), to: z.string(), type: z.string() });

/**
 * One scrubber step, shaped for the canvas overlay (renderer/features/canvas/overlay.ts):
 * only entities that deviate from "exists, alive, as written" are listed.
 */
export const TimelineGraphAtZ = z.object({
  layer: z.string(),
  session: z.number().nullable(),
  entities: z.record(z.string(), z.object({ status: OverlayStatusZ, note: z.string().optional() })),
  /** relationships events added that hold at this session */
  addedEdges: z.array(EdgeZ.extend({ note: z.string().optional() })),
  /** base relationships that do not hold at this session */
  removedEdges: z.array(EdgeZ.extend({ note: z.string().optional() })),
  /** entities whose values differ from their note at this session */
  changed: z.array(z.string()),
});
export type TimelineGraphAt = z.infer<typeof TimelineGraphAtZ>;

const RelationshipStateZ = z.object({
  from: z.string(), to: z.string(), type: z.string(), origin: z.enum(['base', 'event']), provenance: ProvenanceZ.optional(),
});

export const EntityStateZ = z.object({
  id: z.string(), name: z.string(), type: z.string().nullable(), layer: z.string(),
  placeholder: z.boolean(), virtual: z.boolean(),
  lifecycle: z.enum(['not-yet-created', 'exists', 'destroyed']), exists: z.boolean(), dead: z.boolean(),
  created: ProvenanceZ.optional(), destroyed: ProvenanceZ.optional(), died: ProvenanceZ.optional(),
  properties: z.record(z.string(), Json),
  provenance: z.record(z.string(), ProvenanceZ),
  relationships: z.array(RelationshipStateZ),
  removedRelationships: z.array(RelationshipStateZ.extend({ removedBy: ProvenanceZ })),
});
export type EntityStateData = z.infer<typeof EntityStateZ>;

const NamedZ = z.object({ entity: z.string(), name: z.string(), provenance: ProvenanceZ.optional() });
export const TimelineDiffZ = z.object({
  layer: z.string(), from: z.number(), to: z.number(), events: z.array(z.string()),
  created: z.array(NamedZ), destroyed: z.array(NamedZ), died: z.array(NamedZ), revived: z.array(NamedZ),
  changes: z.array(z.object({
    entity: z.string(), name: z.string(), property: z.string(),
    before: Json.optional(), after: Json.optional(), provenance: ProvenanceZ.optional(),
  })),
  relationshipsAdded: z.array(RelationshipStateZ),
  relationshipsRemoved: z.array(RelationshipStateZ),
});

/** One consequence as written in an event note (docs/timeline.md, "Consequence kinds"). */
export const ConsequenceInputZ = z.object({
  entity: z.string().min(1),
  property: z.string().min(1).optional(),
  relationship: z.string().min(1).optional(),
  value: Json.optional(),
  add: Json.optional(),
  remove: Json.optional(),
  unset: z.literal(true).optional(),
  created: z.literal(true).optional(),
  destroyed: z.literal(true).optional(),
}).strict();

export const timelineHandlers = {
  'timeline-sessions': handler(z.object({ layer: Layer, audience: Audience }).strict(), TimelineSessionsZ),
  'timeline-events': handler(
    z.object({ layer: Layer, from: Session.optional(), to: Session.optional(), entity: z.string().min(1).optional(), audience: Audience }).strict(),
    z.array(TimelineEventZ),
  ),
  'timeline-graph-at': handler(z.object({ layer: Layer, session: Session.nullable(), audience: Audience }).strict(), TimelineGraphAtZ),
  'timeline-state': handler(
    z.object({ nameOrId: z.string().min(1), layer: Layer, session: Session.nullable().optional(), audience: Audience }).strict(),
    EntityStateZ.nullable(),
  ),
  'timeline-diff': handler(z.object({ layer: Layer, from: Session, to: Session, audience: Audience }).strict(), TimelineDiffZ),
  /**
   * "New event here": an event note in `layer` (a campaign layer) at `session`, written through
   * the write-back (create, then one link per participant / the location: several undo steps).
   */
  'timeline-create-event': handler(
    z.object({
      layer: Layer, session: Session.min(0), title: z.string().trim().min(1),
      date: z.string().trim().min(1).optional(),
      participants: z.array(z.string().trim().min(1)).optional(),
      location: z.string().trim().min(1).optional(),
      consequences: z.array(ConsequenceInputZ).optional(),
    }).strict(),
    z.object({ id: z.string(), path: z.string(), changed: z.array(z.object({ path: z.string(), diff: z.string() })), event: ChangeEventZ }),
  ),
};
