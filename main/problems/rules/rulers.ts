/**
 * `overlapping-rulers`: two rulers of one place at the same time, through the
 * relationship type(s) marked `rules: true` (stored ruler -> place). Checked on
 * the canonical base, then per campaign layer on its own base and on the state
 * after every session; a ruler or place that is destroyed or dead then no
 * longer counts. A timeline overlap is reported once, where it starts.
 */
import type { Problem, RelationshipRecord } from '../../../shared/types.js';
import type { EntityState, GraphState } from '../../timeline/types.js';
import type { Rule, RuleContext } from '../types.js';
import { stateCache } from './timeline-state.js';

function rulesTypes(ctx: RuleContext): Set<string> {
  return new Set(ctx.model.schema().relationship_types.filter((r) => r.rules).map((r) => r.name));
}

function name(ctx: RuleContext, id: string, st?: Map<string, EntityState>): string {
  return ctx.model.entity(id)?.name ?? st?.get(id)?.name ?? id;
}

export const overlappingRulers: Rule = {
  code: 'overlapping-rulers',
  defaultSeverity: 'warning',
  origin: 'problems',
  summary: 'a place has two rulers at once (relationship types with rules: true)',
  hint: 'end one rule (remove the relationship, or record an event that removes it) or make it a different relationship',
  check(ctx) {
    const types = rulesTypes(ctx);
    if (types.size === 0) return [];
    const out: Problem[] = [];
    const canonical = new Set(ctx.model.config().layers.filter((l) => l.canonical).map((l) => l.name));
    // canonical base: edges declared by notes of canonical layers
    const base = new Map<string, RelationshipRecord[]>();
    for (const e of ctx.model.edges()) {
      if (!types.has(e.type)) continue;
      const layer = ctx.model.layerOf(e.source);
      if (layer === null || !canonical.has(layer)) continue;
      const k = `${e.type}\u0000${e.to}`;
      const l = base.get(k);
      if (l) l.push(e); else base.set(k, [e]);
    }
    const baseSets = new Set<string>();
    for (const [k, edges] of base) {
      const rulers = [...new Set(edges.map((e) => e.from))].sort();
      if (rulers.length < 2) continue;
      const [type, place] = k.split('\u0000') as [string, string];
      baseSets.add(`${type}\u0000${place}\u0000${rulers.join('\u0001')}`);
      const names = rulers.map((r) => `'${name(ctx, r)}'`).join(' and ');
      for (const e of edges) {
        out.push({
          severity: this.defaultSeverity, code: this.code, file: e.source, line: e.line,
          ...(e.field !== null ? { field: e.field } : {}), entityId: ctx.model.entityIdOfPath(e.source) ?? e.from,
          message: `'${name(ctx, place)}' has ${rulers.length} rulers (${type}): ${names}`,
          hint: this.hint,
        });
      }
    }
    if (!ctx.timeline) return out;
    const state = stateCache(ctx);
    for (const layer of ctx.timeline.campaignLayers()) {
      const reported = new Set<string>(baseSets);
      const sessions = ctx.timeline.sessions(layer);
      // the layer's own base (its notes' relationships, before any event), then after every session
      const baseSession = (sessions[0] ?? 1) - 1;
      for (const session of [baseSession, ...sessions]) {
        const { state: gs, byId } = state(layer, session);
        const live = (id: string) => { const s = byId.get(id); return !s || (s.exists && !s.dead); };
        const groups = new Map<string, GraphState['relationships']>();
        for (const r of gs.relationships) {
          if (!types.has(r.type) || !live(r.from) || !live(r.to)) continue;
          const k = `${r.type}\u0000${r.to}`;
          const l = groups.get(k);
          if (l) l.push(r); else groups.set(k, [r]);
        }
        for (const [k, rels] of groups) {
          const rulers = [...new Set(rels.map((r) => r.from))].sort();
          if (rulers.length < 2) continue;
          const setKey = `${k}\u0000${rulers.join('\u0001')}`;
          if (reported.has(setKey)) continue;
          reported.add(setKey);
          const [type, place] = k.split('\u0000') as [string, string];
          // blame the latest event that added one of these relationships; else a declaring note
          const byEvent = rels.filter((r) => r.provenance).sort((a, b) => (b.provenance!.session - a.provenance!.session));
          const p = byEvent[0]?.provenance;
          const declared = [...ctx.model.edges()].find((e) => e.type === type && e.to === place && rulers.includes(e.from) && ctx.model.layerOf(e.source) === layer);
          const names = rulers.map((r) => `'${name(ctx, r, byId)}'`).join(' and ');
          const where: Partial<Problem> = p ? { file: p.path, line: p.line, entityId: p.event }
            : declared ? { file: declared.source, line: declared.line, ...(declared.field !== null ? { field: declared.field } : {}), entityId: ctx.model.entityIdOfPath(declared.source) ?? declared.from } : {};
          const when = session === baseSession ? 'before its first session' : `from session ${session}`;
          out.push({
            severity: this.defaultSeverity, code: this.code, ...where,
            message: `in layer ${layer} ${when}, '${name(ctx, place, byId)}' has ${rulers.length} rulers (${type}): ${names}${p ? ` (after '${p.name}')` : ''}`,
            hint: this.hint,
          });
        }
      }
    }
    return out;
  },
};
