/**
 * Time-aware tools over the timeline (main/timeline): get_current_state with
 * provenance, get_timeline. Registered only when a timeline is given.
 */
import { z } from 'zod';
import { CoreError } from '../../domain/errors.js';
import { clip, paginate } from '../budget.js';
import { clipValue, describeLayers, requireEntity, summary, type McpContext, type Vocabulary } from '../context.js';
import { CursorZ, EntitySummaryZ, LayerZ, NameZ, PageFieldsZ, SessionZ } from '../schemas.js';
import { READ_ONLY, tool, type AnySpec } from '../tool.js';
import type { McpTimeline } from '../adapters.js';
import type { EntityStateView, TimelineEvent } from '../../core/index.js';


const ProvZ = z.object({ event: z.string(), name: z.string(), path: z.string(), session: z.number(), date: z.string().optional(), line: z.number() });
const RelStateZ = z.object({ from: z.string(), to: z.string(), type: z.string(), origin: z.enum(['base', 'event']), provenance: ProvZ.optional() });

/** Event as the tools show it: names instead of resolved refs, consequences as one-line texts. */
export function eventRow(e: TimelineEvent) {
  return {
    id: e.id, name: clip(e.name, 200).text, path: e.path, layer: e.layer, session: e.session, date: e.date?.display ?? e.date?.label ?? null, date_written: e.date?.label ?? null, ordinal: e.date?.ordinal ?? null,
    participants: e.participants.map((p) => p.name), location: e.location?.name ?? null,
    consequences: e.consequences.slice(0, 30).map((c) => ({ text: clip(c.text, 300).text, valid: c.valid, line: c.line })),
  };
}

export const EventRowZ = z.object({
  id: z.string(), name: z.string(), path: z.string(), layer: z.string(), session: z.number().nullable(), date: z.string().nullable().describe("the in-world date in the world's calendar format"),
  date_written: z.string().nullable().describe('the date as written in the note'), ordinal: z.number().nullable().describe("days since the calendar's epoch (calendar order); null without a calendar"),
  participants: z.array(z.string()), location: z.string().nullable(),
  consequences: z.array(z.object({ text: z.string(), valid: z.boolean(), line: z.number() })),
});

const removedRow = ({ removedBy, ...r }: EntityStateView['removedRelationships'][number]) => ({ ...r, removed_by: removedBy });

