/**
 * The shapes of lorecraft.yaml and schema.yaml, as zod schemas (the types are
 * inferred from them). Loading, line-numbered error reporting, defaults and
 * templates live beside this file; this file is the contract.
 */
import { z } from 'zod';
import { CalendarZ } from '../timeline/calendar.js';

export const LayerConfigZ = z.object({
  name: z.string().min(1).regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . - only'),
  /** folders (vault-relative) scanned recursively; default ['.'] */
  paths: z.array(z.string()).default(['.']),
  canonical: z.boolean().default(true),
  depends_on: z.array(z.string()).default([]),
}).strict();

export const VaultConfigZ = z.object({
  project: z.string().default('vault'),
  version: z.number().int().default(1),
  layers: z.array(LayerConfigZ).min(1).default([{ name: 'main', paths: ['.'], canonical: true, depends_on: [] }]),
  /** glob patterns (picomatch, vault-relative) of files and folders to skip */
  exclude: z.array(z.string()).default([]),
  /** who may see a note whose frontmatter says nothing (docs/vault-format.md, Visibility) */
  visibility: z.object({
    /** `players`: notes are player-visible unless marked `visibility: gm`; `gm`: GM-only unless marked `visibility: players` */
    default: z.enum(['gm', 'players']).default('players'),
    /** the frontmatter key that holds a note's visibility */
    field: z.string().min(1).default('visibility'),
  }).strict().default({ default: 'players', field: 'visibility' }),
  /** the world's own calendar: months, weekdays, eras, leap rule, display format (docs/timeline.md) */
  calendar: CalendarZ.optional(),
  /** skip template folders: `_templates`, `templates`, `z_Templates` (any case, any depth) and `template_folders` (default true) */
  exclude_templates: z.boolean().default(true),
  /** template folders (vault-relative); when absent, read from `.obsidian/templates.json` (`folder`) and
   *  Templater's `.obsidian/plugins/templater-obsidian/data.json` (`templates_folder`) at load */
  template_folders: z.array(z.string()).optional(),
  /** files at the vault root that belong to the repository, not the world (picomatch, case-insensitive):
   *  not entities, listed as vault files */
  vault_files: z.array(z.string()).default(['README*', 'LICENSE*', 'CONTRIBUTING*', 'CHANGELOG*']),
}).strict();

export const PropertyTypeZ = z.enum(['string', 'integer', 'number', 'boolean', 'date', 'enum', 'list']);

export const PropertyDefZ = z.object({
  name: z.string().min(1),
  type: PropertyTypeZ.default('string'),
  /** enum values (type enum), or allowed item values (type list, optional) */
  values: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
  /** item type for type list */
  items: z.enum(['string', 'integer', 'number', 'boolean', 'date']).optional(),
  required: z.boolean().default(false),
  default: z.unknown().optional(),
  description: z.string().optional(),
  /** GM-only: hidden from the players' view, players' exports and the players' MCP, whatever the note's visibility */
  secret: z.boolean().optional(),
}).strict();

export const FieldMappingZ = z.object({
  /** frontmatter key, matched case-sensitively */
  field: z.string().min(1),
  /** relationship type name (may be an inverse name: then the edge is stored target -> this) */
  relationship: z.string().min(1),
  /** allowed target entity types; omitted = any */
  target_type: z.union([z.string(), z.array(z.string())]).optional(),
  /** 'list' (default) or 'scalar': how the write-back writes the field */
  cardinality: z.enum(['list', 'scalar']).optional(),
  /** GM-only relationship: hidden from players whatever the note's visibility */
  secret: z.boolean().optional(),
}).strict();

export const EntityTypeZ = z.object({
  name: z.string().min(1).regex(/^[A-Za-z][A-Za-z0-9_-]*$/),
  description: z.string().optional(),
  /** folder where the write-back creates new notes of this type (vault-relative, within the layer) */
  folder: z.string().optional(),
  /** markdown body template for new notes; {{name}} is replaced */
  template: z.string().optional(),
  properties: z.array(PropertyDefZ).default([]),
  field_mappings: z.array(FieldMappingZ).default([]),
}).strict();

