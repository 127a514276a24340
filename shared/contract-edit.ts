/**
 * The `edit-*` handler group: every UI writer (form, prose, canvas, timeline)
 * changes notes through these channels, which call the one write-back path
 * (main/edit/commands.ts) with origin 'app' — so they enter the undo history;
 * changes from disk or MCP never do.
 *
 * Refusals come back as wire errors with the CoreError code: 'invalid' (the
 * schema refuses the value; `details.field` names the field), 'conflict' (the
 * file changed on disk since the graph read it; `details.path`), 'not-found'.
 * The UI shows `message` inline or in a toast.
 */
import { z } from 'zod';
import { handler, ChangeEventZ, EntitySummaryZ } from './schemas.js';

const Name = z.string().min(1);
/** frontmatter values are arbitrary JSON (the schema validates them in main) */
const Value = z.unknown();

export const ChangedZ = z.object({ path: z.string(), diff: z.string() });
/** What every write returns: the files it changed (unified diffs) and the change event it caused. */
export const EditResultZ = z.object({ changed: z.array(ChangedZ), event: ChangeEventZ });
export type EditResultView = z.infer<typeof EditResultZ>;

export const TrashItemZ = z.object({ trashPath: z.string(), path: z.string(), deletedAt: z.string(), size: z.number() });
export type TrashItemView = z.infer<typeof TrashItemZ>;

const HistoryItemZ = z.object({ id: z.number(), label: z.string(), origin: z.enum(['app', 'mcp']), at: z.string(), paths: z.array(z.string()) });

/** One relationship the schema allows between two entities, ready to pass to edit-link as (from, rel, to). */
export const AllowedRelZ = z.object({
  /** what to show: the name read from `from` to `to` (an inverse name when the field lives on `to`) */
  label: z.string(),
  /** edit-link arguments */
  from: z.string(), rel: z.string(), to: z.string(),
  /** canonical relationship type */
  relationship: z.string(),
  /** the frontmatter field written, and on which end's note */
  field: z.string(),
  on: z.enum(['from', 'to']),
  /** why edit-link would refuse it (the note's layer cannot see the other end); absent when it can be written */
  refused: z.string().optional(),
  /** the field is single-valued and holds this now: writing replaces it (the UI asks first) */
  replaces: z.string().optional(),
});
export type AllowedRel = z.infer<typeof AllowedRelZ>;

/** One item of a note that writes a relationship (edit-rel-items): who writes it, by which name, where, and its own properties. */
export const RelItemZ = z.object({
  holder: z.object({ id: z.string(), name: z.string() }),
  /** the relationship's name as the holder's note reads it: edit-rel-set's `rel` (with holder as `from`, other as `to`) */
  rel: z.string(),
  other: z.object({ id: z.string(), name: z.string() }),
  field: z.string(),
  path: z.string(),
  properties: z.record(z.string(), Value),
});
export type RelItem = z.infer<typeof RelItemZ>;

export const PropertyDefViewZ = z.object({
  name: z.string(),
  type: z.enum(['string', 'integer', 'number', 'boolean', 'date', 'enum', 'list']),
  values: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
  items: z.enum(['string', 'integer', 'number', 'boolean', 'date']).optional(),
  required: z.boolean(),
  description: z.string().optional(),
});
export type PropertyDefView = z.infer<typeof PropertyDefViewZ>;

export const MappingViewZ = z.object({
  field: z.string(),
  /** the name as declared on the mapping (canonical or inverse) */
  label: z.string(),
  relationship: z.string(),
  targetTypes: z.array(z.string()).nullable(),
  cardinality: z.enum(['list', 'scalar']),
});
export type MappingView = z.infer<typeof MappingViewZ>;

