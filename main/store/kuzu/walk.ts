/** What a neighbours() walk covers, shared by the recursive walk (traverse.ts) and the level-by-level one. */
import type { EntitySummary, TraversalStep } from '../../../shared/types.js';
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

/** Code-unit order (not locale: the same on every machine). */
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The one total order of a walk's steps: depth, from, to, type, direction (a step is unique on
 * these). Kùzu returns rows in no fixed order (parallel scans), so pages cut from an unsorted
 * list dropped and repeated steps between calls.
 */
export function compareSteps(a: TraversalStep, b: TraversalStep): number {
  return a.depth - b.depth || cmp(a.from, b.from) || cmp(a.to, b.to) || cmp(a.type, b.type) || cmp(a.direction, b.direction);
}

/** Entities of a walk: by level, then id; a cut (MAX_TRAVERSAL_ENTITIES) keeps a prefix of this order. */
export function levelOrder(level: ReadonlyMap<string, number>): (a: string, b: string) => number {
  return (a, b) => (level.get(a) as number) - (level.get(b) as number) || cmp(a, b);
}
