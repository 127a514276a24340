/**
 * Two per-element costs of Cytoscape 3.34 that a big first graph pays thousands of times for nothing (issue 19.2,
 * layout19g). Both keep Cytoscape's own behaviour; they only skip work whose result is known to be empty.
 *
 * - **A style property's triggers** (`style.checkTriggers`, run for every property a style apply sets: ~40 a fresh
 *   node) begin with `ele.dirtyStyleCache()`, which, without compound nodes, clears the element's style cache and
 *   those of its connected edges — found through `ele.connectedEdges()`, a new collection (and a traversal-cache
 *   probe) at every property, even for a node with no edges at all. In a 5k load's CPU profile that was ~20 % of
 *   styling the nodes. Here the same caches are cleared by walking the node's own edge list.
 * - **The texture caches' invalidation** of every element whose style or bounds changed, before each frame
 *   (`invalidateTextureCaches` → `ElementTextureCache.invalidateElement` on the element, label, source-label and
 *   target-label caches): for an element none of them has ever cached (no key noted for its id) it still looks up
 *   every zoom level's cache map (8 levels × 4 caches) only to find nothing to invalidate. The first frame of a
 *   big graph (all of it fresh) spent ~0.8 s of CPU there at load ~11. Such an element now goes straight to the
 *   part that can still matter: its removal from the refinement queue.
 */

interface ElePrivate { styleCache?: unknown; group?: string; edges?: Array<{ _private: ElePrivate }> }
interface Ele { _private: ElePrivate; id(): string }

interface TriggerStyle {
  checkTriggers?(ele: Ele, name: string, from: unknown, to: unknown): void;
  checkZOrderTrigger(ele: Ele, name: string, from: unknown, to: unknown): void;
  checkBoundsTrigger(ele: Ele, name: string, from: unknown, to: unknown): void;
  checkConnectedEdgesBoundsTrigger(ele: Ele, name: string, from: unknown, to: unknown): void;
  checkParallelEdgesBoundsTrigger(ele: Ele, name: string, from: unknown, to: unknown): void;
}

/**
 * `cy.style()`'s `checkTriggers` without a collection per property: the element's style cache and its edges' cleared
 * directly, then the same four checks in the same order. Falls back to Cytoscape's own while the graph has
 * compound nodes (its dirtyStyleCache then walks parents and descendants). Returns false, changing nothing,
 * when the style lacks these hooks (another Cytoscape version).
 */
export function installDirectStyleDirty(cy: unknown): boolean {
  const core = cy as { style?(): unknown; hasCompoundNodes?(): boolean } | null;
  if (!core || typeof core.style !== 'function' || typeof core.hasCompoundNodes !== 'function') return false;
  const hasCompounds = () => core.hasCompoundNodes!();
  const s = core.style() as TriggerStyle | null;
  const orig = s?.checkTriggers;
  if (!s || typeof orig !== 'function' || typeof s.checkZOrderTrigger !== 'function' || typeof s.checkBoundsTrigger !== 'function'
    || typeof s.checkConnectedEdgesBoundsTrigger !== 'function' || typeof s.checkParallelEdgesBoundsTrigger !== 'function') return false;
  s.checkTriggers = function (this: TriggerStyle, ele, name, from, to) {
    const p = ele?._private;
    if (!p || hasCompounds()) { orig.call(this, ele, name, from, to); return; }
    // ele.dirtyStyleCache(), as Cytoscape does it without compounds: the element, and a node's connected edges
    p.styleCache = null;
    if (p.group === 'nodes' && p.edges) for (const e of p.edges) e._private.styleCache = null;
    this.checkZOrderTrigger(ele, name, from, to);
    this.checkBoundsTrigger(ele, name, from, to);
    this.checkConnectedEdgesBoundsTrigger(ele, name, from, to);
    this.checkParallelEdgesBoundsTrigger(ele, name, from, to);
  };
  return true;
}

interface Lookup { keyForId: Map<string, unknown>; isInvalid(ele: Ele): boolean }
interface TextureCache { lookup?: Lookup; invalidateElement?(ele: Ele): void; removeFromQueue?(ele: Ele): void }

/** the renderer's element-texture caches this patches (its layered cache works by layer, not by key, and is left alone) */
export const TEXTURE_CACHES = ['eleTxrCache', 'lblTxrCache', 'slbTxrCache', 'tlbTxrCache'] as const;

/** how many invalidations took the short way (tests, bench) */
export interface FreshSkipStats { skipped: number }

/**
 * `invalidateElement` of the canvas renderer's element-texture caches, short for an element the cache holds no
 * key for: nothing of it is cached at any level, so of Cytoscape's steps (is it invalid? collect its caches at
 * each level; forget its key; mark those caches invalid; take it off the refinement queue) only the first and the
 * last can do anything. Returns the stats, or null when the renderer lacks these internals.
 */
export function installFreshTextureSkip(renderer: unknown): FreshSkipStats | null {
  const data = (renderer as { data?: Record<string, TextureCache | undefined> } | null | undefined)?.data;
  if (!data) return null;
  const stats: FreshSkipStats = { skipped: 0 };
  let patched = 0;
  for (const name of TEXTURE_CACHES) {
    const c = data[name];
    const orig = c?.invalidateElement, lookup = c?.lookup;
    if (!c || typeof orig !== 'function' || typeof c.removeFromQueue !== 'function' || !lookup || !(lookup.keyForId instanceof Map)
      || typeof lookup.isInvalid !== 'function') continue;
    c.invalidateElement = function (this: TextureCache, ele) {
      if (lookup.keyForId.has(ele.id())) { orig.call(this, ele); return; }
      stats.skipped++;
      if (lookup.isInvalid(ele)) this.removeFromQueue!(ele);
    };
    patched++;
  }
  return patched ? stats : null;
}
