/**
 * The accessible list mirror of a big graph is built in slices while the
 * browser is idle: its 10k <li> (2.4k nodes, 8k edges) in one commit held the
 * main thread ~0.5 s just after the layout, the canvas frozen with it.
 */
export const LIST_AT_ONCE = 2000;
export const LIST_SLICE = 250;

/** How many of `total` items the list renders: a short list all at once, a long one the `grown` built so far. */
export function listShown(total: number, grown: number): number {
  return total <= LIST_AT_ONCE ? total : Math.min(total, Math.max(LIST_SLICE, grown));
}
