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

export function note(path: string, text: string, titleField = 'title'): ParsedNote {
  return parseNote(path, Buffer.from(text, 'utf8'), { titleField });
}

export function config(yaml = ''): VaultConfig {
  return VaultConfigZ.parse(yaml.trim() ? parseYaml(yaml) : {});
}

export function schemaView(yaml = ''): SchemaView {
  return schemaViewFromYaml(yaml, SchemaZ);
}
