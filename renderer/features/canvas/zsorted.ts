/**
 * Keeping Cytoscape's draw-order list (the renderer's z-sorted elements) up to date by hand when a timeline step
 * adds or removes a few edges, instead of letting the renderer sort every element again (4,400 in the bench's
 * scrub world, ~60 of its 67 steps add or remove an edge). Pure; the controller applies it (installQuietHint).
 */

/** Cytoscape 3.x's draw order (zIndexSort) for a graph without compound nodes or z-compound-depth / z-index-compare rules: edges under nodes, then z-index, then the order added. */
export interface ZOrdered { isNode(): boolean; pstyle(name: 'z-index'): { value: number }; poolIndex(): number }
export function zCompare(a: ZOrdered, b: ZOrdered): number {
  return (a.isNode() ? 1 : 0) - (b.isNode() ? 1 : 0) || a.pstyle('z-index').value - b.pstyle('z-index').value || a.poolIndex() - b.poolIndex();
}

/** `sorted` (ascending by `cmp`) without `remove` and with `add` put in place (binary search), in place; returns it. */
export function patchSorted<T>(sorted: T[], add: readonly T[], remove: ReadonlySet<T>, cmp: (a: T, b: T) => number): T[] {
  if (remove.size) {
    let w = 0;
    for (let i = 0; i < sorted.length; i++) if (!remove.has(sorted[i]!)) sorted[w++] = sorted[i]!;
    sorted.length = w;
  }
  for (const x of add) {
    let lo = 0, hi = sorted.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cmp(sorted[mid]!, x) <= 0) lo = mid + 1; else hi = mid; }
    sorted.splice(lo, 0, x);
  }
  return sorted;
}

/**
 * Cytoscape 3.x (checked on 3.34) asks its renderer to sort every element again ('zorder') when an element's
 * opacity goes to or from zero, or to or from an unset value ("could be anything"): a class that sets an opacity
 * (a timeline status) taken off an element deletes the property on the way, so ~52 of the bench scrub's 67 steps
 * sorted all 4,400 elements again. Yet neither its draw order (zIndexSort: z-compound-depth, z-index-compare,
 * z-index, the order added) nor its list of interactive elements (events, visibility, display, size) reads
 * opacity: for opacity the notification only costs that sort. It is dropped for opacity on this style; every
 * other property notifies as before. Returns false when the style lacks the hook (left alone).
 */
export function skipOpacityZOrder(style: unknown): boolean {
  const s = style as { checkZOrderTrigger?: (ele: unknown, name: string, from: unknown, to: unknown) => void } | null;
  const orig = s?.checkZOrderTrigger;
  if (!s || typeof orig !== 'function') return false;
  s.checkZOrderTrigger = function (this: unknown, ele, name, from, to) { if (name !== 'opacity') orig.call(this, ele, name, from, to); };
  return true;
}

/** The renderer's z-sorted list with the sub-lists it keeps beside it (Cytoscape 3.x getCachedZSortedEles, updateCachedGrabbedEles). */
export type ZLists<T> = T[] & { interactive?: T[]; drag?: T[]; nondrag?: T[] };

/**
 * A step's added / removed elements, all of them on the drag layer and none grabbed, put into (taken out of) the
 * draw order and its sub-lists by binary search: `interactive` (a subsequence of the order) and `drag` (the drag
 * layer's elements in order, grabbed ones last). `nondrag` holds none of them and stays as it is. Returns false,
 * changing nothing, when the lists are not all there or the drag list ends with a grabbed element (a node being
 * dragged: the caller rebuilds them). O(log n) a step's element and O(n) once per removal, instead of two O(n)
 * passes with an `interactive()` test of every element at each add or remove.
 */
export function patchZLists<T>(sorted: ZLists<T>, add: readonly T[], remove: ReadonlySet<T>, cmp: (a: T, b: T) => number,
  interactive: (x: T) => boolean, grabbed: (x: T) => boolean): boolean {
  const { interactive: inter, drag, nondrag } = sorted;
  if (!inter || !drag || !nondrag) return false;
  if (drag.length && grabbed(drag[drag.length - 1]!)) return false;
  patchSorted(sorted, add, remove, cmp);
  patchSorted(inter, add.filter(interactive), remove, cmp);
  patchSorted(drag, add, remove, cmp);
  return true;
}
