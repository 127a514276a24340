/**
 * Timeline bench: 1k entities × 200 events (in memory, plain data, event notes
 * written as real markdown so parsing with line numbers is measured too).
 *
 * - index_build_ms: compile everything (parse events, validate, build the layer scope)
 * - index_rebuild_cached_ms: the same when consequence lines are cached (a rebuild after an edit)
 * - state_at_session_ms: one scrubber step = the whole graph state at session N, first
 *   visit, stepping forward (steps on from the snapshot of the previous session)
 * - state_at_session_cold_ms: a jump to session N computed from the base (no snapshot)
 * - state_at_session_cached_ms: the same step when the scrubber returns to a session
 * - frame_ms / frame_bytes: the compact scrubber frame (first visit of a session) and its JSON size
 * - entity_state_ms: one entity with provenance at a session
 * Run directly: node bin/run-ts.mjs bench/timeline.ts
 */
import { performance } from 'node:perf_hooks';
import { entityId } from '../shared/names.js';
import type { EntityRecord, RelationshipRecord } from '../shared/types.js';
import { SchemaZ, VaultConfigZ } from '../main/config/types.js';
import { buildScope, compile, type TimelineInput } from '../main/timeline/compile.js';
import { eventNoteFromSource, readFrontmatterLines } from '../main/timeline/source.js';
import { graphAt } from '../main/timeline/state.js';
import { buildTimelineIndex } from '../main/timeline/timeline-index.js';

export interface TimelineBenchResult {
  entities: number;
  events: number;
  sessions: number;
  relationships: number;
  index_build_ms: number;
  /** the same with consequence lines from the service's cache (what an edit in a live vault costs) */
  index_rebuild_cached_ms: number;
  state_at_session_ms: { p50: number; p95: number };
  /** a jump computed from the base, without any earlier snapshot */
  state_at_session_cold_ms: { p50: number; p95: number };
  state_at_session_cached_ms: { p50: number; p95: number };
  /** scrubber frame (graph state + compact deviations), uncached, first visit of each session */
  frame_ms: { p50: number; p95: number };
  /** JSON size of the last session's frame */
  frame_bytes: number;
  entity_state_ms: { p50: number; p95: number };
}

