/**
 * Relationship history ("were they allied at session 3?", seed 004's
 * was_true_at / true_during): the intervals during which a relationship held in
 * a layer, from the notes (since: null) and the events that added / removed it.
 */
import type { Compiled, LayerScope } from './compile.js';
import type { RelationshipInterval } from './types.js';

export function relationshipHistory(c: Compiled, sc: LayerScope, a: string, b?: string, type?: string): RelationshipInterval[] {
  const matches = (from: string, to: string, t: string) =>
    (type === undefined || t === type) && ((from === a && (b === undefined || to === b)) || (to === a && (b === undefined || from === b)));
  // symmetric types are one relationship whichever way they were written
  const key = (from: string, t: string, to: string) => (c.symmetric.has(t) && to < from ? `${to}\u0000${t}\u0000${from}` : `${from}\u0000${t}\u0000${to}`);
  const open = new Map<string, RelationshipInterval>();
  const out: RelationshipInterval[] = [];
  for (const e of sc.baseEdges.values()) {
    if (!matches(e.from, e.to, e.type)) continue;
    const k = key(e.from, e.type, e.to);
    if (open.has(k)) continue;
    const iv: RelationshipInterval = { from: e.from, to: e.to, type: e.type, since: null, until: null };
    open.set(k, iv);
    out.push(iv);
  }
  for (const ch of sc.relChanges) {
    const { from, to, relationship } = ch.cons;
    if (!from || !to || !relationship || !matches(from, to, relationship)) continue;
    const k = key(from, relationship, to);
    const cur = open.get(k);
    if (ch.cons.kind === 'relationship-add') {
      if (cur) continue;
      const iv: RelationshipInterval = { from, to, type: relationship, since: ch.prov, until: null };
      open.set(k, iv);
      out.push(iv);
    } else if (cur) {
      cur.until = ch.prov;
      open.delete(k);
    }
  }
  return out;
}

/** Did the relationship hold at the session (after its events)? */
export function heldAt(iv: RelationshipInterval, session: number): boolean {
  return (iv.since === null || iv.since.session <= session) && (iv.until === null || iv.until.session > session);
}
