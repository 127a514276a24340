/**
 * Composite read tools: load_scene_context (one bounded bundle to start a
 * scene) and check_consistency (the evidence about a claim — never a verdict;
 * the agent does the reasoning).
 */
import { z } from 'zod';
import { CoreError } from '../../domain/errors.js';
import type { EntityView, RelationView } from '../../../shared/types.js';
import { LINK_REL } from '../../../shared/types.js';
import { clip, fitCount, jsonSize } from '../budget.js';
import { clipValue, describeTypes, requireEntity, summary, type McpContext, type Vocabulary } from '../context.js';
import { EntitySummaryZ, LayerZ, MAX_QUERY, NameZ, SessionZ } from '../schemas.js';
import { READ_ONLY, tool, type AnySpec } from '../tool.js';


const RelLineZ = z.object({ relation: z.string(), direction: z.string(), other: z.string(), other_id: z.string(), other_type: z.string().nullable(), source: z.string() });
const relLine = (r: RelationView) => ({ relation: r.label, direction: r.direction, other: r.other.name, other_id: r.other.id, other_type: r.other.type, source: r.source });

/** where an entity stands at (layer, session): null when no timeline applies */
const StateZ = z.object({ lifecycle: z.enum(['not-yet-created', 'exists', 'destroyed']), exists: z.boolean(), dead: z.boolean() }).nullable();

const FACTIONISH = /faction|organi[sz]ation|guild|order|house|clan|cult|group|church|company/i;

function props(e: EntityView, maxValue: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(e.properties)) out[k] = clipValue(val, maxValue);
  return out;
}

const STOP = new Set('the and for with that this from was were are has had have his her its their they them she him who whom which what when where into onto over under about than then there here not but all any can could would should will shall may might been being also only very more most such some other of to in on at by as is it an or be a'.split(' '));

export function claimTerms(claim: string, exclude: string[]): string[] {
  const ex = new Set(exclude.flatMap((n) => n.toLowerCase().split(/[^\p{L}\p{N}]+/u)));
  const words = claim.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && !STOP.has(w) && !ex.has(w));
  // crude stemming: long words match on their first len-2 letters (kills/killed, rulers/ruler)
  return [...new Set(words.map((w) => (w.length >= 6 ? w.slice(0, w.length - 2) : w)))].slice(0, 20);
}

const mentions = (text: string, terms: string[]) => {
  const t = text.toLowerCase().replace(/_/g, ' ');
  return terms.filter((w) => t.includes(w));
};

