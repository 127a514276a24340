/** Schema look-ups shared by the rules: which frontmatter keys a type declares, its mappings. */
import { RESERVED_FIELDS } from '../config/types.js';
import type { EntityType, FieldMapping, Schema } from '../config/types.js';

export function entityType(schema: Schema, name: string | null): EntityType | undefined {
  if (name === null) return undefined;
  return schema.entity_types.find((t) => t.name === name);
}

export function mappingFor(schema: Schema, typeName: string | null, field: string): FieldMapping | undefined {
  return entityType(schema, typeName)?.field_mappings.find((m) => m.field === field);
}

/**
 * Frontmatter keys a note of this type may carry without an `unknown-property`
 * problem: its properties, its mapped fields, the reserved keys, the title
 * field, fields used by type rules, and for the event type the timeline fields.
 */
export function declaredFields(schema: Schema, type: EntityType): Set<string> {
  const keys = new Set<string>(RESERVED_FIELDS);
  keys.add(schema.title_field);
  // Obsidian's legacy singular spellings of reserved keys
  keys.add('alias');
  keys.add('tag');
  for (const p of type.properties) keys.add(p.name);
  for (const m of type.field_mappings) keys.add(m.field);
  for (const r of schema.type_rules) if ('field' in r) keys.add(r.field);
  const ev = schema.events;
  if (type.name === (ev.type ?? 'event')) {
    keys.add(ev.session_field ?? 'session');
    keys.add(ev.date_field ?? 'date_in_world');
    keys.add(ev.participants_field ?? 'participants');
    keys.add(ev.location_field ?? 'location');
    keys.add('consequences');
  }
  return keys;
}

export function targetTypes(m: FieldMapping): string[] | null {
  if (m.target_type === undefined) return null;
  return Array.isArray(m.target_type) ? m.target_type : [m.target_type];
}
