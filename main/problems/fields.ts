/** Schema look-ups shared by the rules, through the config module's compiled SchemaIndex. */
import { RESERVED_FIELDS } from '../config/types.js';
import type { Schema } from '../config/types.js';
import { compileSchema, type SchemaIndex } from '../config/schema-index.js';

const compiled = new WeakMap<Schema, SchemaIndex>();

/** The compiled schema (memoised per schema object: the model hands out the same one until it reloads). */
export function schemaIndex(schema: Schema): SchemaIndex {
  let ix = compiled.get(schema);
  if (!ix) compiled.set(schema, (ix = compileSchema(schema)));
  return ix;
}

/**
 * Frontmatter keys a note of this type may carry without an `unknown-property`
 * problem: its properties, its mapped fields, the reserved keys (and Obsidian's
 * legacy singular `alias` / `tag`), the title field, fields read by type rules,
 * and for the event type the timeline fields.
 */
export function declaredFields(ix: SchemaIndex, type: string): Set<string> {
  const keys = new Set<string>(RESERVED_FIELDS);
  keys.add(ix.titleField);
  keys.add('alias');
  keys.add('tag');
  for (const p of ix.properties(type)) keys.add(p.name);
  for (const m of ix.mappings(type)) keys.add(m.field);
  for (const r of ix.schema.type_rules) if ('field' in r) keys.add(r.field);
  if (type === ix.events.type) {
    keys.add(ix.events.session_field);
    keys.add(ix.events.date_field);
    keys.add(ix.events.participants_field);
    keys.add(ix.events.location_field);
    keys.add('consequences');
  }
  return keys;
}
