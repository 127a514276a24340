/**
 * Cycles in containment relationships (schema `hierarchy: true`, e.g. PART_OF):
 * a place cannot be inside itself. Every edge that lies on a cycle becomes a
 * 'part-of-cycle' problem at the file and line that declares it.
 */
import type { Problem, RelationshipRecord } from '../../shared/types.js';

export function hierarchyCycleProblems(edges: Iterable<RelationshipRecord>, isHierarchy: (type: string) => boolean): Problem[] {
  const byType = new Map<string, RelationshipRecord[]>();
  for (const e of edges) {
    if (!isHierarchy(e.type)) continue;
    const l = byType.get(e.type);
    if (l) l.push(e); else byType.set(e.type, [e]);
  }
  const problems: Problem[] = [];
  for (const [type, list] of byType) {
    const comp = stronglyConnected(list);
    const sorted = [...list].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.line - b.line));
    for (const e of sorted) {
      const c = comp.get(e.from);
      const onCycle = e.from === e.to || (c !== undefined && c === comp.get(e.to) && c.size > 1);
      if (!onCycle) continue;
      const members = e.from === e.to ? [e.from] : [...c!].sort();
      problems.push({
        severity: 'error', code: 'part-of-cycle', file: e.source, line: e.line, entityId: e.from,
        ...(e.field ? { field: e.field } : {}),
        message: `${type} cycle: ${members.join(' -> ')} contain each other`,
        hint: `remove one ${type} link of the cycle`,
      });
    }
  }
  return problems;
}

/** Tarjan's algorithm (iterative): node -> its component (shared Set). */
function stronglyConnected(edges: RelationshipRecord[]): Map<string, Set<string>> {
  const adj = new Map<string, string[]>();
  for (const e of edges) {
    const l = adj.get(e.from);
    if (l) l.push(e.to); else adj.set(e.from, [e.to]);
    if (!adj.has(e.to)) adj.set(e.to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const comp = new Map<string, Set<string>>();
  let counter = 0;
  for (const start of adj.keys()) {
    if (index.has(start)) continue;
    const work: Array<[string, number]> = [[start, 0]];
    index.set(start, counter); low.set(start, counter); counter++;
    stack.push(start); onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      const next = adj.get(v)!;
      if (i < next.length) {
        top[1]++;
        const w = next[i]!;
        if (!index.has(w)) {
          index.set(w, counter); low.set(w, counter); counter++;
          stack.push(w); onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) { const u = work[work.length - 1]![0]; low.set(u, Math.min(low.get(u)!, low.get(v)!)); }
      if (low.get(v) === index.get(v)) {
        const set = new Set<string>();
        let w: string;
        do { w = stack.pop()!; onStack.delete(w); set.add(w); comp.set(w, set); } while (w !== v);
      }
    }
  }
  return comp;
}
