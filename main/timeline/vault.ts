/**
 * Files-only view of a vault for the timeline: config + schema + every note
 * parsed into the real VaultModel, without opening the graph database (so
 * `lorecraft query state/timeline/diff` also works while the app holds the db).
 */
import path from 'node:path';
import type { Problem } from '../../shared/types.js';
import { loadVaultConfig } from '../config/load.js';
import { compileSchema } from '../config/schema-index.js';
import { VaultModel } from '../model/model.js';
import { fromSchemaIndex } from '../model/schema-adapter.js';
import { readNotes } from '../sync/read.js';
import { walkVault } from '../sync/walk.js';

export interface LoadedVault {
  vaultDir: string;
  model: VaultModel;
  /** problems reading config, schema and files (notes' own problems are in model.problems()) */
  problems: Problem[];
}

export async function loadVaultModel(vaultDir: string, opts: { configPath?: string; schemaPath?: string } = {}): Promise<LoadedVault> {
  const root = path.resolve(vaultDir);
  const loaded = loadVaultConfig(root, opts);
  const sv = fromSchemaIndex(compileSchema(loaded.schema, loaded.config.calendar ?? null));
  const model = new VaultModel(loaded.config, sv, loaded.problems);
  const walk = await walkVault(root, model.layers);
  const read = await readNotes(walk.files, { titleField: loaded.schema.title_field });
  model.load(read.notes);
  return { vaultDir: root, model, problems: [...loaded.problems, ...walk.problems, ...read.problems] };
}
