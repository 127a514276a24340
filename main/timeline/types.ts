/**
 * Timeline contract: layers, events, consequences and the state of the world
 * at (layer, session). Plain JSON-serialisable data only, so the renderer, the
 * MCP server and the CLI can use the same shapes.
 */
import type { PropertyValue } from '../../shared/types.js';

/** An in-world date as written, plus a sort key when it could be parsed. */
export interface InWorldDate {
  /** the value as written (stringified) */
  raw: string;
  /** label for display: the raw text, trimmed */
  label: string;
  /** parsed parts; undefined when the text is a free-form string */
  year?: number;
  month?: number;
  day?: number;
  era?: string;
  circa?: boolean;
  /** days since the calendar's epoch (fractional for a year or month alone): set when the world has a calendar */
  ordinal?: number;
  /** the date in the world's format (`15 Frostfall 1203 AR`); set when the world has a calendar */
  display?: string;
  /** why the world's calendar cannot read it (the date then sorts with the free-form labels) */
  invalid?: string;
}

/** Where a changed value came from. */
export interface Provenance {
  /** entity id of the event note */
  event: string;
  /** event display name */
  name: string;
  /** vault-relative path of the event note */
  path: string;
  session: number;
  /** in-world date label of the event, when it has one */
  date?: string;
  /** 1-based line of the consequence item in the event note */
  line: number;
}

export type ConsequenceKind =
  | 'set' | 'add' | 'remove' | 'unset'
  | 'relationship-add' | 'relationship-remove'
  | 'created' | 'destroyed'
  /** players learn a GM-only note (`reveals: NOTE`) or secret properties (`entity: X, reveals: [p, q]`) from this session on */
  | 'reveal';

/** One validated, resolved consequence of an event. */
export interface Consequence {
  kind: ConsequenceKind;
  /** the name as written */
  entityName: string;
  /** resolved entity id; for `created` of an entity without a note, a virtual id in the event's layer */
  entity: string | null;
  property?: string;
  /** set: the new value; add/remove: the item */
  value?: PropertyValue;
  /** relationship consequences: canonical type (an inverse name is turned around) */
  relationship?: string;
  /** relationship consequences: the other end as written, and resolved */
  targetName?: string;
  target?: string | null;
  /** the edge as stored: from -> to (after inverse handling) */
  from?: string | null;
  to?: string | null;
  line: number;
  /** false when the item has an error problem (it is listed but not applied) */
  valid: boolean;
  /** one-line human text, e.g. 'Captain Varo.status = dead' */
  text: string;
}

export interface EntityRef {
  name: string;
  /** resolved id, null when the name matches no entity in scope */
  id: string | null;
}

export interface TimelineEvent {
  /** entity id of the event note */
  id: string;
  name: string;
  path: string;
  layer: string;
  /** null when the note has no usable session number: listed last, consequences not applied */
  session: number | null;
  date: InWorldDate | null;
  participants: EntityRef[];
  location: EntityRef | null;
  consequences: Consequence[];
  /** position in the deterministic application order of its layer scope */
  order: number;
}

export interface SessionInfo {
  session: number;
  /** in-world date label of the session (the earliest dated event of it), or '' */
  dateLabel: string;
  /** 'Session 4 · 1203-05-14' */
  label: string;
  events: string[];
}

export type Lifecycle = 'not-yet-created' | 'exists' | 'destroyed';

export interface EntityState {
  id: string;
  name: string;
  type: string | null;
  layer: string;
  placeholder: boolean;
  /** true for an entity that only exists through a `created` consequence (no note) */
  virtual: boolean;
  lifecycle: Lifecycle;
  /** lifecycle === 'exists' */
  exists: boolean;
  /** a status-like property holds a "dead" value (see TimelineOptions.deadValues) */
  dead: boolean;
  created?: Provenance;
  destroyed?: Provenance;
  /** the change that made `dead` true */
  died?: Provenance;
  properties: Record<string, PropertyValue>;
  /** provenance of every property an event changed (unset properties keep their entry) */
  provenance: Record<string, Provenance>;
}

export interface RelationshipState {
  from: string;
  to: string;
  type: string;
  /** 'base' = declared in a note; 'event' = added by an event */
  origin: 'base' | 'event';
  /** when added by an event */
  provenance?: Provenance;
}

export interface GraphState {
  layer: string;
  /** the session asked for (null = after every event) */
  session: number | null;
  entities: EntityState[];
  relationships: RelationshipState[];
  /** relationships of the base that events removed by this session, with the removing event */
  removedRelationships: Array<RelationshipState & { removedBy: Provenance }>;
}

/**
 * What a scrubber step needs to restyle a canvas drawn from the base graph:
 * only the deviations from "exists, alive, as written". Small enough to send
 * over IPC/WebSocket on every step.
 */
export interface TimelineFrame {
  layer: string;
  session: number | null;
  /** entities that do not simply exist at this session: id -> lifecycle */
  lifecycle: Record<string, 'not-yet-created' | 'destroyed'>;
  /** ids of entities shown dead at this session (a status-like property says so; may also be destroyed) */
  dead: string[];
  /** relationships events added that hold at this session (not in the base graph) */
  added: Array<{ from: string; to: string; type: string; event: string }>;
  /** base relationships that do not hold at this session (removed by an event, or an end not yet created) */
  hidden: Array<{ from: string; to: string; type: string }>;
  /** entities whose properties differ from their note at this session (the editor shows provenance for them) */
  changed: string[];
}

/** One stretch of time a relationship held in a layer. */
export interface RelationshipInterval {
  from: string;
  to: string;
  type: string;
  /** the event that added it; null = written in a note (held from the start) */
  since: Provenance | null;
  /** the event that removed it; null = still holds after every event */
  until: Provenance | null;
}

export interface EntityStateView extends EntityState {
  relationships: RelationshipState[];
  removedRelationships: Array<RelationshipState & { removedBy: Provenance }>;
}

export interface PropertyChange {
  entity: string;
  name: string;
  property: string;
  before: PropertyValue | undefined;
  after: PropertyValue | undefined;
  provenance?: Provenance;
}

export interface TimelineDiff {
  layer: string;
  from: number;
  to: number;
  /** ids of the events between the two sessions (event notes themselves are not listed as created) */
  events: string[];
  created: Array<{ entity: string; name: string; provenance?: Provenance }>;
  destroyed: Array<{ entity: string; name: string; provenance?: Provenance }>;
  died: Array<{ entity: string; name: string; provenance?: Provenance }>;
  revived: Array<{ entity: string; name: string; provenance?: Provenance }>;
  changes: PropertyChange[];
  relationshipsAdded: RelationshipState[];
  relationshipsRemoved: RelationshipState[];
}

export interface TimelineQuery {
  entity?: string;
  from?: number;
  to?: number;
}

export interface TimelineOptions {
  /** property names that say whether something lives (default ['status', 'state', 'condition', 'alive']) */
  statusFields?: string[];
  /** values of those properties meaning dead/gone (case-insensitive; default dead, deceased, killed, slain, destroyed, ...) */
  deadValues?: string[];
}