/** Deterministic pseudo-random numbers (so runs compare). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

export function generateTimelineWorld(nEntities = 1000, nEvents = 200, nSessions = 50): TimelineInput {
  const rand = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const schema = SchemaZ.parse({
    entity_types: [
      { name: 'npc', properties: [{ name: 'status', type: 'enum', values: ['alive', 'dead', 'unknown'] }, { name: 'role', type: 'string' }, { name: 'titles', type: 'list' }] },
      { name: 'faction', properties: [{ name: 'holdings', type: 'list' }, { name: 'influence', type: 'string' }] },
      { name: 'settlement', properties: [{ name: 'size', type: 'enum', values: ['hamlet', 'village', 'town', 'city'] }, { name: 'population', type: 'integer' }] },
      { name: 'event' },
    ],
    relationship_types: [{ name: 'MEMBER_OF', inverse: 'HAS_MEMBER' }, { name: 'ALLIED_WITH', symmetric: true }, { name: 'LOCATED_IN' }, { name: 'RULES', inverse: 'RULED_BY' }],
  });
  const config = VaultConfigZ.parse({ layers: [
    { name: 'setting', paths: ['setting'], canonical: true },
    { name: 'campaign', paths: ['campaign'], canonical: false, depends_on: ['setting'] },
  ] });
  const types = ['npc', 'faction', 'settlement'] as const;
  const entities: EntityRecord[] = [];
  const byType: Record<string, string[]> = { npc: [], faction: [], settlement: [] };
  for (let i = 0; i < nEntities - nEvents; i++) {
    const type = types[i % 3]!;
    const name = `${type} ${i}`;
    const properties: EntityRecord['properties'] = type === 'npc' ? { status: 'alive', role: 'guard' }
      : type === 'faction' ? { holdings: [`settlement ${(i + 2) % 300}`], influence: 'local' } : { size: 'town', population: 100 + i };
    entities.push({ id: entityId('setting', name), name, type, layer: 'setting', path: `setting/${name}.md`, hash: 'h', tags: [], aliases: [], properties, body: '', placeholder: false });
    byType[type]!.push(name);
  }
  const relationships: RelationshipRecord[] = [];
  for (const n of byType.npc!) {
    relationships.push({ from: entityId('setting', n), to: entityId('setting', pick(byType.faction!)), type: 'MEMBER_OF', field: 'faction', source: `setting/${n}.md`, line: 4 });
    relationships.push({ from: entityId('setting', n), to: entityId('setting', pick(byType.settlement!)), type: 'LOCATED_IN', field: 'location', source: `setting/${n}.md`, line: 5 });
  }
  for (const f of byType.faction!) {
    relationships.push({ from: entityId('setting', f), to: entityId('setting', pick(byType.faction!)), type: 'ALLIED_WITH', field: 'allies', source: `setting/${f}.md`, line: 4 });
  }
  const events = [];
  for (let i = 0; i < nEvents; i++) {
    const session = 1 + Math.floor((i * nSessions) / nEvents);
    const lines: string[] = [];
    for (let k = 0; k < 5; k++) {
      const r = rand();
      const npc = pick(byType.npc!), fac = pick(byType.faction!), set = pick(byType.settlement!);
      if (r < 0.25) lines.push(`  - { entity: ${npc}, property: status, value: ${pick(['alive', 'dead', 'unknown'])} }`);
      else if (r < 0.4) lines.push(`  - { entity: ${fac}, property: holdings, add: ${set} }`);
      else if (r < 0.5) lines.push(`  - { entity: ${fac}, property: holdings, remove: ${set} }`);
      else if (r < 0.6) lines.push(`  - { entity: ${npc}, property: role, unset: true }`);
      else if (r < 0.75) lines.push(`  - { entity: ${fac}, relationship: ALLIED_WITH, add: ${pick(byType.faction!)} }`);
      else if (r < 0.85) lines.push(`  - { entity: ${npc}, relationship: MEMBER_OF, remove: ${fac} }`);
      else if (r < 0.93) lines.push(`  - { entity: ${set}, destroyed: true }`);
      else lines.push(`  - { entity: New Place ${i}, created: true }`);
    }
    const text = `---\ntitle: Event ${i}\ntype: event\nsession: ${session}\ndate_in_world: 1203-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}\nparticipants: ["[[${pick(byType.npc!)}]]", "[[${pick(byType.faction!)}]]"]\nlocation: "[[${pick(byType.settlement!)}]]"\nconsequences:\n${lines.join('\n')}\n---\nWhat happened.\n`;
    const ev = eventNoteFromSource({ path: `campaign/sessions/event ${String(i).padStart(3, '0')}.md`, layer: 'campaign', text });
    events.push(ev);
    entities.push({ id: ev.id, name: ev.name, type: 'event', layer: 'campaign', path: ev.path, hash: 'h', tags: [], aliases: [], properties: {}, body: '', placeholder: false });
  }
  return { config, schema, entities, relationships, events };
}

function percentiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  const r = (n: number) => Math.round(n * 1000) / 1000;
  return { p50: r(q(0.5)), p95: r(q(0.95)) };
}

export async function bench(ctx: { quick: boolean; tmpDir: string }): Promise<TimelineBenchResult> {
  const input = generateTimelineWorld(1000, 200, 50);
  const rounds = ctx.quick ? 2 : 5;

  const builds: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const ix = buildTimelineIndex(input);
    ix.sessions('campaign');
    builds.push(performance.now() - t0);
  }
  // a rebuild after an edit in the app: consequence lines come from the service's cache
  const cachedInput: TimelineInput = { ...input, events: [...input.events].map(({ source, ...e }) => ({ ...e, itemLines: readFrontmatterLines(source ?? '').itemLines })) };
  const rebuilds: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    buildTimelineIndex(cachedInput).sessions('campaign');
    rebuilds.push(performance.now() - t0);
  }
  const c = compile(input);
  const sc = buildScope(c, 'campaign');
  // cold: a jump to any session computed from the base (no earlier snapshot)
  const cold: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (let s = 0; s <= sc.sessions.length; s++) {
      const t0 = performance.now();
      const g = graphAt(c, sc, s).graph;
      cold.push(performance.now() - t0);
      if (g.entities.length === 0) throw new Error('empty graph');
    }
  }
  // a scrubber step: first visit of each session, moving forward, on a fresh index
  const steps: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const fresh = buildTimelineIndex(input);
    fresh.graphAt('campaign', 0);
    for (const s of sc.sessions) { const t0 = performance.now(); fresh.graphAt('campaign', s); steps.push(performance.now() - t0); }
  }
  const ix = buildTimelineIndex(input);
  for (const s of sc.sessions) ix.graphAt('campaign', s);
  const cached: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const s of sc.sessions) { const t0 = performance.now(); ix.graphAt('campaign', s); cached.push(performance.now() - t0); }
  }
  const frames: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const fresh = buildTimelineIndex(input);
    for (const s of sc.sessions) { const t0 = performance.now(); fresh.frame('campaign', s); frames.push(performance.now() - t0); }
  }
  const frameBytes = JSON.stringify(ix.frame('campaign', sc.sessions.at(-1)!)).length;
  const one: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    ix.stateAt(`npc ${(i * 3) % 799}`, 'campaign', i % 50);
    one.push(performance.now() - t0);
  }
  return {
    entities: sc.ids.length,
    events: sc.events.length,
    sessions: sc.sessions.length,
    relationships: input.relationships ? [...input.relationships].length : 0,
    index_build_ms: percentiles(builds).p50,
    index_rebuild_cached_ms: percentiles(rebuilds).p50,
    state_at_session_ms: percentiles(steps),
    state_at_session_cold_ms: percentiles(cold),
    state_at_session_cached_ms: percentiles(cached),
    frame_ms: percentiles(frames),
    frame_bytes: frameBytes,
    entity_state_ms: percentiles(one),
  };
}

if (process.argv[1] && /bench[\\/]timeline\.ts$/.test(process.argv[1])) {
  process.stdout.write(JSON.stringify(await bench({ quick: process.argv.includes('--quick'), tmpDir: '' }), null, 2) + '\n');
}
