/**
 * What the schema allows for relationship consequences: canonical names
 * (inverse names turned around) and the type pairs derived from field mappings.
 */
import type { Schema } from '../config/types.js';

/** Canonical relationship type for a name (an inverse name is returned with inverse: true). */
export function relationshipType(schema: Schema, name: string): { name: string; inverse: boolean; symmetric: boolean } | null {
  if (name === 'LINKS_TO' || name === 'RELATED_TO') return { name, inverse: false, symmetric: name === 'RELATED_TO' };
  for (const r of schema.relationship_types) {
    if (r.name === name) return { name: r.name, inverse: false, symmetric: r.symmetric };
    if (r.inverse === name) return { name: r.name, inverse: true, symmetric: r.symmetric };
  }
  return null;
}

export function relationshipNames(schema: Schema): string[] {
  return [...schema.relationship_types.flatMap((r) => (r.inverse ? [r.name, r.inverse] : [r.name])), 'RELATED_TO'];
}

/**
 * Is a relationship allowed from an entity of type `fromT` to one of `toT`? Derived from field mappings:
 * a type with no mapping anywhere is allowed between any types; untyped ends are not checked.
 */
export function relationshipAllowed(schema: Schema, rel: string, fromT: string | null, toT: string | null): boolean {
  if (!fromT || !toT) return true;
  const def = schema.relationship_types.find((r) => r.name === rel);
  const pairs: Array<[string, string[] | null]> = [];
  for (const t of schema.entity_types) {
    for (const m of t.field_mappings) {
      const targets = m.target_type === undefined ? null : Array.isArray(m.target_type) ? m.target_type : [m.target_type];
      if (m.relationship === rel) pairs.push([t.name, targets]);
      else if (def?.inverse && m.relationship === def.inverse) {
        for (const tt of targets ?? ['*']) pairs.push([tt, [t.name]]);
      }
    }
  }
  if (pairs.length === 0) return true;
  const ok = (a: string, b: string) => pairs.some(([s, ts]) => (s === a || s === '*') && (ts === null || ts.includes(b)));
  return ok(fromT, toT) || (def?.symmetric === true && ok(toT, fromT));
}