/** Everything the form and the prose editor need for one note, read from the file itself. */
export const EditFormZ = z.object({
  entity: EntitySummaryZ.extend({ aliases: z.array(z.string()) }),
  titleField: z.string(),
  properties: z.array(PropertyDefViewZ),
  mappings: z.array(MappingViewZ),
  /** the note's frontmatter as parsed (every key, relationship fields included) */
  values: z.record(z.string(), Value),
  /** the body exactly as in the file (after the frontmatter); edit-body takes the same shape */
  body: z.string(),
  /** sha256 of the file bytes the form was built from */
  hash: z.string(),
  /** entity types a new entity can take (for "create it") */
  types: z.array(z.string()),
});
export type EditForm = z.infer<typeof EditFormZ>;

export const editHandlers = {
  'edit-form': handler(z.object({ nameOrId: Name }).strict(), EditFormZ),
  'edit-set': handler(z.object({ nameOrId: Name, field: Name, value: Value }).strict(), EditResultZ),
  'edit-unset': handler(z.object({ nameOrId: Name, field: Name }).strict(), EditResultZ),
  /** placeholder: `to` may name no note yet; it is then written by name on `from`'s note */
  'edit-link': handler(z.object({ from: Name, rel: Name, to: Name, placeholder: z.boolean().optional() }).strict(), EditResultZ),
  'edit-unlink': handler(z.object({ from: Name, rel: Name, to: Name }).strict(), EditResultZ),
  /** one of `from -[rel]-> to`'s own properties as from's note writes it (the item becomes a map; one line changes) */
  'edit-rel-set': handler(z.object({ from: Name, rel: Name, to: Name, key: Name, value: Value }).strict(), EditResultZ),
  /** the items that write the edge `from -[type]-> to` (either end's note), each with its own properties */
  'edit-rel-items': handler(z.object({ from: Name, type: Name, to: Name }).strict(), z.array(RelItemZ)),
  /** remove one; the item turns back into its plain form when none is left */
  'edit-rel-unset': handler(z.object({ from: Name, rel: Name, to: Name, key: Name }).strict(), EditResultZ),
  'edit-create': handler(
    z.object({ type: Name, name: Name, layer: z.string().min(1).optional(), properties: z.record(z.string(), Value).optional() }).strict(),
    EditResultZ.extend({ id: z.string(), path: z.string() }),
  ),
  'edit-rename': handler(z.object({ nameOrId: Name, newName: Name }).strict(), EditResultZ.extend({ path: z.string() })),
  'edit-delete': handler(z.object({ nameOrId: Name }).strict(), EditResultZ.extend({ referrers: z.array(z.string()), trashPath: z.string() })),
  /** before a delete: the notes whose links it would leave dangling (a confirmation lists them) */
  'edit-delete-preview': handler(z.object({ nameOrId: Name }).strict(), z.object({
    id: z.string(), name: z.string(), path: z.string(), referrers: z.array(z.object({ path: z.string(), name: z.string() })),
  })),
  /** the vault's trash (.lorecraft/trash), most recently deleted first */
  'edit-trash': handler(z.object({}).strict(), z.array(TrashItemZ)),
  /** moves a trashed file back to its path (one undo step); 'conflict' when a file is there */
  'edit-restore': handler(z.object({ trashPath: z.string().min(1) }).strict(), EditResultZ.extend({ path: z.string() })),
  'edit-body': handler(z.object({ nameOrId: Name, body: z.string() }).strict(), EditResultZ),
  'edit-undo': handler(z.object({}).strict(), EditResultZ.extend({ label: z.string() })),
  'edit-redo': handler(z.object({}).strict(), EditResultZ.extend({ label: z.string() })),
  'edit-history': handler(z.object({}).strict(), z.object({ undo: z.array(HistoryItemZ), redo: z.array(HistoryItemZ) })),
  /** relationship choices the schema allows from `fromId` to `toId` (ids or names) */
  'edit-allowed-relationships': handler(z.object({ fromId: Name, toId: Name }).strict(), z.array(AllowedRelZ)),
};
