/**
 * Rules over the resolved graph: orphans, relationships the schema does not
 * allow between those types, cycles in containment (hierarchy) relationships.
 */
import type { EntityRecord, Problem, RelationshipRecord } from '../../../shared/types.js';
import type { Rule, RuleContext } from '../types.js';
import { mappingFor, targetTypes } from '../fields.js';

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
    const schema = ctx.model.schema();
    const out: Problem[] = [];
    for (const edge of ctx.model.edges()) {
      if (edge.field === null) continue;
      const pair = ends(ctx, edge);
      // placeholders have no type yet: the dangling-link rule reports them
      if (!pair || pair.target.placeholder) continue;
      const m = mappingFor(schema, pair.declarer.type, edge.field);
      const allowed = m ? targetTypes(m) : null;
      if (!m || !allowed) continue;
      const t = pair.target.type;
      if (t !== null && allowed.includes(t)) continue;
      out.push({
        severity: this.defaultSeverity, code: this.code, file: edge.source, line: edge.line, field: edge.field,
        entityId: pair.declarer.id,
        message: `${edge.field}: '${pair.target.name}' is ${t === null ? 'untyped' : `a ${t}`}, but ${pair.declarer.type}.${edge.field} (${m.relationship}) allows only ${allowed.join(', ')}`,
        hint: `link a ${allowed.join(' or ')} here, or add '${t ?? 'its type'}' to target_type of ${pair.declarer.type}.${edge.field} in schema.yaml`,
      });
    }
    return out;
  },
};

/** Strongly connected components (iterative Tarjan), only those forming a cycle. */
export function cycles(nodes: Iterable<string>, next: (n: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: Array<{ n: string; i: number; succ: string[] }> = [];
    const visit = (n: string) => {
      index.set(n, counter); low.set(n, counter); counter++;
      stack.push(n); onStack.add(n);
      work.push({ n, i: 0, succ: next(n) });
    };
    visit(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      if (top.i < top.succ.length) {
        const s = top.succ[top.i++]!;
        if (!index.has(s)) visit(s);
        else if (onStack.has(s)) low.set(top.n, Math.min(low.get(top.n)!, index.get(s)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.n, Math.min(low.get(parent.n)!, low.get(top.n)!));
      if (low.get(top.n) === index.get(top.n)) {
        const comp: string[] = [];
        let m: string;
        do { m = stack.pop()!; onStack.delete(m); comp.push(m); } while (m !== top.n);
        if (comp.length > 1 || top.succ.includes(top.n)) result.push(comp.reverse());
      }
    }
  }
  return result;
}

/**
 * Cycles in every relationship type marked `hierarchy: true` (PART_OF-like).
 * One problem per edge inside a cycle, at the line that declares it.
 * `skipTypes`: hierarchy types whose cycles another module already reports.
 */
export function hierarchyCycleRule(skipTypes: ReadonlySet<string> = new Set()): Rule {
  return {
    code: 'hierarchy-cycle',
    defaultSeverity: 'error',
    origin: 'problems',
    summary: 'a containment relationship (hierarchy: true) loops back on itself',
    hint: 'remove one of the links in the loop so the hierarchy has a top',
    check(ctx) {
      const schema = ctx.model.schema();
      const types = schema.relationship_types.filter((r) => r.hierarchy && !skipTypes.has(r.name)).map((r) => r.name);
      const out: Problem[] = [];
      for (const type of types) {
        const adj = new Map<string, RelationshipRecord[]>();
        for (const e of ctx.model.edges()) {
          if (e.type !== type) continue;
          const l = adj.get(e.from);
          if (l) l.push(e); else adj.set(e.from, [e]);
        }
        const comps = cycles(adj.keys(), (n) => (adj.get(n) ?? []).map((e) => e.to));
        for (const comp of comps) {
          const members = new Set(comp);
          const names = comp.map((id) => ctx.model.entity(id)?.name ?? id);
          const loop = [...names, names[0]].join(' → ');
          for (const id of comp) {
            for (const e of adj.get(id) ?? []) {
              if (!members.has(e.to)) continue;
              out.push({
                severity: this.defaultSeverity, code: this.code, file: e.source, line: e.line,
                ...(e.field !== null ? { field: e.field } : {}), entityId: e.from,
                message: `${type} cycle: ${loop}`,
                hint: `remove the ${type} link from '${ctx.model.entity(e.from)?.name ?? e.from}' to '${ctx.model.entity(e.to)?.name ?? e.to}' or another link in the loop`,
              });
            }
          }
        }
      }
      return out;
    },
  };
}