export const RelationshipTypeZ = z.object({
  name: z.string().min(1).regex(/^[A-Z][A-Z0-9_]*$/, 'UPPER_SNAKE_CASE'),
  inverse: z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'UPPER_SNAKE_CASE').optional(),
  symmetric: z.boolean().default(false),
  description: z.string().optional(),
  /** this relationship is containment (PART_OF-like): cycles are problems */
  hierarchy: z.boolean().default(false),
  /** this relationship means "rules / governs" (continuity rule: one ruler per place per session) */
  rules: z.boolean().default(false),
  /**
   * the relationship's own properties, written in a map item of a link-valued field
   * (`allies: [{ to: "[[Red Hand]]", attitude: wary, trust: 2 }]`); each lands as a column of the Kùzu REL table.
   * `since` and `until` (a session number or an event) are always understood: when the relationship holds.
   */
  properties: z.array(PropertyDefZ).optional(),
}).strict();

/** How a note's entity type is resolved; rules are tried in order, first match wins. */
export const TypeRuleZ = z.union([
  /** a frontmatter field whose value is the type name (default rule: { field: type }) */
  z.object({ field: z.string().min(1), map: z.record(z.string(), z.string()).optional() }).strict(),
  /** a tag (without '#', case-insensitive, nested tags allowed: 'Location/Settlement').
   *  With `nested: true` the rule also matches child tags ('Location' matches 'Location/Settlement');
   *  otherwise only the exact tag matches. */
  z.object({ tag: z.string().min(1), type: z.string().min(1), nested: z.boolean().optional() }).strict(),
  /** a folder prefix (vault-relative) */
  z.object({ folder: z.string().min(1), type: z.string().min(1) }).strict(),
]);

export const RuleSettingZ = z.union([z.enum(['error', 'warning', 'info', 'off']), z.boolean()]);

export const UiTypeStyleZ = z.object({
  color: z.string().optional(),
  shape: z.string().optional(),
  icon: z.string().optional(),
}).strict();

export const SchemaZ = z.object({
  version: z.number().int().default(1),
  entity_types: z.array(EntityTypeZ).default([]),
  relationship_types: z.array(RelationshipTypeZ).default([]),
  type_rules: z.array(TypeRuleZ).default([{ field: 'type' }]),
  /** which frontmatter key holds the display name; falls back to the file name */
  title_field: z.string().default('title'),
  /** per-rule severity overrides for validate (rule code -> severity | off) */
  rules: z.record(z.string(), RuleSettingZ).default({}),
  /** canvas styling per entity type */
  ui: z.object({ types: z.record(z.string(), UiTypeStyleZ).default({}) }).partial().default({}),
  /** the event type name used by the timeline (default 'event') */
  events: z.object({
    type: z.string().default('event'),
    session_field: z.string().default('session'),
    date_field: z.string().default('date_in_world'),
    participants_field: z.string().default('participants'),
    location_field: z.string().default('location'),
    /** properties whose value says an entity is dead/gone (timeline; default status, state, condition, alive) */
    status_fields: z.array(z.string()).optional(),
    /** values of those properties meaning dead/gone, case-insensitive (timeline; default dead, deceased, killed, slain, destroyed, ...) */
    dead_values: z.array(z.string()).optional(),
  }).partial().default({}),
}).strict();

export type LayerConfig = z.infer<typeof LayerConfigZ>;
export type VaultConfig = z.infer<typeof VaultConfigZ>;
export type PropertyDef = z.infer<typeof PropertyDefZ>;
export type FieldMapping = z.infer<typeof FieldMappingZ>;
export type EntityType = z.infer<typeof EntityTypeZ>;
export type RelationshipType = z.infer<typeof RelationshipTypeZ>;
export type TypeRule = z.infer<typeof TypeRuleZ>;
export type Schema = z.infer<typeof SchemaZ>;

/** Frontmatter keys with built-in meaning on every type. */
export const RESERVED_FIELDS = ['title', 'type', 'tags', 'aliases', 'related'] as const;
