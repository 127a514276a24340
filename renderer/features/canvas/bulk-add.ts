/**
 * Many edges into Cytoscape in one `cy.add`, without its per-edge traversal of the parallel edges.
 *
 * Cytoscape 3.x's `restore()` (what `cy.add` runs) ends with, for every added edge:
 *   edge.parallelEdges().clearTraversalCache(); edge.source().clearTraversalCache(); edge.target().clearTraversalCache();
 * `parallelEdges()` is never cached without an argument, so each call scans the source's edges and builds two
 * collections: at 20k edges onto a 6k-node graph that is about half of the whole add (issue 19 point 2, layout19e's
 * profile: 0.5 of 1.1 s, loaded). The traversal caches it clears are only caches; here they are cleared once,
 * afterwards, for a superset of the same elements (every edge at either end of an added edge, and those ends), which
 * leaves Cytoscape in the same state. A Cytoscape without these internals gets the plain `cy.add`.
 */
import type { Core as Cy, ElementDefinition } from 'cytoscape';

/** From this many edges on the parallel-edge traversal is skipped (below, the plain add costs next to nothing). */
export const BULK_EDGES_AT = 200;

interface Priv { traversalCache?: unknown; edges?: Array<{ _private: Priv }>; source?: { _private: Priv }; target?: { _private: Priv } }
type Proto = { parallelEdges?: (...a: unknown[]) => unknown };

/** cleared after the add (clearAround) */
function noop(): void { /* nothing */ }

/**
 * The stand-in for `ele.parallelEdges()` during the add: its `clearTraversalCache()` does nothing (clearAround does
 * it afterwards); anything else asked of it (a style trigger's `forEach`, say) is answered by the real collection.
 */
function standIn(ele: unknown, own: (...a: unknown[]) => unknown): unknown {
  let real: Record<string | symbol, unknown> | null = null;
  return new Proxy({}, {
    get(_t, k) {
      if (k === 'clearTraversalCache') return noop;
      real ??= own.apply(ele, []) as Record<string | symbol, unknown>;
      const v = real[k];
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(real) : v;
    },
  });
}

/**
 * Add `defs` (edges) to `cy` as `cy.add(defs)` would; returns the added collection. From BULK_EDGES_AT edges on,
 * the per-edge `parallelEdges()` of the add is answered by a stand-in and the same caches are cleared afterwards.
 */
export function addEdges(cy: Cy, defs: ElementDefinition[]): ReturnType<Cy['add']> {
  const proto = Object.getPrototypeOf(cy.collection()) as Proto;
  const own = proto.parallelEdges;
  if (defs.length < BULK_EDGES_AT || typeof own !== 'function') return cy.add(defs);
  let depth = 0;
  // only the add's own calls (on a single, just-restored edge, with no selector) get the stand-in
  proto.parallelEdges = function (this: { length: number }, ...a: unknown[]) {
    return depth > 0 && a.length === 0 && this.length === 1 ? standIn(this, own) : own.apply(this, a);
  };
  let added: ReturnType<Cy['add']>;
  try {
    depth++;
    added = cy.add(defs);
  } finally {
    depth--;
    proto.parallelEdges = own;
  }
  clearAround(added);
  return added;
}

/** What restore() would have cleared for each added edge: its parallel edges' (here: every edge at its ends) and its ends' caches. */
function clearAround(added: ReturnType<Cy['add']>): void {
  const seen = new Set<Priv>();
  const clearNode = (n: { _private: Priv } | undefined) => {
    if (!n || seen.has(n._private)) return;
    seen.add(n._private);
    n._private.traversalCache = null;
    for (const e of n._private.edges ?? []) e._private.traversalCache = null;
  };
  for (let i = 0; i < added.length; i++) {
    const p = (added[i] as unknown as { _private: Priv })._private;
    p.traversalCache = null;
    clearNode(p.source);
    clearNode(p.target);
  }
}
