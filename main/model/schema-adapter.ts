/** Adapts the compiled SchemaIndex (main/config) to what the model needs (SchemaView). */
import type { Problem } from '../../shared/types.js';
import { compileSchema, type SchemaIndex } from '../config/schema-index.js';
import type { Schema, SchemaZ } from '../config/types.js';
import { validateProperties } from '../config/validate.js';
import { parse as parseYaml } from 'yaml';
import type { FieldEdgeMapping, SchemaView } from './schema-view.js';

const NO_PROBLEMS: Problem[] = Object.freeze([]) as unknown as Problem[];

export function fromSchemaIndex(idx: SchemaIndex): SchemaView {
  const mappings = new Map<string, Map<string, FieldEdgeMapping | null>>();
  const mapped = new Map<string, ReadonlySet<string>>();
  const hierarchy = new Set(idx.relationshipTypes().filter((r) => r.hierarchy).map((r) => r.name));
  return {
    schema: idx.schema,
    resolveType(note) {
      const info = idx.resolveTypeInfo(note);
      // a note of a known type (or none) shares one empty list: the model keeps it per note (read only)
      if (!info.unknown) return { type: info.type, problems: NO_PROBLEMS };
      const problems: Problem[] = [{
        severity: 'error', code: 'unknown-type', file: note.path, line: info.unknown.line, field: info.unknown.field,
        message: `'${info.unknown.value}' is not an entity type of the schema (known: ${idx.typeNames.join(', ') || 'none'})`,
        hint: 'fix the type name, or declare the type in schema.yaml',
      }];
      return { type: info.type, problems };
    },
    mapping(type, field) {
      const t = type ?? '';
      let byField = mappings.get(t);
      if (!byField) { byField = new Map(); mappings.set(t, byField); }
      let m = byField.get(field);
      if (m === undefined) {
        const info = idx.mappingFor(type, field);
        m = info ? { relationship: info.relationship, reversed: info.reversed } : null;
        byField.set(field, m);
      }
      return m ?? undefined;
    },
    mappedFields(type) {
      const t = type ?? '';
      let fields = mapped.get(t);
      if (!fields) {
        fields = new Set(idx.mappings(type).map((m) => m.field).filter((f) => f !== 'related'));
        mapped.set(t, fields);
      }
      return fields;
    },
    validate: (type, note) => validateProperties(note, type, idx),
    isHierarchy: (rel) => hierarchy.has(rel),
  };
}

/** For tests and tools: a SchemaView from schema.yaml text (validated by the zod contract). */
export function schemaViewFromYaml(yaml: string, z: typeof SchemaZ): SchemaView {
  const schema: Schema = z.parse(yaml.trim() ? parseYaml(yaml) : {});
  return fromSchemaIndex(compileSchema(schema));
}
