/**
 * The one loader of a model without a graph database: config + schema, walk, parse, resolve — the
 * same modules the sync engine composes, minus the store. `lorecraft validate` and the `query
 * state|timeline|diff` commands run this way beside a running app that holds the database lock
 * (and tests stay fast). Read problems (walk, unreadable files) are the model's 'walk' problems.
 */
import { resolve } from 'node:path';
import type { Problem } from '../../shared/types.js';
import { loadVaultConfig, type LoadOptions } from '../config/load.js';
import { compileSchema } from '../config/schema-index.js';
import { VaultModel } from '../model/model.js';
import { fromSchemaIndex } from '../model/schema-adapter.js';
import { readNotes } from './read.js';
import { walkVault } from './walk.js';

export interface LoadedVault {
  readonly vaultDir: string;
  readonly model: VaultModel;
  /** the same model, shaped as a core's engine (what ProblemsHost and TimelineHost read) */
  readonly engine: { readonly model: VaultModel };
  /** problems reading config, schema and files (notes' own problems are in model.problems()) */
  readonly problems: Problem[];
}

export async function loadVaultModel(vaultDir: string, opts: LoadOptions = {}): Promise<LoadedVault> {
  const root = resolve(vaultDir);
  const loaded = loadVaultConfig(root, opts);
  const sv = fromSchemaIndex(compileSchema(loaded.schema, loaded.config.calendar ?? null));
  const model = new VaultModel(loaded.config, sv, loaded.problems);
  const walk = await walkVault(root, model.layers);
  const read = await readNotes(walk.files, { titleField: loaded.schema.title_field });
  model.load(read.notes);
  model.setExternalProblems('walk', [...walk.problems, ...read.problems]);
  return { vaultDir: root, model, engine: { model }, problems: [...loaded.problems, ...walk.problems, ...read.problems] };
}
