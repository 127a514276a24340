/**
 * What the model needs from the compiled schema. `fromSchemaIndex` adapts the
 * config engineer's SchemaIndex (main/config/schema-index.ts) to it; tests may
 * use the same adapter over a real compiled schema.
 */
import type { Problem } from '../../shared/types.js';
import type { Schema } from '../config/types.js';
import type { ParsedNote } from '../parse/types.js';

export interface FieldEdgeMapping {
  /** canonical relationship type (never an inverse name) */
  relationship: string;
  /** the field named the inverse: store the edge target -> note */
  reversed: boolean;
}

export interface SchemaView {
  readonly schema: Schema;
  /** entity type of a note, null for an untyped note; problems such as 'unknown-type' */
  resolveType(note: ParsedNote): { type: string | null; problems: Problem[] };
  /** relationship produced by `field` on a note of `type` (type null: untyped note) */
  mapping(type: string | null, field: string): FieldEdgeMapping | undefined;
  /**
   * Every field other than `related` for which mapping(type, field) answers (optional: without it, noteRefs asks
   * mapping() of every frontmatter key). Lets a note of a type with no field mappings (every note of a vault without
   * a schema) skip its 10-40 keys.
   */
  mappedFields?(type: string | null): ReadonlySet<string>;
  /** property problems (required, enum, type) of a typed note */
  validate(type: string, note: ParsedNote): Problem[];
  /** relationship types declared `hierarchy: true` (cycles are problems) */
  isHierarchy(rel: string): boolean;
}
