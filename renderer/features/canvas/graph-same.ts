/**
 * Whether a graph snapshot just fetched is the one already shown: a refresh that changed nothing (the end of an
 * opening's sync announces vault-changed) then keeps the shown snapshot object, so the canvas rebuilds no
 * elements and restyles nothing. Pure (tested).
 */
import type { GraphSnapshot } from '../../../shared/types.js';

/** Two snapshots with the same nodes and edges, field by field, in the same order (a refresh that changed nothing). */
export function sameGraph(a: GraphSnapshot | null, b: GraphSnapshot): boolean {
  if (!a || a.nodes.length !== b.nodes.length || a.edges.length !== b.edges.length) return false;
  for (let i = 0; i < a.nodes.length; i++) {
    const x = a.nodes[i]!, y = b.nodes[i]!;
    if (x.id !== y.id || x.name !== y.name || x.type !== y.type || x.layer !== y.layer || x.path !== y.path
      || x.placeholder !== y.placeholder || x.tags.length !== y.tags.length || x.tags.some((t, k) => t !== y.tags[k])) return false;
  }
  for (let i = 0; i < a.edges.length; i++) {
    const x = a.edges[i]!, y = b.edges[i]!;
    if (x.from !== y.from || x.to !== y.to || x.type !== y.type || x.field !== y.field) return false;
  }
  return true;
}
