/**
 * Whole-vault tools: get_schema, get_problems, query_graph (read-only Cypher:
 * the store's cypher() guard refuses anything that writes or loads).
 */
import { z } from 'zod';
import { clip, fitCount, jsonSize, paginate } from '../budget.js';
import { describeRels, describeTypes, jsonSafe, type McpContext, type Vocabulary } from '../context.js';
import { CursorZ, MAX_CYPHER, PageFieldsZ } from '../schemas.js';
import { READ_ONLY, tool, type AnySpec } from '../tool.js';


export function worldTools(ctx: McpContext, v: Vocabulary): AnySpec[] {
  const { host } = ctx;
  const max = ctx.maxChars;

  const getSchema = tool({
    name: 'get_schema',
    title: 'Get the vault schema',
    description: `The vault's schema: entity types with their properties and relationship fields, relationship types (inverse, symmetric, hierarchy), layers and the event format. A schema larger than the output budget comes in pages (entity types, then relationship types): pass next_cursor for the next. ${describeTypes(v)}`,
    input: { cursor: CursorZ.optional() },
    output: {
      entity_types: z.array(z.object({
        name: z.string(), description: z.string().nullable(), folder: z.string().nullable(),
        properties: z.array(z.object({ name: z.string(), type: z.string(), required: z.boolean(), values: z.array(z.unknown()).nullable(), description: z.string().nullable() })),
        relationship_fields: z.array(z.object({ field: z.string(), relationship: z.string(), target_type: z.unknown() })),
      })),
      relationship_types: z.array(z.object({
        name: z.string(), inverse: z.string().nullable(), symmetric: z.boolean(), hierarchy: z.boolean(), description: z.string().nullable(),
        properties: z.array(z.object({ name: z.string(), type: z.string(), values: z.array(z.unknown()).nullable() })).describe("the relationship's own properties (add_relationship's properties); since / until are always understood"),
      })),
      layers: z.array(z.object({ name: z.string(), canonical: z.boolean(), depends_on: z.array(z.string()) })),
      events: z.record(z.string(), z.string()),
      title_field: z.string(),
      ...PageFieldsZ,
    },
    annotations: READ_ONLY,
    run: async (a) => {
      const s = host.schema();
      const d = (x?: string) => (x ? clip(x, 300).text : null);
      const types = s.entity_types.map((t) => ({
        name: t.name, description: d(t.description), folder: t.folder ?? null,
        properties: t.properties.map((p) => ({ name: p.name, type: p.type, required: p.required, values: p.values ?? null, description: d(p.description) })),
        relationship_fields: t.field_mappings.map((m) => ({ field: m.field, relationship: m.relationship, target_type: m.target_type ?? null })),
      }));
      const rels = s.relationship_types.map((r) => ({
        name: r.name, inverse: r.inverse ?? null, symmetric: r.symmetric, hierarchy: r.hierarchy, description: d(r.description),
        properties: (r.properties ?? []).map((p) => ({ name: p.name, type: p.type, values: p.values ?? null })),
      }));
      const layers = host.config().layers.map((l) => ({ name: l.name, canonical: l.canonical, depends_on: l.depends_on }));
      const ev = s.events ?? {};
      const events = {
        type: ev.type ?? 'event', session_field: ev.session_field ?? 'session', date_field: ev.date_field ?? 'date_in_world',
        participants_field: ev.participants_field ?? 'participants', location_field: ev.location_field ?? 'location',
      };
      // one sequence of entries, entity types then relationship types, cut into pages that fit the budget
      type Entry = { t: (typeof types)[number] } | { r: (typeof rels)[number] };
      // an entity type too large for a page on its own loses its descriptions and enum values, and at the
      // last its property list (said in the summary; get_entity of a note of that type shows its values)
      const room = max - jsonSize({ layers, events, title_field: s.title_field, total: 0, offset: 0, next_cursor: 'x'.repeat(120), truncated: true }) - 80;
      let leaned = 0;
      const fit = (t: (typeof types)[number]) => {
        if (jsonSize(t) <= room) return t;
        leaned++;
        const lean = { ...t, description: null, properties: t.properties.map((p) => ({ ...p, values: null, description: null })) };
        return jsonSize(lean) <= room ? lean : { ...lean, properties: lean.properties.slice(0, fitCount(lean.properties, room, (x) => ({ ...lean, properties: x }))) };
      };
      const all: Entry[] = [...types.map((t) => ({ t: fit(t) })), ...rels.map((r) => ({ r }))];
      const build = (items: Entry[]) => ({
        entity_types: items.flatMap((x) => ('t' in x ? [x.t] : [])), relationship_types: items.flatMap((x) => ('r' in x ? [x.r] : [])),
        layers, events, title_field: s.title_field,
      });
      const pg = paginate({ tool: 'get_schema', args: a, all, maxChars: max, wrap: (x) => ({ ...build(x.items), ...x, items: undefined }) });
      const data = { ...build(pg.items), total: pg.total, offset: pg.offset, next_cursor: pg.next_cursor, truncated: pg.truncated };
      return {
        summary: `${types.length} entity type(s), ${rels.length} relationship type(s), ${layers.length} layer(s).${leaned ? ` ${leaned} type(s) shown without details to fit.` : ''}${pg.truncated ? ` Showing entries ${pg.offset + 1}–${pg.offset + pg.items.length} of ${pg.total}; pass next_cursor for more.` : ''}`,
        data,
      };
    },
  });

  const getProblems = tool({
    name: 'get_problems',
    title: 'List problems',
    description: 'Validation problems in the vault (broken links, unknown types, bad values, duplicate names, hierarchy cycles, continuity rules), each with file, line, field and a fix hint.',
    input: {
      severity: z.enum(['error', 'warning', 'info']).optional(),
      file: z.string().max(500).optional().describe('only problems in this vault-relative file'),
      cursor: CursorZ.optional(),
    },
    output: {
      problems: z.array(z.object({
        severity: z.string(), code: z.string(), message: z.string(), file: z.string().nullable(),
        line: z.number().nullable(), field: z.string().nullable(), entity_id: z.string().nullable(), hint: z.string().nullable(),
      })),
      counts: z.object({ error: z.number(), warning: z.number(), info: z.number() }),
      ...PageFieldsZ,
    },
    annotations: READ_ONLY,
    run: async (a) => {
      const all = host.problems().filter((p) => (!a.severity || p.severity === a.severity) && (!a.file || p.file === a.file));
      const counts = { error: 0, warning: 0, info: 0 };
      for (const p of all) counts[p.severity]++;
      const rows = all.map((p) => ({
        severity: p.severity, code: p.code, message: clip(p.message, 500).text, file: p.file ?? null, line: p.line ?? null,
        field: p.field ?? null, entity_id: p.entityId ?? null, hint: p.hint ? clip(p.hint, 300).text : null,
      }));
      const pg = paginate({ tool: 'get_problems', args: a, all: rows, maxChars: max,
        wrap: (x) => ({ problems: x.items, counts, ...x, items: undefined }) });
      const data = { problems: pg.items, counts, total: pg.total, offset: pg.offset, next_cursor: pg.next_cursor, truncated: pg.truncated };
      return {
        summary: `${all.length} problem(s): ${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} info.${pg.truncated ? ` Showing ${pg.items.length}; pass next_cursor for more.` : ''}`,
        data,
      };
    },
  });

  const queryGraph = tool({
    name: 'query_graph',
    title: 'Query the graph (read-only Cypher)',
    description: `Run a read-only Cypher query on the vault graph (Kùzu). Nodes: Entity(id, name, type, layer, path, tags, aliases, props /*JSON*/, body, placeholder). One relationship table per type, e.g. MATCH (n:Entity {type:'npc'})-[:MEMBER_OF]->(f) RETURN n.name, f.name. ${describeRels(v)} Anything that writes or loads (CREATE, MERGE, SET, DELETE, DROP, ALTER, COPY, LOAD, INSTALL, ATTACH, …) is refused.`,
    input: { cypher: z.string().trim().min(1).max(MAX_CYPHER), cursor: CursorZ.optional() },
    output: { rows: z.array(z.record(z.string(), z.unknown())), ...PageFieldsZ },
    annotations: READ_ONLY,
    run: async (a, call) => {
      const opts = { ...(ctx.queryTimeoutMs !== undefined ? { timeoutMs: ctx.queryTimeoutMs } : {}), ...(call.signal ? { signal: call.signal } : {}) };
      const rows = (await host.cypher(a.cypher, opts)).map((r) => {
        const out: Record<string, unknown> = {};
        for (const [k, val] of Object.entries(r)) {
          const safe = jsonSafe(val);
          const s = JSON.stringify(safe) ?? 'null';
          out[k] = s.length > 2000 ? clip(s, 2000).text : safe;
        }
        return out;
      });
      const pg = paginate({ tool: 'query_graph', args: a, all: rows, maxChars: max, wrap: (x) => ({ rows: x.items, ...x, items: undefined }) });
      const data = { rows: pg.items, total: pg.total, offset: pg.offset, next_cursor: pg.next_cursor, truncated: pg.truncated };
      return { summary: `${pg.total} row(s).${pg.truncated ? ` Showing ${pg.offset + 1}–${pg.offset + pg.items.length}; pass next_cursor for more.` : ''}`, data };
    },
  });

  return [getSchema, getProblems, queryGraph];
}
