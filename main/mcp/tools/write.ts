/**
 * Write tools (read-write mode only): create_entity, update_entity,
 * add_relationship, remove_relationship, record_event. They go through the
 * same write-back commands as the UI (schema validation, lossless YAML edit,
 * conflict check, atomic write, origin 'mcp') and return the file path(s) and
 * the diff written, so the GM can read and undo what the agent did.
 */
import { z } from 'zod';
import { CoreError } from '../../domain/errors.js';
import type { McpEditor, WriteResult } from '../adapters.js';
import { clip } from '../budget.js';
import { describeLayers, describeRels, describeTypes, summary, type McpContext, type Vocabulary } from '../context.js';
import {
  LayerZ, MAX_TEXT, NameZ, NewNameZ, PropsZ, PropValueZ, RelTypeZ, SessionZ, TypeNameZ, WriteOutZ,
} from '../schemas.js';
import { tool, type AnySpec } from '../tool.js';


const ConsequenceZ = z.object({
  entity: NameZ,
  property: z.string().min(1).max(100).optional(),
  relationship: RelTypeZ.optional(),
  value: PropValueZ.optional(),
  add: z.union([z.string().max(500), z.number()]).optional(),
  remove: z.union([z.string().max(500), z.number()]).optional(),
  unset: z.boolean().optional(),
  destroyed: z.boolean().optional(),
  created: z.boolean().optional(),
}).strict();

export function writeTools(ctx: McpContext, v: Vocabulary, editor: McpEditor): AnySpec[] {
  const { host } = ctx;

  async function done(r: WriteResult, verb: string, entityRef?: string) {
    const per = Math.floor(ctx.maxChars / Math.max(1, r.changed.length)) - 200;
    const changed = r.changed.map((c) => {
      const d = clip(c.diff, Math.max(200, per));
      return { path: c.path, diff: d.text, diff_truncated: d.clipped };
    });
    const ref = r.entityId ?? entityRef;
    const e = ref ? await host.getEntity(ref).catch(() => null) : null;
    const data = { paths: changed.map((c) => c.path), changed, entity: e ? summary(e) : null };
    return { summary: `${verb}: wrote ${changed.map((c) => c.path).join(', ') || 'nothing (no change needed)'}.`, data };
  }

  const createEntity = tool({
    name: 'create_entity',
    title: 'Create an entity (new note)',
    description: `Create a new note for an entity, in its type's folder, with frontmatter validated against the schema. ${describeTypes(v)} ${describeLayers(v)} Relationship fields are properties whose values are names (e.g. a list of names).`,
    input: {
      name: NewNameZ, type: TypeNameZ, layer: LayerZ.optional(),
      properties: PropsZ.optional(), body: z.string().max(MAX_TEXT).optional().describe('markdown note text'),
    },
    output: WriteOutZ,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (a) => {
      if (!v.types.includes(a.type) && v.types.length > 0) {
        throw new CoreError('unknown-type', `unknown entity type "${a.type}"; the schema has: ${v.types.join(', ')}`);
      }
      return done(await editor.createEntity(a), `created ${a.name}`, a.layer ? `${a.layer}/${a.name}` : a.name);
    },
  });

  const updateEntity = tool({
    name: 'update_entity',
    title: 'Update an entity',
    description: 'Set or unset frontmatter properties of an existing note (validated against the schema; only the changed lines are rewritten).',
    input: {
      name: NameZ, layer: LayerZ.optional(),
      set: PropsZ.optional().describe('properties to set: name -> value'),
      unset: z.array(z.string().min(1).max(100)).max(50).optional().describe('properties to remove'),
    },
    output: WriteOutZ,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (a) => {
      if (!a.set && !a.unset?.length) throw new CoreError('bad-arguments', 'nothing to do: give set and/or unset');
      return done(await editor.updateEntity(a), `updated ${a.name}`, a.name);
    },
  });

  const relInput = {
    from: NameZ, type: RelTypeZ.describe('relationship type (or its inverse name)'), to: NameZ, layer: LayerZ.optional(),
  };
  const addRel = tool({
    name: 'add_relationship',
    title: 'Add a relationship',
    description: `Add a relationship from one entity to another by writing the mapped frontmatter field of the note that declares it. ${describeRels(v)} properties: the relationship's own (as declared for its type in get_schema, plus since / until: a session number or an event), written on that item as { to: "[[Target]]", key: value }; on an existing relationship they are set on it.`,
    input: { ...relInput, properties: PropsZ.optional().describe("the relationship's own properties, e.g. { attitude: 'wary', trust: 2, until: 4 }") },
    output: WriteOutZ,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (a) => done(await editor.addRelationship(a), `added ${a.from} ${a.type} ${a.to}`, a.from),
  });
  const removeRel = tool({
    name: 'remove_relationship',
    title: 'Remove a relationship',
    description: `Remove a relationship declared in frontmatter (body links are left alone). ${describeRels(v)}`,
    input: relInput,
    output: WriteOutZ,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (a) => done(await editor.removeRelationship(a), `removed ${a.from} ${a.type} ${a.to}`, a.from),
  });

  const campaign = host.config().layers.filter((l) => !l.canonical).map((l) => l.name);
  const recordEvent = tool({
    name: 'record_event',
    title: 'Record an event',
    description: `Record what happened at a session as an event note (type ${v.eventType}) in a campaign layer (${campaign.join(', ') || 'none defined'}), with participants, location and consequences (e.g. {entity, property, value}, {entity, destroyed: true}, {entity, relationship, add}).`,
    input: {
      layer: LayerZ, title: NewNameZ, session: SessionZ,
      date_in_world: z.string().max(40).optional(),
      participants: z.array(NameZ).max(50).optional(), location: NameZ.optional(),
      consequences: z.array(ConsequenceZ).max(50).optional(),
      body: z.string().max(MAX_TEXT).optional(),
    },
    output: WriteOutZ,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (a) => {
      if (!host.config().layers.some((l) => l.name === a.layer && !l.canonical)) {
        throw new CoreError('unknown-layer', `events go in a campaign (non-canonical) layer; campaign layers: ${campaign.join(', ') || 'none'}`);
      }
      return done(await editor.recordEvent(a), `recorded ${a.title}`, `${a.layer}/${a.title}`);
    },
  });

  return [createEntity, updateEntity, addRel, removeRel, recordEvent];
}
