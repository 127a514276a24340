/**
 * Read a vault into a model without a graph database: config + schema, walk,
 * parse, resolve — the same modules the sync engine composes, minus the store.
 * validate only needs the model, so `lorecraft validate` can run this way
 * beside a running app that holds the database lock (and tests stay fast).
 */
import { resolve } from 'node:path';
import { loadVaultConfig, type LoadOptions } from '../config/load.js';
import { compileSchema } from '../config/schema-index.js';
import { VaultModel } from '../model/model.js';
import { fromSchemaIndex } from '../model/schema-adapter.js';
import { readNotes } from '../sync/read.js';
import { walkVault } from '../sync/walk.js';
import type { ProblemsHost } from './index.js';

export interface LoadedModel extends ProblemsHost {
  readonly engine: { readonly model: VaultModel };
}

export async function loadModel(vaultDir: string, opts: LoadOptions = {}): Promise<LoadedModel> {
  const root = resolve(vaultDir);
  const loaded = loadVaultConfig(root, opts);
  const sv = fromSchemaIndex(compileSchema(loaded.schema, loaded.config.calendar ?? null));
  const model = new VaultModel(loaded.config, sv, loaded.problems);
  const walk = await walkVault(root, model.layers);
  const read = await readNotes(walk.files, { titleField: loaded.schema.title_field });
  model.load(read.notes);
  model.setExternalProblems('walk', [...walk.problems, ...read.problems]);
  return { vaultDir: root, engine: { model } };
}
