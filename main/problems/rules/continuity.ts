/**
 * Continuity rules over the timeline:
 * - `dead-participant`: an event has as participant or location an entity an
 *   earlier event destroyed or killed (and nothing brought back since);
 * - `participant-before-creation`: an event has as participant or location an
 *   entity a later event creates;
 * - `overlapping-rulers`: two rulers of one place at the same time, through the
 *   relationship type(s) marked `rules: true` (stored ruler -> place). Checked on
 *   the canonical base and on the state after every session of every campaign
 *   layer; a ruler or place that is destroyed or dead then no longer counts.
 */
import type { Problem, RelationshipRecord } from '../../../shared/types.js';
import type { EntityState, GraphState, InWorldDate, Provenance, TimelineEvent } from '../../timeline/types.js';
import { provenanceOf } from '../../timeline/compile.js';
import type { Rule, RuleContext } from '../types.js';

function dateKey(d: InWorldDate | null | undefined): number[] | null {
  if (!d || d.year === undefined) return null;
  return [d.year, d.month ?? 0, d.day ?? 0];
}

/** Is event `e` strictly later in the story than the change recorded by `p`? */
function after(e: TimelineEvent, p: Provenance, byId: Map<string, TimelineEvent>): boolean {
  if (e.session === null) return false;
  if (e.session !== p.session) return e.session > p.session;
  if (e.id === p.event) return false;
  const a = dateKey(e.date);
  const b = dateKey(byId.get(p.event)?.date);
  if (!a || !b) return false; // same session, no comparable dates: order unknown
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

function before(e: TimelineEvent, p: Provenance, byId: Map<string, TimelineEvent>): boolean {
  if (e.session === null) return false;
  if (e.session !== p.session) return e.session < p.session;
  if (e.id === p.event) return false;
  const a = dateKey(e.date);
  const b = dateKey(byId.get(p.event)?.date);
  if (!a || !b) return false;
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

type StateHit = { state: GraphState; byId: Map<string, EntityState> };
const stateCaches = new WeakMap<object, Map<string, StateHit>>();

/** Caches stateAt per (layer, session), shared by the rules of one validate run (keyed by the facts object). */
function stateCache(ctx: RuleContext) {
  let cache = stateCaches.get(ctx.timeline!);
  if (!cache) stateCaches.set(ctx.timeline!, (cache = new Map()));
  const c = cache;
  return (layer: string, session: number) => {
    const key = `${layer}\u0000${session}`;
    let hit = c.get(key);
    if (!hit) {
      const state = ctx.timeline!.stateAt(layer, session);
      hit = { state, byId: new Map(state.entities.map((s) => [s.id, s])) };
      c.set(key, hit);
    }
    return hit;
  };
}

interface Role { id: string; name: string; field: string }

/** Provenance of the first valid `created` consequence for `id`. */
function creator(events: TimelineEvent[], id: string): Provenance | undefined {
  for (const ev of events) {
    if (ev.session === null) continue;
    const c = ev.consequences.find((k) => k.kind === 'created' && k.valid && k.entity === id);
    if (c) return provenanceOf(ev, c);
  }
  return undefined;
}

function roles(ctx: RuleContext, e: TimelineEvent): Role[] {
  const ev = ctx.model.schema().events;
  const out: Role[] = [];
  for (const p of e.participants) if (p.id) out.push({ id: p.id, name: p.name, field: ev.participants_field ?? 'participants' });
  if (e.location?.id) out.push({ id: e.location.id, name: e.location.name, field: ev.location_field ?? 'location' });
  return out;
}

function lifecycleRule(kind: 'dead' | 'uncreated'): Rule {
  const dead = kind === 'dead';
  return {
    code: dead ? 'dead-participant' : 'participant-before-creation',
    defaultSeverity: dead ? 'error' : 'warning',
    origin: 'problems',
    summary: dead
      ? 'an event has as participant or location an entity that an earlier event destroyed or killed'
      : 'an event has as participant or location an entity that a later event creates',
    hint: dead
      ? 'remove it from the event, move the event before the death, or record a consequence that brings it back'
      : 'move the creating event earlier, or remove the entity from this event',
    check(ctx) {
      if (!ctx.timeline) return [];
      const state = stateCache(ctx);
      const out: Problem[] = [];
      for (const layer of ctx.timeline.campaignLayers()) {
        const events = ctx.timeline.events(layer);
        const byId = new Map(events.map((e) => [e.id, e]));
        for (const e of events) {
          if (e.session === null || e.layer !== layer) continue;
          const st = state(layer, e.session).byId;
          const lines = ctx.model.note(e.path)?.fieldLines ?? {};
          const seen = new Set<string>();
          for (const r of roles(ctx, e)) {
            if (seen.has(r.id)) continue;
            seen.add(r.id);
            const s = st.get(r.id);
            if (!s) continue;
            let p: Provenance | undefined;
            let how = '';
            if (dead) {
              if (s.lifecycle === 'destroyed' && s.destroyed && after(e, s.destroyed, byId)) { p = s.destroyed; how = 'destroyed'; }
              else if (s.dead && s.died && after(e, s.died, byId)) { p = s.died; how = 'killed'; }
            } else if (s.lifecycle === 'not-yet-created') {
              // the state before creation carries no provenance: find the creating event
              p = s.created ?? creator(events, r.id);
              if (p && !before(e, p, byId)) p = undefined;
              how = 'created';
            }
            if (!p) continue;
            out.push({
              severity: this.defaultSeverity, code: this.code, file: e.path, line: lines[r.field] ?? 1, field: r.field,
              entityId: e.id,
              message: dead
                ? `'${r.name}' takes part in '${e.name}' (session ${e.session}) but was ${how} by '${p.name}' (session ${p.session}, ${p.path}:${p.line})`
                : `'${r.name}' takes part in '${e.name}' (session ${e.session}) but is only created by '${p.name}' (session ${p.session}, ${p.path}:${p.line})`,
              hint: this.hint,
            });
          }
        }
      }
      return out;
    },
  };
}

export const deadParticipant = lifecycleRule('dead');
export const participantBeforeCreation = lifecycleRule('uncreated');

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
