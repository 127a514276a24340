/** Builders shared by the store tests and bench/store.ts (plain data, no mocks). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entityId } from '../../shared/names.js';
import type { EntityRecord, RelationshipRecord } from '../../shared/types.js';
import { SchemaZ, type Schema } from '../config/types.js';
import { createKuzuStore } from './kuzu-store.js';
import type { GraphStore } from './types.js';

export function testSchema(): Schema {
  return SchemaZ.parse({
    relationship_types: [
      { name: 'MEMBER_OF', inverse: 'HAS_MEMBER' },
      { name: 'PART_OF', inverse: 'CONTAINS', hierarchy: true },
      { name: 'ALLIED_WITH', symmetric: true },
      { name: 'LOCATED_IN', inverse: 'LOCATION_OF' },
    ],
  });
}

export function ent(name: string, extra: Partial<EntityRecord> = {}): EntityRecord {
  const layer = extra.layer ?? 'main';
  const placeholder = extra.placeholder ?? false;
  return {
    id: entityId(layer, name),
    name,
    type: null,
    layer,
    path: placeholder ? null : `${name}.md`,
    hash: placeholder ? null : `h-${name}`,
    tags: [],
    aliases: [],
    properties: {},
    body: '',
    placeholder,
    ...extra,
  };
}

export function edge(from: string, to: string, type: string, extra: Partial<RelationshipRecord> = {}): RelationshipRecord {
  return { from: entityId('main', from), to: entityId('main', to), type, field: null, source: `${from}.md`, line: 1, ...extra };
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'lorecraft-store-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A real Kùzu store whose full-text index build waits until `release()` (tests of what answers while an open's
 * search index is still being built). `indexed()`: whether the build has finished.
 */
export function heldSearchIndexStore(): { store: (dbDir: string) => GraphStore; release: () => void; indexed: () => boolean } {
  let release!: () => void;
  const held = new Promise<void>((ok) => { release = ok; });
  let done = false;
  const store = (dbDir: string): GraphStore => {
    const s = createKuzuStore(dbDir);
    const build = s.ensureSearchIndex.bind(s);
    s.ensureSearchIndex = async () => { await held; await build(); done = true; };
    return s;
  };
  return { store, release, indexed: () => done };
}
