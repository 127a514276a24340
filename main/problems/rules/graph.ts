/**
 * Rules over the resolved graph: orphans, relationships the schema does not
 * allow between those types. (Cycles in hierarchy relationships are the
 * model's `part-of-cycle`; dangling links are the model's `dangling-link`.)
 */
import type { EntityRecord, Problem, RelationshipRecord } from '../../../shared/types.js';
import type { Rule, RuleContext } from '../types.js';
import { schemaIndex } from '../fields.js';

export const orphan: Rule = {
  code: 'orphan',
  defaultSeverity: 'info',
  origin: 'problems',
  summary: 'a note with no relationships at all (no links in or out, no mapped fields)',
  hint: 'link it from a related note, or add a relationship field',
  check({ model }) {
    const out: Problem[] = [];
    for (const e of model.entities()) {
      if (e.placeholder || e.path === null) continue;
      if (model.edgesFrom(e.id).length > 0 || model.edgesTo(e.id).length > 0) continue;
      out.push({
        severity: this.defaultSeverity, code: this.code, file: e.path, line: 1, entityId: e.id,
        message: `'${e.name}' has no relationships: nothing links to it and it links to nothing`,
        hint: this.hint,
      });
    }
    return out;
  },
};

/** The entity that declared an edge (the note at edge.source) and the other end. */
function ends(ctx: RuleContext, edge: RelationshipRecord): { declarer: EntityRecord; target: EntityRecord } | null {
  const declId = ctx.model.entityIdOfPath(edge.source);
  if (!declId) return null;
  const otherId = declId === edge.from ? edge.to : declId === edge.to ? edge.from : null;
  if (otherId === null) return null;
  const declarer = ctx.model.entity(declId);
  const target = ctx.model.entity(otherId);
  return declarer && target ? { declarer, target } : null;
}

export const relationshipTargetType: Rule = {
  code: 'relationship-target-type',
  defaultSeverity: 'warning',
  origin: 'problems',
  summary: "a mapped field points at a note whose type is not in the mapping's target_type",
  hint: "point the field at a note of an allowed type, or add the type to target_type in schema.yaml",
  check(ctx) {
    const ix = schemaIndex(ctx.model.schema());
    const out: Problem[] = [];
    for (const edge of ctx.model.edges()) {
      if (edge.field === null) continue;
      const pair = ends(ctx, edge);
      // placeholders have no type yet: the dangling-link rule reports them
      if (!pair || pair.target.placeholder) continue;
      const m = ix.mappingFor(pair.declarer.type, edge.field);
      const allowed = m?.targetTypes ?? null;
      if (!m || !allowed) continue;
      const t = pair.target.type;
      if (t !== null && allowed.includes(t)) continue;
      out.push({
        severity: this.defaultSeverity, code: this.code, file: edge.source, line: edge.line, field: edge.field,
        entityId: pair.declarer.id,
        message: `${edge.field}: '${pair.target.name}' is ${t === null ? 'untyped' : `a ${t}`}, but ${pair.declarer.type}.${edge.field} (${m.declaredAs}) allows only ${allowed.join(', ')}`,
        hint: `link a ${allowed.join(' or ')} here, or add '${t ?? 'its type'}' to target_type of ${pair.declarer.type}.${edge.field} in schema.yaml`,
      });
    }
    return out;
  },
};
