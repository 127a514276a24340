/**
 * The first style of a big batch of freshly added elements, without Cytoscape's per-property change triggers.
 *
 * Cytoscape (3.34) applies an element's style property by property and, for each property that changed (on a
 * fresh element: every one it sets), runs its triggers: for ~13 of a node's properties that is
 * `dirtyBoundingBoxCache()`, i.e. a `bounds` event emitted on the node and bubbled through every listener on the
 * core; for an edge's `curve-style` also a look-up of its parallel edges. On the bench's 5k graph that was about
 * a quarter of styling 6k nodes (0.7 of 2.8 s profiled) on the main thread while the first picture waits. For
 * elements that were just added and never styled these triggers only clear caches that are empty and tell the
 * renderer what the `add` already told it, so here they are replaced, for the duration of one `cleanStyle()`, by
 * the per-element part that matters (`dirtyStyleCache`), and followed by one `bounds` event per element and one
 * z-order notice for the whole batch. Used only when every node (or every edge) on the canvas is in the batch, so
 * no older element's cached bounds can depend on a fresh one's style (connected and parallel edges).
 * fresh-style.test.ts checks the result equals Cytoscape's own styling, property by property and box by box.
 */
import type { CollectionReturnValue, Core as Cy } from 'cytoscape';

type StyleInternals = { checkTriggers?: (ele: unknown, name: string, from: unknown, to: unknown) => void };
type Internals = { cleanStyle?: () => void; dirtyBoundingBoxCache?: () => void };

/** Cytoscape's own test for an open batch (not in its typings) */
export function batching(cy: Cy): boolean {
  return (cy as unknown as { batching(): boolean }).batching();
}

/**
 * Apply the style of `fresh` (elements just added, never styled, outside any batch) at once, without the change
 * triggers. Returns false (nothing done: Cytoscape styles them lazily as usual) when the canvas holds nodes or
 * edges that are not in `fresh` of a kind `fresh` has, or when this Cytoscape lacks the internals used here.
 * `other`: elements on the canvas that take no part (e.g. edgehandles' own), left out of that check.
 */
export function styleFresh(cy: Cy, fresh: CollectionReturnValue, other = ''): boolean {
  if (fresh.empty() || batching(cy)) return false;
  const nodes = fresh.nodes().length, edges = fresh.edges().length;
  const all = other ? cy.elements().not(other) : cy.elements();
  if (nodes && all.nodes().length !== nodes) return false;
  if (edges && all.edges().length !== edges) return false;
  const style = cy.style() as unknown as StyleInternals;
  const ints = fresh as unknown as Internals;
  const orig = style.checkTriggers;
  if (typeof orig !== 'function' || typeof ints.cleanStyle !== 'function' || typeof ints.dirtyBoundingBoxCache !== 'function') return false;
  const own = Object.prototype.hasOwnProperty.call(style, 'checkTriggers');
  style.checkTriggers = (ele) => { (ele as { dirtyStyleCache(): void }).dirtyStyleCache(); };
  try {
    ints.cleanStyle();
  } finally {
    if (own) style.checkTriggers = orig; else delete style.checkTriggers;
  }
  ints.dirtyBoundingBoxCache();
  (cy as unknown as { notify(event: string, eles: unknown): void }).notify('zorder', fresh);
  return true;
}
