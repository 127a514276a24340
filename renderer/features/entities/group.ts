import type { EntitySummary } from '../../../shared/types.js';

export interface TypeGroup { type: string; items: EntitySummary[] }

export const UNTYPED = '(untyped)';

/**
 * Entities grouped by type: schema types first in schema order, then any other
 * types alphabetically, untyped last; names sorted case-insensitively inside.
 */
export function groupByType(items: EntitySummary[], schemaOrder: string[] = []): TypeGroup[] {
  const groups = new Map<string, EntitySummary[]>();
  for (const e of items) {
    const key = e.type ?? UNTYPED;
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(e);
  }
  const rank = (t: string) => {
    if (t === UNTYPED) return [2, t] as const;
    const i = schemaOrder.indexOf(t);
    return i >= 0 ? ([0, String(i).padStart(6, '0')] as const) : ([1, t] as const);
  };
  return [...groups.entries()]
    .sort(([a], [b]) => {
      const [ra, ka] = rank(a);
      const [rb, kb] = rank(b);
      return ra - rb || ka.localeCompare(kb);
    })
    .map(([type, list]) => ({
      type,
      items: list.sort((x, y) => x.name.localeCompare(y.name, undefined, { sensitivity: 'base' }) || x.layer.localeCompare(y.layer)),
    }));
}
