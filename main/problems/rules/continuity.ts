/**
 * Continuity rules over the timeline:
 * - `dead-participant`: an event has as participant or location an entity an
 *   earlier event destroyed or killed (and nothing brought back since);
 * - `participant-before-creation`: an event has as participant or location an
 *   entity a later event creates.
 * (`overlapping-rulers` is in rulers.ts.)
 */
import type { Problem } from '../../../shared/types.js';
import type { InWorldDate, Provenance, TimelineEvent } from '../../timeline/types.js';
import { provenanceOf } from '../../timeline/compile.js';
import type { Rule, RuleContext } from '../types.js';
import { stateCache } from './timeline-state.js';

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
