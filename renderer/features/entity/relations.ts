import type { RelationView } from '../../../shared/types.js';

/** one other entity in a group: why it is there, and the relationship's own properties as this end writes them */
export interface RelationEntry { other: RelationView['other']; why: string[]; properties?: Record<string, unknown> }
export type RelationGroup = [string, RelationEntry[]];

/**
 * Relations grouped by the label seen from this end (→ MEMBER_OF, ← HAS_MEMBER, ↔ ALLIED_WITH);
 * one entry per other entity in a group (sorted by name), however many fields or links produce it.
 */
export function groupRelations(rels: RelationView[]): RelationGroup[] {
  const m = new Map<string, Map<string, RelationEntry>>();
  for (const r of rels) {
    const key = `${r.direction === 'in' ? '←' : r.direction === 'out' ? '→' : '↔'} ${r.label}`;
    let g = m.get(key);
    if (!g) m.set(key, (g = new Map()));
    let entry = g.get(r.other.id);
    if (!entry) g.set(r.other.id, (entry = { other: r.other, why: [] }));
    entry.why.push(r.field ? `field “${r.field}” in ${r.source}` : `link in ${r.source}`);
    if (r.properties && !entry.properties) entry.properties = r.properties;
  }
  // body links ([[...]] in prose) after the typed relationships: they are the least specific
  const rank = (k: string) => (k.endsWith(' LINKS_TO') ? 1 : 0);
  return [...m.entries()].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)).map(([k, g]) => [k, [...g.values()].sort((a, b) => a.other.name.localeCompare(b.other.name))]);
}


/**
 * What the panel shows (issue 20): the typed relationships once, grouped by label, and the body links
 * (LINKS_TO: `[[links]]` in the prose or an unmapped field) apart, for a collapsed section — without the
 * entities a typed relationship already names, in either direction (a note that both maps and mentions
 * its faction shows the faction once, under MEMBER_OF).
 */
export function panelRelations(rels: RelationView[]): { typed: RelationGroup[]; links: RelationGroup[]; linkCount: number } {
  const isLink = (r: RelationView) => r.label === 'LINKS_TO' || r.type === 'LINKS_TO';
  const typed = rels.filter((r) => !isLink(r));
  const named = new Set(typed.map((r) => r.other.id));
  const links = groupRelations(rels.filter((r) => isLink(r) && !named.has(r.other.id)));
  return { typed: groupRelations(typed), links, linkCount: new Set(links.flatMap(([, g]) => g.map((e) => e.other.id))).size };
}
