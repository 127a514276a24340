/** Link targets of an exported world: names, aliases and file names (case-insensitive) of the entities it shows. */
import type { WorldEntity } from '../visibility/world.js';

export class WorldNames {
  private readonly byKey = new Map<string, WorldEntity>();
  constructor(entities: WorldEntity[]) {
    // real notes before placeholders; the first entity to claim a key keeps it
    const ordered = [...entities].sort((a, b) => Number(a.placeholder) - Number(b.placeholder));
    for (const pass of ['name', 'alias', 'file'] as const) {
      for (const e of ordered) {
        const keys = pass === 'name' ? [e.name] : pass === 'alias' ? e.aliases : e.path ? [e.path.replace(/\.md$/i, ''), e.path.replace(/^.*\//, '').replace(/\.md$/i, '')] : [];
        for (const k of keys) if (!this.byKey.has(k.toLowerCase())) this.byKey.set(k.toLowerCase(), e);
      }
    }
  }
  resolve(name: string): WorldEntity | undefined {
    const k = name.trim().toLowerCase();
    return this.byKey.get(k) ?? this.byKey.get(k.slice(k.lastIndexOf('/') + 1));
  }
}
