/** What a neighbours() walk covers, shared by the recursive walk (traverse.ts) and the level-by-level one. */
import type { EntitySummary } from '../../../shared/types.js';
import { type Direction } from '../../domain/types.js';
import { CoreError } from '../../domain/errors.js';
import type { Conn } from './db.js';
import type { RelRegistry } from './rels.js';
import type { SummaryCache } from './summaries.js';

/** Expansion stops adding entities past this many (a hub at depth 5 could otherwise return the whole world). */
export const MAX_TRAVERSAL_ENTITIES = 5000;

/** Canonical tables walked, the arrow they are walked along, and which of them are symmetric (walked both ways always). */
export interface WalkPlan { tables: string[]; dir: Direction; symmetric: string[] }

/**
 * A `type` filter may be canonical or inverse; an inverse name flips the
 * direction (HAS_MEMBER out = MEMBER_OF in). null: unknown type, nothing to walk.
 */
export function walkPlan(reg: RelRegistry, type: string | undefined, direction: Direction): WalkPlan | null {
  let tables = reg.names();
  let dir = direction;
  if (type !== undefined) {
    const r = reg.resolve(type) ?? reg.resolve(type.toUpperCase());
    if (!r) return null;
    tables = [r.canonical];
    if (r.inverted && dir !== 'both') dir = dir === 'out' ? 'in' : 'out';
  }
  return { tables, dir, symmetric: tables.filter((t) => reg.get(t)?.symmetric) };
}

export function clampDepth(depth: number): number {
  return Math.min(5, Math.max(1, Math.floor(depth || 1)));
}

export async function rootSummary(c: Conn, cache: SummaryCache, id: string): Promise<EntitySummary> {
  const s = (await cache.get(c, [id])).get(id);
  if (!s) throw new CoreError('not-found', `no entity with id "${id}"`);
  return s;
}
