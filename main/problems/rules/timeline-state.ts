/** Timeline state shared by the continuity rules of one validate run. */
import type { EntityState, GraphState } from '../../timeline/types.js';
import type { RuleContext } from '../types.js';

type StateHit = { state: GraphState; byId: Map<string, EntityState> };
const stateCaches = new WeakMap<object, Map<string, StateHit>>();

/** Caches stateAt per (layer, session), shared by the rules of one validate run (keyed by the facts object). */
export function stateCache(ctx: RuleContext) {
  let cache = stateCaches.get(ctx.timeline!);
  if (!cache) stateCaches.set(ctx.timeline!, (cache = new Map()));
  const c = cache;
  return (layer: string, session: number) => {
    const key = `${layer}\u0000${session}`;
    let hit = c.get(key);
    if (!hit) {
      const state = ctx.timeline!.stateAt(layer, session);
      hit = { state, byId: new Map(state.entities.map((s) => [s.id, s])) };
      c.set(key, hit);
    }
    return hit;
  };
}