export function timeTools(ctx: McpContext, v: Vocabulary, timeline: McpTimeline): AnySpec[] {
  const { host } = ctx;
  const max = ctx.maxChars;
  const campaign = host.config().layers.filter((l) => !l.canonical).map((l) => l.name);
  const layerCheck = (layer: string) => {
    if (!host.config().layers.some((l) => l.name === layer)) {
      throw new CoreError('unknown-layer', `no layer named "${layer}"; layers: ${host.config().layers.map((l) => l.name).join(', ')}`);
    }
  };

  const currentState = tool({
    name: 'get_current_state',
    title: 'State of an entity at a session',
    description: `The effective state of an entity in a campaign layer: the canonical note with every event's consequences applied in order (session, in-world date, file) up to a session (default: all). Each value says where it comes from (base note or event file). Campaign layers: ${campaign.join(', ') || '(none)'}. ${describeLayers(v)}`,
    input: { name: NameZ, layer: LayerZ, session: SessionZ.optional(), cursor: CursorZ.optional() },
    output: {
      entity: EntitySummaryZ, layer: z.string(), session: z.number().nullable(),
      lifecycle: z.enum(['not-yet-created', 'exists', 'destroyed']), exists: z.boolean(), dead: z.boolean(),
      created: ProvZ.nullable(), destroyed: ProvZ.nullable(), died: ProvZ.nullable(),
      properties: z.record(z.string(), z.unknown()),
      changed_by_events: z.array(z.object({ property: z.string(), value: z.unknown(), provenance: ProvZ })),
      base_path: z.string().nullable(),
      relationships: z.array(RelStateZ),
      removed_relationships: z.array(RelStateZ.extend({ removed_by: ProvZ })),
      ...PageFieldsZ,
    },
    annotations: READ_ONLY,
    run: async (a) => {
      layerCheck(a.layer);
      const e = await requireEntity(host, a.name);
      const st = await timeline.stateAt(e.id, a.layer, a.session ?? null);
      if (!st) throw new CoreError('not-found', `${e.name} (${e.layer}) is not visible from layer ${a.layer}`);
      const properties: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(st.properties)) properties[k] = clipValue(val, 1000);
      const changed = Object.entries(st.provenance).map(([property, provenance]) => ({ property, value: clipValue(st.properties[property] ?? null, 300), provenance }));
      const base = {
        entity: summary(e), layer: a.layer, session: a.session ?? null, lifecycle: st.lifecycle, exists: st.exists, dead: st.dead,
        created: st.created ?? null, destroyed: st.destroyed ?? null, died: st.died ?? null, properties, changed_by_events: changed, base_path: e.path,
      };
      // relationships, then removed ones: one sequence cut into pages that fit the budget (next_cursor for more)
      type Entry = { rel: (typeof st.relationships)[number] } | { removed: ReturnType<typeof removedRow> };
      const all: Entry[] = [...st.relationships.map((rel) => ({ rel })), ...st.removedRelationships.map((r) => ({ removed: removedRow(r) }))];
      // a later page carries the relationships only: the properties are on the first page
      const build = (items: Entry[], offset: number) => ({
        ...base, ...(offset > 0 ? { properties: {}, changed_by_events: [] } : {}), relationships: items.flatMap((x) => ('rel' in x ? [x.rel] : [])), removed_relationships: items.flatMap((x) => ('removed' in x ? [x.removed] : [])),
      });
      const pg = paginate({ tool: 'get_current_state', args: a, all, maxChars: max, wrap: (x) => ({ ...build(x.items, x.offset), ...x, items: undefined }) });
      const data = { ...build(pg.items, pg.offset), total: pg.total, offset: pg.offset, next_cursor: pg.next_cursor, truncated: pg.truncated };
      return {
        summary: `${e.name} in ${a.layer}${a.session !== undefined ? ` at session ${a.session}` : ' after every event'}: ${st.lifecycle}${st.dead ? ', dead' : ''}; ${changed.length} propert${changed.length === 1 ? 'y' : 'ies'} set by events${e.path ? `, the rest from ${e.path}` : ''}.${pg.offset > 0 ? ' (properties: on the first page)' : ''}${pg.truncated ? ` Relationships ${pg.offset + 1}–${pg.offset + pg.items.length} of ${pg.total}; pass next_cursor for more.` : ''}`,
        data,
      };
    },
  });

  const getTimeline = tool({
    name: 'get_timeline',
    title: 'Timeline of a layer',
    description: `Events of a campaign layer in order (session, in-world date, file), optionally only those involving an entity and within a session range; each with participants, location and consequences. Campaign layers: ${campaign.join(', ') || '(none)'}.`,
    input: {
      layer: LayerZ, entity: NameZ.optional(),
      from_session: SessionZ.optional(), to_session: SessionZ.optional(), cursor: CursorZ.optional(),
    },
    output: {
      layer: z.string(),
      events: z.array(EventRowZ),
      ...PageFieldsZ,
    },
    annotations: READ_ONLY,
    run: async (a) => {
      layerCheck(a.layer);
      if (a.from_session !== undefined && a.to_session !== undefined && a.from_session > a.to_session) {
        throw new CoreError('bad-arguments', `from_session (${a.from_session}) is after to_session (${a.to_session})`);
      }
      const ent = a.entity ? (await requireEntity(host, a.entity)).id : undefined;
      const evs = await timeline.timeline(a.layer, { entity: ent, from: a.from_session, to: a.to_session });
      const rows = evs.map(eventRow);
      const pg = paginate({ tool: 'get_timeline', args: a, all: rows, maxChars: max, wrap: (x) => ({ layer: a.layer, events: x.items, ...x, items: undefined }) });
      const data = { layer: a.layer, events: pg.items, total: pg.total, offset: pg.offset, next_cursor: pg.next_cursor, truncated: pg.truncated };
      return { summary: `${pg.total} event(s) in ${a.layer}.${pg.truncated ? ` Showing ${pg.offset + 1}–${pg.offset + pg.items.length}; pass next_cursor for more.` : ''}`, data };
    },
  });

  return [currentState, getTimeline];
}