export function sceneTools(ctx: McpContext, v: Vocabulary): AnySpec[] {
  const { host } = ctx;
  const max = ctx.maxChars;
  const hierarchy = host.schema().relationship_types.filter((r) => r.hierarchy);
  const campaign = host.config().layers.filter((l) => !l.canonical).map((l) => l.name);

  async function recentEvents(e: EntityView, n: number) {
    const evs = e.relations.filter((r) => r.other.type === v.eventType).slice(0, 30);
    const out: Array<{ id: string; name: string; session: unknown; date: unknown; path: string | null }> = [];
    for (const r of evs) {
      const ev = await host.getEntity(r.other.id);
      if (!ev) continue;
      const sf = host.schema().events?.session_field ?? 'session';
      const df = host.schema().events?.date_field ?? 'date_in_world';
      out.push({ id: ev.id, name: ev.name, session: ev.properties[sf] ?? null, date: ev.properties[df] ?? null, path: ev.path });
    }
    out.sort((x, y) => Number(y.session ?? -1) - Number(x.session ?? -1));
    return out.slice(0, n);
  }

  const loadScene = tool({
    name: 'load_scene_context',
    title: 'Load scene context',
    description: `One bounded bundle for starting a scene: the location and the places containing it, innermost first${hierarchy.length ? ` (${hierarchy.map((h) => h.name).join(', ')})` : ''}, who and what is there, the characters with their properties, factions, relationships (also among themselves and to the PC) and recent events. Like get_current_state, the location and characters are as they stand in a campaign layer at a session (default: the campaign layer after its latest session), so an NPC killed at session 5 is dead from then on. ${describeTypes(v)}`,
    input: {
      location: NameZ,
      layer: LayerZ.optional().describe(`campaign layer whose events apply (default: ${campaign[0] ?? 'none: the notes as written'})`),
      session: SessionZ.optional().describe('apply the events up to this session (default: all, i.e. the latest session)'),
      characters: z.array(NameZ).max(20).default([]).describe('names of the characters in the scene (at most 20)'),
      pc: NameZ.optional().describe('the player character whose view matters'),
    },
    output: {
      layer: z.string().nullable().describe('the campaign layer whose events were applied (null: the notes as written)'),
      session: z.number().nullable().describe('the session the state is at (null: after every event)'),
      location: z.object({ entity: EntitySummaryZ, properties: z.record(z.string(), z.unknown()), excerpt: z.string(), state: StateZ }),
      parents: z.array(z.object({ entity: EntitySummaryZ, relation: z.string(), depth: z.number() })),
      present: z.array(z.object({ entity: EntitySummaryZ, relation: z.string() })),
      characters: z.array(z.object({
        entity: EntitySummaryZ, properties: z.record(z.string(), z.unknown()), excerpt: z.string(), state: StateZ,
        factions: z.array(RelLineZ), relations: z.array(RelLineZ),
        recent_events: z.array(z.object({ id: z.string(), name: z.string(), session: z.unknown(), date: z.unknown(), path: z.string().nullable() })),
      })),
      between: z.array(z.object({ from: z.string(), relation: z.string(), to: z.string() })),
      pc: z.object({ entity: EntitySummaryZ, relations_to_cast: z.array(RelLineZ) }).nullable(),
      detail: z.enum(['full', 'reduced', 'minimal']),
      truncated: z.boolean(),
    },
    annotations: READ_ONLY,
    run: async (a) => {
      if (a.layer !== undefined && !host.config().layers.some((l) => l.name === a.layer)) {
        throw new CoreError('unknown-layer', `no layer named "${a.layer}"; layers: ${host.config().layers.map((l) => l.name).join(', ')}`);
      }
      const layer = a.layer ?? campaign[0] ?? null;
      const session = a.session ?? null;
      // the entity as it stands at (layer, session): its properties with the events applied, and its lifecycle
      const at = async (e: EntityView) => {
        if (!layer || !ctx.timeline) return { properties: e.properties, state: null };
        const st = await Promise.resolve(ctx.timeline.stateAt(e.id, layer, session)).catch(() => null);
        if (!st) return { properties: e.properties, state: null };
        return { properties: st.properties, state: { lifecycle: st.lifecycle, exists: st.exists, dead: st.dead } };
      };
      const loc = await requireEntity(host, a.location);
      const parents: Array<{ entity: ReturnType<typeof summary>; relation: string; depth: number }> = [];
      // the containing places, innermost first, following every hierarchy type together (a room LOCATED_IN
      // an inn that is PART_OF a town): one step at a time from the places found at the previous depth
      let frontier = [loc.id];
      const seen = new Set([loc.id]);
      for (let depth = 1; depth <= 5 && frontier.length; depth++) {
        const next: string[] = [];
        for (const id of frontier) {
          for (const h of hierarchy) {
            const t = await host.relations(id, { depth: 1, type: h.name, direction: 'out' });
            const byId = new Map(t.entities.map((e) => [e.id, e]));
            for (const s of t.steps) {
              const e = byId.get(s.to);
              if (!e || seen.has(e.id)) continue;
              seen.add(e.id);
              next.push(e.id);
              parents.push({ entity: summary(e), relation: s.label, depth });
            }
          }
        }
        frontier = next;
      }
      parents.sort((x, y) => x.depth - y.depth); // innermost first: the town, its region, the realm
      const presentAll = loc.relations.filter((r) => r.direction !== 'out' && r.type !== LINK_REL && r.other.type !== v.eventType)
        .map((r) => ({ entity: summary(r.other), relation: r.label }));
      const chars = [];
      for (const n of a.characters) chars.push(await requireEntity(host, n));
      const pc = a.pc ? await requireEntity(host, a.pc) : null;
      const cast = new Set([...chars.map((c) => c.id), ...(pc ? [pc.id] : [])]);
      const between: Array<{ from: string; relation: string; to: string }> = [];
      for (const c of chars) {
        for (const r of c.relations) {
          if (r.direction !== 'in' && cast.has(r.other.id) && r.type !== LINK_REL) between.push({ from: c.name, relation: r.label, to: r.other.name });
        }
      }
      const events = new Map<string, Awaited<ReturnType<typeof recentEvents>>>();
      for (const c of chars) events.set(c.id, await recentEvents(c, 5));
      const now = new Map<string, Awaited<ReturnType<typeof at>>>();
      for (const e of [loc, ...chars]) now.set(e.id, await at(e));
      const withState = (e: EntityView, maxValue: number) => {
        const n = now.get(e.id)!;
        return { properties: props({ ...e, properties: n.properties }, maxValue), state: n.state };
      };

      const levels = [
        { detail: 'full' as const, excerpt: 600, value: 300, rels: 25, present: 40, events: 5 },
        { detail: 'reduced' as const, excerpt: 200, value: 120, rels: 10, present: 15, events: 3 },
        { detail: 'minimal' as const, excerpt: 0, value: 60, rels: 4, present: 5, events: 1 },
      ];
      let data: Record<string, unknown> = {};
      for (const L of levels) {
        const characters = chars.map((c) => {
          const rels = c.relations.filter((r) => r.type !== LINK_REL && r.other.type !== v.eventType);
          return {
            entity: summary(c), ...withState(c, L.value), excerpt: clip(c.body.trim(), L.excerpt).text,
            factions: rels.filter((r) => FACTIONISH.test(r.other.type ?? '') || /MEMBER/.test(r.label)).slice(0, L.rels).map(relLine),
            relations: rels.slice(0, L.rels).map(relLine),
            recent_events: (events.get(c.id) ?? []).slice(0, L.events),
          };
        });
        const truncated = L.detail !== 'full' || presentAll.length > L.present || chars.some((c) => c.relations.length > L.rels);
        data = {
          layer, session,
          location: { entity: summary(loc), ...withState(loc, L.value), excerpt: clip(loc.body.trim(), L.excerpt).text },
          parents, present: presentAll.slice(0, L.present), characters, between: between.slice(0, 60),
          pc: pc ? { entity: summary(pc), relations_to_cast: pc.relations.filter((r) => cast.has(r.other.id) && r.other.id !== pc.id).slice(0, L.rels).map(relLine) } : null,
          detail: L.detail, truncated,
        };
        if (jsonSize(data) <= max) break;
      }
      if (jsonSize(data) > max) {
        // Last resort: characters as bare summaries, as many as fit (flagged), fewer side lists.
        const bare = chars.map((c) => ({ entity: summary(c), properties: {}, excerpt: '', state: now.get(c.id)!.state, factions: [], relations: [], recent_events: [] }));
        const loc0 = { entity: summary(loc), properties: {}, excerpt: '', state: now.get(loc.id)!.state };
        const np = fitCount(parents, Math.floor(max / 3), (x) => x);
        const base = { ...data, location: loc0, parents: parents.slice(0, np), present: [], between: [], pc: pc ? { entity: summary(pc), relations_to_cast: [] } : null, detail: 'minimal' as const, truncated: true };
        const n = fitCount(bare, max, (x) => ({ ...base, characters: x }));
        data = { ...base, characters: bare.slice(0, n) };
        if (jsonSize(data) > max) throw new CoreError('too-large', `the scene does not fit the output budget even as bare names: pass fewer characters (${chars.length} given)`);
      }
      return {
        summary: `Scene at ${loc.name}${parents.length ? ` (in ${parents.map((p) => p.entity.name).join(' ⊂ ')})` : ''}${layer ? `, ${layer} ${session === null ? 'after its latest session' : `at session ${session}`}` : ''}: ${chars.length} character(s)${chars.some((c) => now.get(c.id)!.state?.dead) ? ` (dead: ${chars.filter((c) => now.get(c.id)!.state?.dead).map((c) => c.name).join(', ')})` : ''}, ${presentAll.length} linked here; detail ${String(data.detail)}.`,
        data,
      };
    },
  });

  const checkConsistency = tool({
    name: 'check_consistency',
    title: 'Gather evidence about a claim',
    description: 'Collect what the vault says that bears on a proposed fact about an entity: its properties, relationships, note sentences and (in campaign layers) state lines that mention the claim\'s words, related full-text hits and events. Returns evidence, not a verdict: you judge whether the claim contradicts it.',
    input: {
      entity: NameZ, claim: z.string().trim().min(1).max(MAX_QUERY),
      layer: LayerZ.optional().describe('campaign layer whose events count (default: every non-canonical layer)'),
      session: SessionZ.optional(),
    },
    output: {
      entity: EntitySummaryZ, claim: z.string(), terms: z.array(z.string()),
      properties: z.array(z.object({ property: z.string(), value: z.unknown(), matches: z.array(z.string()) })),
      relations: z.array(RelLineZ.extend({ matches: z.array(z.string()) })),
      note_sentences: z.array(z.object({ text: z.string(), matches: z.array(z.string()) })),
      state: z.array(z.object({ layer: z.string(), property: z.string(), value: z.unknown(), source: z.unknown(), matches: z.array(z.string()) })),
      events: z.array(z.object({ layer: z.string().nullable(), name: z.string(), session: z.unknown(), path: z.string().nullable(), matches: z.array(z.string()) })),
      search_hits: z.array(z.object({ entity: EntitySummaryZ, snippet: z.string() })),
      other_properties: z.array(z.string()),
      truncated: z.boolean(),
      note: z.string(),
    },
    annotations: READ_ONLY,
    run: async (a) => {
      const e = await requireEntity(host, a.entity);
      const terms = claimTerms(a.claim, [e.name, ...e.aliases]);
      const propLines = Object.entries(e.properties).map(([k, val]) => ({ property: k, value: clipValue(val, 300), matches: mentions(`${k} ${JSON.stringify(val)}`, terms) }));
      const relations = e.relations.filter((r) => r.type !== LINK_REL)
        .map((r) => ({ ...relLine(r), matches: mentions(`${r.label} ${r.other.name} ${r.other.type ?? ''}`, terms) }))
        .filter((r) => r.matches.length > 0);
      const sentences = e.body.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter(Boolean)
        .map((s) => ({ text: clip(s, 300).text, matches: mentions(s, terms) })).filter((s) => s.matches.length > 0);
      const state: Array<{ layer: string; property: string; value: unknown; source: unknown; matches: string[] }> = [];
      const events: Array<{ layer: string | null; name: string; session: unknown; path: string | null; matches: string[] }> = [];
      const layers = a.layer ? [a.layer] : host.config().layers.filter((l) => !l.canonical).map((l) => l.name).slice(0, 4);
      if (ctx.timeline) {
        for (const layer of layers) {
          const st = await Promise.resolve(ctx.timeline.stateAt(e.id, layer, a.session ?? null)).catch(() => null);
          for (const [property, p] of Object.entries(st?.provenance ?? {})) {
            const value = st?.properties[property] ?? null;
            const m = mentions(`${property} ${JSON.stringify(value)} ${p.name}`, terms);
            if (m.length) state.push({ layer, property, value: clipValue(value, 300), source: p, matches: m });
          }
          const evs = await Promise.resolve(ctx.timeline.timeline(layer, { entity: e.id, to: a.session })).catch(() => []);
          for (const ev of evs.slice(-20)) events.push({ layer, name: ev.name, session: ev.session, path: ev.path, matches: mentions(`${ev.name} ${ev.consequences.map((c) => c.text).join(' ')}`, terms) });
        }
      } else {
        for (const r of e.relations.filter((x) => x.other.type === v.eventType).slice(0, 20)) {
          events.push({ layer: r.other.layer, name: r.other.name, session: null, path: r.other.path, matches: mentions(r.other.name, terms) });
        }
      }
      let hits: Array<{ entity: ReturnType<typeof summary>; snippet: string }> = [];
      if (terms.length) {
        const found = await host.search(terms.join(' '), { limit: 8 }).catch(() => []);
        hits = found.filter((h) => h.entity.id !== e.id).map((h) => ({ entity: summary(h.entity), snippet: clip(h.snippet, 200).text }));
      }
      const matchedProps = propLines.filter((p) => p.matches.length > 0);
      let data = {
        entity: summary(e), claim: a.claim, terms, properties: matchedProps, relations, note_sentences: sentences,
        state, events, search_hits: hits,
        other_properties: propLines.filter((p) => p.matches.length === 0).map((p) => p.property),
        truncated: false,
        note: 'Evidence only: you judge whether the claim contradicts it.',
      };
      for (let cap = 40; jsonSize(data) > max && cap >= 0; cap = cap > 1 ? Math.floor(cap / 2) : cap - 1) {
        data = { ...data, properties: matchedProps.slice(0, cap), relations: relations.slice(0, cap), note_sentences: sentences.slice(0, cap),
          state: state.slice(0, cap), events: events.slice(0, cap), search_hits: hits.slice(0, Math.min(cap, 8)), other_properties: data.other_properties.slice(0, cap), truncated: true };
      }
      const n = matchedProps.length + relations.length + sentences.length + state.length;
      return { summary: `${n} line(s) about ${e.name} mention the claim's words (${terms.join(', ') || 'none'}); ${events.length} event(s), ${hits.length} other hit(s). Evidence, not a verdict.`, data };
    },
  });

  return [loadScene, checkConsistency];
}
