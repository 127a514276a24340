/**
 * Importance of each entity in an exported world: PageRank over its visible
 * relationships (both directions count: a relationship is a fact about both
 * ends), 30 power iterations, damping 0.85. Deterministic; O(iterations × edges).
 * The app ranks with Kùzu's algo extension; an export works on the files alone.
 */
import type { WorldView } from '../visibility/world.js';

export function importance(view: Pick<WorldView, 'entities' | 'relationships'>, iterations = 30, damping = 0.85): Map<string, number> {
  const ids = view.entities.map((e) => e.id);
  const index = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length;
  const out: number[][] = ids.map(() => []);
  for (const r of view.relationships) {
    const a = index.get(r.from), b = index.get(r.to);
    if (a === undefined || b === undefined || a === b) continue;
    out[a]!.push(b); out[b]!.push(a);
  }
  let rank = new Float64Array(n).fill(n ? 1 / n : 0);
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(n).fill((1 - damping) / Math.max(1, n));
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const targets = out[i]!;
      if (!targets.length) { dangling += rank[i]!; continue; }
      const share = (damping * rank[i]!) / targets.length;
      for (const t of targets) next[t]! += share;
    }
    const spread = (damping * dangling) / Math.max(1, n);
    for (let i = 0; i < n; i++) next[i]! += spread;
    rank = next;
  }
  return new Map(ids.map((id, i) => [id, rank[i]!]));
}

/** entities by importance, most important first (name breaks ties) */
export function byImportance<T extends { id: string; name: string }>(items: T[], rank: Map<string, number>): T[] {
  return [...items].sort((a, b) => (rank.get(b.id) ?? 0) - (rank.get(a.id) ?? 0) || a.name.localeCompare(b.name));
}
