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
import type { EntityRecord, PropertyValue } from '../../shared/types.js';
import { buildTimelineIndex } from '../timeline/timeline-index.js';
import type { TimelineInput } from '../timeline/compile.js';
import type { Lifecycle, TimelineEvent } from '../timeline/types.js';
import type { Audience } from './rules.js';
import { hiddenEvents, lensAt, type LensRelationship, type LensSource } from './lens.js';

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

export type WorldRelationship = LensRelationship;

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

export function defaultLayer(input: Pick<TimelineInput, 'config'>): string {
  const campaigns = input.config.layers.filter((l) => !l.canonical);
  return (campaigns.length === 1 ? campaigns[0]! : input.config.layers[0]!).name;
}

export function worldAt(input: TimelineInput, q: WorldQuery): WorldView {
  const records = new Map<string, EntityRecord>();
  for (const e of input.entities) records.set(e.id, e);
  const src: LensSource = {
    config: input.config, schema: input.schema,
    entity: (id) => records.get(id), entities: () => records.values(), relationships: () => input.relationships,
  };
  // the events the audience never learns of are left out before the timeline applies anything
  const events = [...input.events];
  const hidden = hiddenEvents(src, q.audience, events.map((e) => e.id));
  const ix = buildTimelineIndex({ ...input, events: hidden.size ? events.filter((e) => !hidden.has(e.id)) : events });
  const lens = lensAt(src, ix, { audience: q.audience, layer: q.layer ?? defaultLayer(input), session: q.session ?? null });

  const entities: WorldEntity[] = [];
  for (const st of lens.graph.entities) {
    if (!lens.visible.has(st.id)) continue;
    const rec = records.get(st.id);
    entities.push({
      id: st.id, name: st.name, type: st.type, layer: st.layer, path: rec?.path ?? null, placeholder: st.placeholder || st.virtual,
      tags: rec?.tags ?? [], aliases: rec?.aliases ?? [], properties: lens.properties(st.id, st.properties), body: rec ? lens.body(rec) : '',
      lifecycle: st.lifecycle, dead: st.dead,
    });
  }
  entities.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));

  const nameOf = (id: string | null) => (id && lens.visible.has(id) ? lens.state(id)?.name ?? null : null);
  const eventRows: WorldEvent[] = lens.applied.map((raw: TimelineEvent) => {
    const e = lens.event(raw);
    return {
      id: e.id, name: e.name, session: e.session, date: e.date ? e.date.display ?? e.date.label : null,
      participants: e.participants.map((p) => nameOf(p.id)).filter((n): n is string => n !== null),
      location: nameOf(e.location?.id ?? null),
      consequences: e.consequences.filter((c) => c.valid && (!c.entity || lens.visible.has(c.entity)) && (!c.target || lens.visible.has(c.target))).map((c) => c.text),
    };
  });

  return { audience: q.audience, layer: lens.layer, session: lens.session, project: input.config.project, entities, relationships: lens.relationships, events: eventRows };
}
