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
import type { VaultModel } from './model.js';

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
