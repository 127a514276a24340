/** Test helpers: a real engine over a real temp vault and a real Kùzu store. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadVaultConfig } from '../config/load.js';
import { compileSchema } from '../config/schema-index.js';
import { fromSchemaIndex } from '../model/schema-adapter.js';
import { createKuzuStore } from '../store/kuzu-store.js';
import type { GraphStore } from '../store/types.js';
import { VaultSyncEngine, type EngineOptions } from './engine.js';

export function tempDir(prefix = 'lc-sync-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export async function openEngine(vaultDir: string, dbDir: string, extra: Partial<EngineOptions> = {}): Promise<VaultSyncEngine> {
  const loaded = loadVaultConfig(vaultDir);
  const index = compileSchema(loaded.schema);
  const store = createKuzuStore(dbDir);
  const ok = await store.open(loaded.schema, index.fingerprint);
  return new VaultSyncEngine({
    vaultDir, config: loaded.config, schemaView: fromSchemaIndex(index), store, storeStale: !ok,
    configProblems: loaded.problems, ...extra,
  });
}

export async function closeEngine(e: VaultSyncEngine): Promise<void> {
  await e.close();
  await e.store.close();
}

/** Everything the store holds, as sorted JSON lines (entities, then every stored edge incl. inverse mirrors). */
export async function dumpStore(store: GraphStore): Promise<{ entities: string[]; edges: string[] }> {
  const ents = await store.cypher(
    'MATCH (e:Entity) RETURN e.id AS id, e.name AS name, e.type AS type, e.layer AS layer, e.path AS path, e.hash AS hash, ' +
    'e.tags AS tags, e.aliases AS aliases, e.props AS props, e.body AS body, e.placeholder AS placeholder');
  const edges = await store.cypher(
    'MATCH (a:Entity)-[r]->(b:Entity) RETURN label(r) AS t, a.id AS f, b.id AS to, r.field AS field, r.source AS source, r.line AS line');
  return { entities: ents.map((r) => JSON.stringify(r)).sort(), edges: edges.map((r) => JSON.stringify(r)).sort() };
}

export function dumpModel(e: VaultSyncEngine): { entities: string[]; edges: string[] } {
  return {
    entities: [...e.model.entities()].map((x) => JSON.stringify(x)).sort(),
    edges: [...e.model.edges()].map((x) => JSON.stringify(x)).sort(),
  };
}

