import type { RelationView } from '../../../shared/types.js';

/**
 * Relations grouped by the label seen from this end (→ MEMBER_OF, ← HAS_MEMBER, ↔ ALLIED_WITH);
 * one entry per other entity in a group (sorted by name), however many fields or links produce it.
 */
export function groupRelations(rels: RelationView[]): Array<[string, Array<{ other: RelationView['other']; why: string[] }>]> {
  const m = new Map<string, Map<string, { other: RelationView['other']; why: string[] }>>();
  for (const r of rels) {
    const key = `${r.direction === 'in' ? '←' : r.direction === 'out' ? '→' : '↔'} ${r.label}`;
    let g = m.get(key);
    if (!g) m.set(key, (g = new Map()));
    let entry = g.get(r.other.id);
    if (!entry) g.set(r.other.id, (entry = { other: r.other, why: [] }));
    entry.why.push(r.field ? `field “${r.field}” in ${r.source}` : `link in ${r.source}`);
  }
  // body links ([[...]] in prose) after the typed relationships: they are the least specific
  const rank = (k: string) => (k.endsWith(' LINKS_TO') ? 1 : 0);
  return [...m.entries()].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)).map(([k, g]) => [k, [...g.values()].sort((a, b) => a.other.name.localeCompare(b.other.name))]);
}
