/**
 * Test helpers for the model: build ParsedNotes with the real parser and a
 * SchemaView from a schema.yaml text through the real config compiler.
 */
import { parseNote } from '../parse/parse.js';
import type { ParsedNote } from '../parse/types.js';
import { SchemaZ, VaultConfigZ, type VaultConfig } from '../config/types.js';
import { parse as parseYaml } from 'yaml';
import { schemaViewFromYaml } from './schema-adapter.js';
import type { SchemaView } from './schema-view.js';
import { loadVaultConfig, type LoadOptions } from '../config/load.js';
import { compileSchema } from '../config/schema-index.js';
import { readNotes } from '../sync/read.js';
import { walkVault } from '../sync/walk.js';
import { fromSchemaIndex } from './schema-adapter.js';
import { VaultModel } from './model.js';

export function note(path: string, text: string, titleField = 'title'): ParsedNote {
  return parseNote(path, Buffer.from(text, 'utf8'), { titleField });
}

export function config(yaml = ''): VaultConfig {
  return VaultConfigZ.parse(yaml.trim() ? parseYaml(yaml) : {});
}

export function schemaView(yaml = ''): SchemaView {
  return schemaViewFromYaml(yaml, SchemaZ);
}

/** The model as plain data: entities (with their bodies, read however the model holds them), edges, problems. */
export function modelState(m: VaultModel) {
  const json = (x: unknown) => JSON.stringify(x);
  return {
    entities: [...m.entities()].map((e) => json({ ...e })).sort(),
    edges: [...m.edges()].map(json).sort(),
    problems: m.problems().map(json).sort(),
  };
}

/** A fresh, empty model of the vault in `dir` and its notes, read and parsed anew through the real config, walk and reader. */
export async function freshModel(dir: string, opts: LoadOptions = {}): Promise<{ model: VaultModel; notes: ParsedNote[] }> {
  const loaded = loadVaultConfig(dir, opts);
  const sv = fromSchemaIndex(compileSchema(loaded.schema, loaded.config.calendar ?? null));
  const model = new VaultModel(loaded.config, sv, loaded.problems);
  const walk = await walkVault(dir, model.layers);
  const read = await readNotes(walk.files, { titleField: loaded.schema.title_field });
  return { model, notes: read.notes };
}
