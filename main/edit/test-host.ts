/**
 * Tests only: a real edit host over a temp vault — real config loader, schema
 * compiler, Kùzu store and sync engine (the same parts openCore composes).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadVaultConfig } from '../config/load.js';
import { compileSchema } from '../config/schema-index.js';
import { fromSchemaIndex } from '../model/schema-adapter.js';
import { createKuzuStore } from '../store/kuzu-store.js';
import { VaultSyncEngine } from '../sync/engine.js';
import type { EditHost } from './commands.js';

export interface TestHost extends EditHost {
  engine: VaultSyncEngine;
  close(): Promise<void>;
}

export function writeVault(files: Record<string, string>, root = mkdtempSync(join(tmpdir(), 'lc-edit-'))): string {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

export async function openTestHost(vaultDir: string): Promise<TestHost> {
  const loaded = loadVaultConfig(vaultDir);
  const idx = compileSchema(loaded.schema);
  const store = createKuzuStore(join(vaultDir, '.lorecraft', 'db'));
  const fresh = await store.open(loaded.schema, idx.fingerprint);
  const engine = new VaultSyncEngine({ vaultDir, config: loaded.config, schemaView: fromSchemaIndex(idx), store, storeStale: !fresh, configProblems: loaded.problems });
  await engine.syncAll();
  return {
    vaultDir,
    engine,
    async close() {
      await engine.close();
      await store.close();
    },
  };
}

export function removeVault(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** the schema of the relationship-property tests (issue 18): ALLIED_WITH with an attitude and trust, MEMBER_OF with a role */
export const REL_PROPS_SCHEMA = `
entity_types:
  - name: npc
    field_mappings:
      - { field: allies, relationship: ALLIED_WITH }
      - { field: faction, relationship: MEMBER_OF, cardinality: scalar }
  - name: faction
    field_mappings:
      - { field: allies, relationship: ALLIED_WITH }
      - { field: members, relationship: HAS_MEMBER }
relationship_types:
  - name: ALLIED_WITH
    symmetric: true
    properties:
      - { name: attitude, type: enum, values: [wary, fearful, friendly, trusting, sworn] }
      - { name: trust, type: integer }
  - name: MEMBER_OF
    inverse: HAS_MEMBER
    properties:
      - { name: role, type: string }
`;
