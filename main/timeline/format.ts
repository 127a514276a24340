/**
 * Human-readable text for timeline answers (CLI, MCP text content): one fact
 * per line, with where each changed value came from, e.g.
 *   status: dead  ← event "The Death of Captain Varo" (session 5)
 */
import type { PropertyValue } from '../../shared/types.js';
import type { EntityStateView, Provenance, RelationshipState, TimelineDiff, TimelineEvent } from './types.js';

export type NameOf = (id: string) => string;

export function showValue(v: PropertyValue | undefined): string {
  if (v === undefined) return '(unset)';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

export function from(p: Provenance | undefined): string {
  return p ? `  ← event "${p.name}" (session ${p.session})` : '';
}

function where(p: Provenance): string {
  return `${p.path}:${p.line}`;
}

function relLine(r: RelationshipState, self: string, nameOf: NameOf): string {
  return r.from === self ? `${r.type} → ${nameOf(r.to)}` : `${r.type} ← ${nameOf(r.from)}`;
}

export function formatState(s: EntityStateView, session: number | null, nameOf: NameOf): string[] {
  const at = session === null ? 'after every event' : `at session ${session}`;
  const out = [`${s.name}${s.type ? ` (${s.type})` : ''} — note in layer ${s.layer}, ${at}`];
  const life = s.lifecycle === 'exists' ? 'exists' : s.lifecycle === 'destroyed' ? 'destroyed' : 'not yet created';
  out.push(`  lifecycle: ${life}${from(s.lifecycle === 'destroyed' ? s.destroyed : s.created)}`);
  if (s.dead) out.push(`  dead${from(s.died)}`);
  const keys = Object.keys({ ...s.properties, ...s.provenance }).sort();
  if (keys.length > 0) out.push('properties:');
  for (const k of keys) out.push(`  ${k}: ${showValue(s.properties[k])}${from(s.provenance[k])}`);
  // body links (LINKS_TO) are counted, not listed: the typed relationships are what a GM reads
  const typed = s.relationships.filter((r) => r.type !== 'LINKS_TO');
  const links = s.relationships.length - typed.length;
  if (typed.length > 0 || links > 0) out.push('relationships:');
  const order = (r: RelationshipState) => `${r.origin === 'event' ? 1 : 0}${r.type}${nameOf(r.from === s.id ? r.to : r.from)}`;
  for (const r of [...typed].sort((a, b) => order(a).localeCompare(order(b)))) out.push(`  ${relLine(r, s.id, nameOf)}${from(r.provenance)}`);
  if (links > 0) out.push(`  (+${links} body link${links === 1 ? '' : 's'} LINKS_TO; --json lists them)`);
  if (s.removedRelationships.length > 0) out.push('removed relationships:');
  for (const r of s.removedRelationships) out.push(`  ${relLine(r, s.id, nameOf)}  ✗ removed by event "${r.removedBy.name}" (session ${r.removedBy.session})`);
  return out;
}

export function formatTimeline(events: TimelineEvent[], layer: string): string[] {
  if (events.length === 0) return [`no events in layer '${layer}'`];
  const out: string[] = [];
  let session: number | null | undefined;
  for (const e of events) {
    if (e.session !== session) {
      session = e.session;
      out.push(session === null ? 'Unscheduled (no session number)' : `Session ${session}`);
    }
    out.push(`  ${e.date ? `[${e.date.label}] ` : ''}${e.name}  (${e.path})`);
    if (e.participants.length) out.push(`    participants: ${e.participants.map((p) => p.name).join(', ')}`);
    if (e.location) out.push(`    location: ${e.location.name}`);
    for (const c of e.consequences) out.push(`    ${c.valid ? '•' : '✗'} ${c.text}${c.valid ? '' : '  (invalid: not applied)'}`);
  }
  return out;
}

export function formatDiff(d: TimelineDiff, nameOf: NameOf): string[] {
  const out = [`Layer ${d.layer}: session ${d.from} → session ${d.to} (${d.events.length} event${d.events.length === 1 ? '' : 's'})`];
  const list = (title: string, items: Array<{ name: string; provenance?: Provenance }>) => {
    if (items.length === 0) return;
    out.push(`${title}:`);
    for (const i of items) out.push(`  ${i.name}${from(i.provenance)}`);
  };
  list('created', d.created);
  list('destroyed', d.destroyed);
  list('died', d.died);
  list('back to life', d.revived);
  if (d.changes.length > 0) out.push('changed:');
  for (const c of d.changes) out.push(`  ${c.name}.${c.property}: ${showValue(c.before)} → ${showValue(c.after)}${from(c.provenance)}`);
  if (d.relationshipsAdded.length > 0) out.push('relationships added:');
  for (const r of d.relationshipsAdded) out.push(`  ${nameOf(r.from)} ${r.type} → ${nameOf(r.to)}${from(r.provenance)}`);
  if (d.relationshipsRemoved.length > 0) out.push('relationships removed:');
  for (const r of d.relationshipsRemoved) out.push(`  ${nameOf(r.from)} ${r.type} → ${nameOf(r.to)}`);
  if (out.length === 1) out.push('  nothing changed');
  return out;
}

/** `path:line` of a provenance, for --verbose style output. */
export { where as provenanceLocation };
