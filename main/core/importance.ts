/**
 * Node importance for the canvas (issue 15.5): PageRank from the store
 * (Kùzu's algo extension, on Kùzu's threads, off the UI path), cached per
 * model version, so an unchanged world never computes it twice and two
 * callers during one computation share it.
 */
import type { GraphStore } from '../store/types.js';

export class ImportanceCache {
  private cached: { version: number; ranks: Promise<Record<string, number>> } | null = null;

  constructor(private readonly store: GraphStore, private readonly version: () => number) {}

  /** entity id -> PageRank, rounded to 6 significant digits (the wire stays small) */
  ranks(): Promise<Record<string, number>> {
    const v = this.version();
    if (this.cached?.version !== v) {
      const ranks = this.store.pageRank().then((m) => Object.fromEntries([...m].map(([id, r]) => [id, Number(r.toPrecision(6))])));
      // a failure is not cached: the next call tries again
      ranks.catch(() => { if (this.cached?.ranks === ranks) this.cached = null; });
      this.cached = { version: v, ranks };
    }
    return this.cached.ranks;
  }
}
