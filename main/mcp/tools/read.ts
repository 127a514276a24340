/**
 * Read tools over the Core facade: search_lore, lookup, get_entity,
 * get_relationships, find_path, list_entities. Each result fits the output
 * budget; lists carry total / next_cursor / truncated.
 */
import { z } from 'zod';
import { type Direction } from '../../core/index.js';
import { CoreError } from '../../domain/errors.js';
import type { TraversalStep } from '../../../shared/types.js';
import { clip, cursorKey, decodeCursor, encodeCursor, fitCount, paginate } from '../budget.js';
import {
  clipValue, describeLayers, describeRels, describeTypes, requireEntity, summary, type McpContext, type Vocabulary,
} from '../context.js';
import {
  CursorZ, EntitySummaryZ, LayerZ, MAX_QUERY, NameZ, PageFieldsZ, RelationZ, RelTypeZ, SessionZ, TagZ, TraversalStepZ, TypeNameZ,
} from '../schemas.js';
import { READ_ONLY, tool, type AnySpec } from '../tool.js';


const more = (p: { truncated: boolean; total: number; items: unknown[]; offset: number }) =>
  p.truncated ? ` Showing ${p.offset + 1}–${p.offset + p.items.length} of ${p.total}; pass next_cursor for more.` : '';

export function readTools(ctx: McpContext, v: Vocabulary): AnySpec[] {
  const { host } = ctx;
  const max = ctx.maxChars;

  const searchLore = tool({
    name: 'search_lore',
    title: 'Search the lore',
    description: `Full-text search over entity names, aliases, tags and note text; returns ranked hits with a snippet (matches in « »). ${describeTypes(v)} ${describeLayers(v)}`,
    input: {
      query: z.string().trim().min(1).max(MAX_QUERY).describe('search words'),
      layer: LayerZ.optional(), type: TypeNameZ.optional(),
      limit: z.number().int().min(1).max(50).default(10).describe('hits per page (1–50)'),
      cursor: CursorZ.optional(),
    },
    output: {
      query: z.string(),
      hits: z.array(z.object({ entity: EntitySummaryZ, score: z.number(), snippet: z.string(), matched: z.string() })),
      ...PageFieldsZ,
    },
    annotations: READ_ONLY,
    run: async (a) => {
      const offset = decodeCursor('search_lore', cursorKey('search_lore', a), a.cursor);
      const filter = { layer: a.layer, type: a.type };
      const [hits, total] = await Promise.all([host.search(a.query, { ...filter, limit: Math.min(offset + a.limit + 1, 500) }), host.searchCount(a.query, filter)]);
      const all = hits.map((h) => ({ entity: summary(h.entity), score: h.score, snippet: clip(h.snippet, 400).text, matched: h.matched }));
      const p = paginate({ tool: 'search_lore', args: a, all, total, limit: a.limit, maxChars: max,
        wrap: (pg) => ({ query: a.query, hits: pg.items, ...pg, items: undefined }) });
      const data = { query: a.query, hits: p.items, total: p.total, offset: p.offset, next_cursor: p.next_cursor, truncated: p.truncated };
      return { summary: `${p.items.length} hit(s) for "${a.query}".${more(p)}`, data };
    },
  });

  const lookup = tool({
    name: 'lookup',
    title: 'Look up a name',
    description: 'Resolve a name, alias, file name or partial name to entities, each with a confidence (1 exact name, 0.9 alias, 0.8 file name, lower for prefix/fuzzy). Use it first when a name may be ambiguous ("the dagger"), then pass the chosen id to other tools.',
    input: { name: NameZ, limit: z.number().int().min(1).max(50).default(10) },
    output: {
      name: z.string(),
      matches: z.array(z.object({ entity: EntitySummaryZ, confidence: z.number(), matched_on: z.string(), matched_text: z.string() })),
      ambiguous: z.boolean(),
      truncated: z.boolean(),
    },
    annotations: READ_ONLY,
    run: async (a) => {
      const found = await host.lookup(a.name, a.limit);
      const all = found.map((m) => ({ entity: summary(m.entity), confidence: m.confidence, matched_on: m.matchedOn, matched_text: m.matchedText }));
      const n = fitCount(all, max, (s) => ({ name: a.name, matches: s, ambiguous: true, truncated: true }));
      const matches = all.slice(0, n);
      const top = matches.filter((m) => m.confidence >= 0.8);
      const ambiguous = top.length > 1 || (top.length === 0 && matches.length > 1);
      return {
        summary: matches.length === 0 ? `No entity matches "${a.name}".`
          : `${matches.length} match(es) for "${a.name}"${ambiguous ? ' — ambiguous: pick one by id' : ''}.`,
        data: { name: a.name, matches, ambiguous, truncated: n < all.length },
      };
    },
  });

  const getEntity = tool({
    name: 'get_entity',
    title: 'Get an entity',
    description: `One entity by name, alias or id: type, layer, source file path, tags, aliases, properties, note text and its relationships both ways. With layer and session (campaign layers), properties are the state at that session. ${describeTypes(v)}`,
    input: { name: NameZ, type: TypeNameZ.optional(), layer: LayerZ.optional(), session: SessionZ.optional() },
    output: {
      entity: z.object({
        ...EntitySummaryZ.shape,
        aliases: z.array(z.string()),
        properties: z.record(z.string(), z.unknown()),
        body: z.string(),
        body_truncated: z.boolean(),
      }),
      relations: z.array(RelationZ),
      relations_total: z.number().int(),
      relations_truncated: z.boolean(),
      state: z.object({ layer: z.string(), session: z.number(), lifecycle: z.string(), exists: z.boolean(), dead: z.boolean(),
        changed_by_events: z.array(z.object({ property: z.string(), event: z.string(), path: z.string(), session: z.number(), line: z.number() })) }).nullable(),
    },
    annotations: READ_ONLY,
    run: async (a) => {
      const e = await requireEntity(host, a.name, { type: a.type, layer: a.session === undefined ? a.layer : undefined });
      let properties: Record<string, unknown>;
      let state: Record<string, unknown> | null = null;
      if (a.session !== undefined) {
        if (!a.layer) throw new CoreError('bad-arguments', 'session needs a layer (the campaign layer whose events apply)');
        if (!ctx.timeline) throw new CoreError('unavailable', 'the timeline is not available in this server: call without session');
        const st = await ctx.timeline.stateAt(e.id, a.layer, a.session);
        if (!st) throw new CoreError('not-found', `${e.name} (${e.layer}) is not visible from layer ${a.layer}`);
        properties = st.properties;
        state = { layer: a.layer, session: a.session, lifecycle: st.lifecycle, exists: st.exists, dead: st.dead,
          changed_by_events: Object.entries(st.provenance).slice(0, 40).map(([property, p]) => ({ property, event: p.name, path: p.path, session: p.session, line: p.line })) };
      } else properties = e.properties;
      const props: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(properties)) props[k] = clipValue(val, 1000);
      const body = clip(e.body, Math.floor(max / 3));
      const base = {
        entity: { ...summary(e), aliases: e.aliases, properties: props, body: body.text, body_truncated: body.clipped },
        state,
      };
      const rels = e.relations.map((r) => ({ ...r, other: summary(r.other) }));
      const n = fitCount(rels, max, (s) => ({ ...base, relations: s, relations_total: rels.length, relations_truncated: true }));
      const data = { ...base, relations: rels.slice(0, n), relations_total: rels.length, relations_truncated: n < rels.length };
      return {
        summary: `${e.name} (${e.type ?? 'untyped'}, layer ${e.layer})${e.path ? ` from ${e.path}` : ' — placeholder, no note yet'}; ${rels.length} relation(s)${n < rels.length ? `, first ${n} shown (use get_relationships with a cursor for all)` : ''}${body.clipped ? '; note text clipped' : ''}${state ? `; properties as of session ${a.session} in ${a.layer} (${String(state.lifecycle)})` : ''}.`,
        data,
      };
    },
  });

  const getRelationships = tool({
    name: 'get_relationships',
    title: 'Traverse relationships',
    description: `Entities connected to one entity, up to depth 1–5, optionally only one relationship type, in a direction (out = from this entity, in = towards it, both). Each step says depth, type and direction. ${describeRels(v)}`,
    input: {
      name: NameZ, type: RelTypeZ.optional(),
      depth: z.number().int().min(1).max(5).default(1).describe('hops, 1–5'),
      direction: z.enum(['out', 'in', 'both', 'outgoing', 'incoming']).default('both'),
      cursor: CursorZ.optional(),
    },
    output: { root: EntitySummaryZ, entities: z.array(EntitySummaryZ), steps: z.array(TraversalStepZ), ...PageFieldsZ },
    annotations: READ_ONLY,
    run: async (a) => {
      const dir: Direction = a.direction === 'outgoing' ? 'out' : a.direction === 'incoming' ? 'in' : a.direction;
      const root = await requireEntity(host, a.name);
      const t = await host.relations(root.id, { depth: a.depth, type: a.type, direction: dir });
      const byId = new Map(t.entities.map((e) => [e.id, summary(e)]));
      const ents = (steps: TraversalStep[]) => {
        const ids = new Set(steps.flatMap((s) => [s.from, s.to]));
        ids.delete(t.root.id);
        return [...ids].map((id) => byId.get(id)).filter((x): x is NonNullable<typeof x> => !!x);
      };
      const p = paginate({ tool: 'get_relationships', args: a, all: t.steps, maxChars: max,
        wrap: (pg) => ({ root: summary(t.root), entities: ents(pg.items), steps: pg.items, ...pg, items: undefined }) });
      const data = { root: summary(t.root), entities: ents(p.items), steps: p.items, total: p.total, offset: p.offset, next_cursor: p.next_cursor, truncated: p.truncated };
      return { summary: `${p.total} relationship step(s) from ${t.root.name} (depth ≤ ${a.depth}, ${dir}${a.type ? `, ${a.type}` : ''}).${more(p)}`, data };
    },
  });

  const findPath = tool({
    name: 'find_path',
    title: 'Find a path',
    description: 'The shortest chain of relationships linking two entities (any type, any direction), up to max_depth hops (default 6, at most 10).',
    input: { from: NameZ, to: NameZ, max_depth: z.number().int().min(1).max(10).default(6) },
    output: { found: z.boolean(), from: EntitySummaryZ, to: EntitySummaryZ, entities: z.array(EntitySummaryZ), steps: z.array(TraversalStepZ) },
    annotations: READ_ONLY,
    run: async (a) => {
      const [f, t] = [await requireEntity(host, a.from), await requireEntity(host, a.to)];
      const p = await host.path(f.id, t.id, a.max_depth);
      const data = { found: !!p, from: summary(f), to: summary(t), entities: (p?.entities ?? []).map(summary), steps: p?.steps ?? [] };
      return {
        summary: p ? `${f.name} → ${t.name}: ${p.steps.length} hop(s): ${p.entities.map((e) => e.name).join(' → ')}.`
          : `No path from ${f.name} to ${t.name} within ${a.max_depth} hops.`,
        data,
      };
    },
  });

  const listEntities = tool({
    name: 'list_entities',
    title: 'List entities',
    description: `List entities filtered by type, layer and tag, by name, one page at a time. ${describeTypes(v)} ${describeLayers(v)}`,
    input: {
      type: TypeNameZ.optional(), layer: LayerZ.optional(), tag: TagZ.optional(),
      cursor: CursorZ.optional(), limit: z.number().int().min(1).max(500).default(100).describe('entities per page (1–500)'),
    },
    output: { entities: z.array(EntitySummaryZ), ...PageFieldsZ },
    annotations: READ_ONLY,
    run: async (a) => {
      const key = cursorKey('list_entities', a);
      const offset = decodeCursor('list_entities', key, a.cursor);
      const r = await host.list({ type: a.type, layer: a.layer, tag: a.tag, offset, limit: a.limit });
      const items = r.items.map(summary);
      const page = (s: typeof items) => ({ entities: s, total: r.total, offset, next_cursor: 'x'.repeat(80), truncated: true });
      const n = Math.max(Math.min(1, items.length), fitCount(items, max, page));
      const end = offset + n;
      const moreLeft = end < r.total;
      const data = { entities: items.slice(0, n), total: r.total, offset, next_cursor: moreLeft ? encodeCursor('list_entities', key, end) : null, truncated: moreLeft };
      return { summary: `${r.total} entit${r.total === 1 ? 'y' : 'ies'} match.${more({ ...data, items: data.entities })}`, data };
    },
  });

  return [searchLore, lookup, getEntity, getRelationships, findPath, listEntities];
}
