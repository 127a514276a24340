/**
 * Pure helpers of the timeline scrubber: scrubber stops, the canvas overlay
 * from a `timeline-graph-at` answer, lane layout of event markers, and the
 * provenance wording. No React, no API: unit-tested in model.test.ts.
 */
import type { EntityStateData, ProvenanceView, TimelineGraphAt, TimelineSessions } from '../../../shared/contract-timeline.js';
import type { CanvasOverlay } from '../canvas/overlay.js';

/** One position of the scrubber: the world before play, then each session. */
export interface Stop { session: number; label: string; short: string; before: boolean }

export function stopsOf(t: TimelineSessions): Stop[] {
  const out: Stop[] = [{ session: t.before, label: 'Before play', short: 'start', before: true }];
  for (const s of t.sessions) out.push({ session: s.session, label: s.label, short: s.dateLabel || `S${s.session}`, before: false });
  return out;
}

/** Index of the stop showing `session` (the last stop at or before it; 0 when earlier than all). */
export function stopIndex(stops: Stop[], session: number | null): number {
  if (session === null) return stops.length - 1;
  let i = 0;
  for (let k = 0; k < stops.length; k++) if (stops[k]!.session <= session) i = k;
  return i;
}

/** The next stop's session in direction `dir` (clamped at the ends); from off, forward starts before play and back starts at the end. */
export function step(stops: Stop[], session: number | null, dir: 1 | -1): number | null {
  if (stops.length === 0) return null;
  if (session === null) return (dir === 1 ? stops[0] : stops[stops.length - 1])!.session;
  const i = stopIndex(stops, session);
  return stops[Math.max(0, Math.min(stops.length - 1, i + dir))]!.session;
}

/** The canvas overlay (renderer/features/canvas/overlay.ts) for one step. */
export function toOverlay(g: TimelineGraphAt): NonNullable<CanvasOverlay> {
  const edge = (e: { from: string; to: string; type: string }) => ({ from: e.from, to: e.to, type: e.type });
  return { session: g.session, entities: g.entities, addedEdges: g.addedEdges.map(edge), removedEdges: g.removedEdges.map(edge) };
}

export interface Marker { id: string; name: string; session: number; lane: string; slot: number; of: number; title: string }

/** Event markers placed in lanes: `slot` of `of` events of the same session in that lane (for a small offset). */
export function markersOf(t: TimelineSessions): Marker[] {
  const groups = new Map<string, string[]>();
  for (const e of t.events) {
    if (e.session === null) continue;
    const k = `${t.laneOf[e.id]}\u0000${e.session}`;
    groups.set(k, [...(groups.get(k) ?? []), e.id]);
  }
  const out: Marker[] = [];
  for (const e of t.events) {
    if (e.session === null) continue;
    const lane = t.laneOf[e.id] ?? 'sessions';
    const g = groups.get(`${lane}\u0000${e.session}`)!;
    const what = e.consequences.filter((k) => k.valid).map((k) => k.text);
    const title = [`${e.name} — session ${e.session}${e.date ? ` · ${e.date.display ?? e.date.label}` : ''}`, ...what].join('\n');
    out.push({ id: e.id, name: e.name, session: e.session, lane, slot: g.indexOf(e.id), of: g.length, title });
  }
  return out;
}

/** 'The Death of Captain Varo, session 5' */
export function cite(p: ProvenanceView | undefined): string {
  return p ? `${p.name}, session ${p.session}` : '';
}

export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.map(formatValue).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export interface StateRow { key: string; value: string; source: string; changed: boolean }

/**
 * Rows of the "as of session N" panel: lifecycle first (when not simply existing),
 * then every property, with `source` = '← event, session N' for values an event changed
 * (an unset property keeps its row, shown as '—').
 */
export function stateRows(s: EntityStateData): StateRow[] {
  const rows: StateRow[] = [];
  if (s.lifecycle === 'not-yet-created') rows.push({ key: 'lifecycle', value: 'not yet created', source: s.created ? `← ${cite(s.created)}` : '', changed: true });
  if (s.lifecycle === 'destroyed') rows.push({ key: 'lifecycle', value: 'destroyed', source: `← ${cite(s.destroyed)}`, changed: true });
  if (s.lifecycle === 'exists' && s.created) rows.push({ key: 'lifecycle', value: 'created', source: `← ${cite(s.created)}`, changed: true });
  if (s.dead) rows.push({ key: 'dead', value: 'yes', source: s.died ? `← ${cite(s.died)}` : '', changed: true });
  const keys = [...new Set([...Object.keys(s.properties), ...Object.keys(s.provenance)])];
  for (const k of keys) {
    // an event note's own consequences are shown as sentences above (ConsequencesPanel), not as JSON here
    if (k === 'consequences' && !s.provenance[k] && Array.isArray(s.properties[k])) continue;
    const p = s.provenance[k];
    rows.push({ key: k, value: formatValue(s.properties[k]), source: p ? `← ${cite(p)}` : '', changed: !!p });
  }
  return rows;
}

export interface RelRow { key: string; text: string; source: string; removed: boolean }

/**
 * Relationships that differ from the notes at this session: added by an event
 * ('+ HOSTILE_TO Corsair Brotherhood ← The Broken Pact, session 4') or removed
 * ('− ALLIED_WITH …'). `nameOf` maps an entity id to its display name.
 */
export function relationRows(s: EntityStateData, nameOf: (id: string) => string, symmetric: ReadonlySet<string> = new Set()): RelRow[] {
  // a symmetric relationship written on both ends holds (and ends) both ways: one row, no arrow
  const sym = (r: { type: string }) => symmetric.has(r.type);
  const otherId = (r: { from: string; to: string }) => (r.from === s.id ? r.to : r.from);
  const other = (r: { from: string; to: string; type: string }) => (sym(r) ? `↔ ${nameOf(otherId(r))}` : r.from === s.id ? `→ ${nameOf(r.to)}` : `← ${nameOf(r.from)}`);
  const keyOf = (sign: string, r: { from: string; to: string; type: string }) => (sym(r) ? `${sign}${r.type}|${otherId(r)}` : `${sign}${r.from}|${r.type}|${r.to}`);
  const rows: RelRow[] = [];
  const seen = new Set<string>();
  const push = (row: RelRow) => { if (!seen.has(row.key)) { seen.add(row.key); rows.push(row); } };
  for (const r of s.relationships) {
    if (r.origin !== 'event') continue;
    push({ key: keyOf('+', r), text: `+ ${r.type} ${other(r)}`, source: r.provenance ? `← ${cite(r.provenance)}` : '', removed: false });
  }
  for (const r of s.removedRelationships) {
    push({ key: keyOf('-', r), text: `− ${r.type} ${other(r)}`, source: `← ${cite(r.removedBy)}`, removed: true });
  }
  return rows;
}
