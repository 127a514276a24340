/**
 * Loads lorecraft.yaml and schema.yaml from a vault (or override paths).
 *
 * Never throws for bad content: every defect is a Problem naming the file, the
 * line and what was expected, and the broken part falls back to its default.
 * A folder with neither file opens with defaults: one canonical layer 'main'
 * over '.', no entity types (every note untyped).
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Calendar } from '../timeline/calendar.js';
import type { Problem } from '../../shared/types.js';
import { LINK_REL, RELATED_REL } from '../../shared/types.js';
import { SchemaZ, VaultConfigZ, type Schema, type VaultConfig } from './types.js';
import { obsidianTemplateFolders } from './excludes.js';
import { lineOf, readYaml, validateRepair, type YamlSource } from './yaml-zod.js';

export const CONFIG_FILE = 'lorecraft.yaml';
export const SCHEMA_FILE = 'schema.yaml';

export interface LoadOptions {
  configPath?: string;
  schemaPath?: string;
}

export interface LoadedVaultConfig {
  config: VaultConfig;
  schema: Schema;
  problems: Problem[];
  /** absolute path of the config file that was read, when one exists */
  configFile?: string;
  schemaFile?: string;
}

export function defaultConfig(): VaultConfig {
  return VaultConfigZ.parse({});
}
export function defaultSchema(): Schema {
  return SchemaZ.parse({});
}

/** vault-relative posix path when inside the vault, else the absolute path */
function displayPath(vaultDir: string, abs: string): string {
  const rel = relative(vaultDir, abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : abs;
}

function readSource(path: string, file: string, problems: Problem[]): YamlSource | null {
  let text: string;
  try { text = readFileSync(path, 'utf8'); } catch (err) {
    problems.push({ severity: 'error', code: 'config-unreadable', file, message: `${file}: cannot read: ${err instanceof Error ? err.message : String(err)}` });
    return null;
  }
  const src = readYaml(text.replace(/^\uFEFF/, ''), file, problems);
  // Top-level `x-...` keys are extension slots (as in docker-compose): a place to
  // define YAML anchors reused below. They are not part of the schema.
  if (src.value && typeof src.value === 'object' && !Array.isArray(src.value)) {
    for (const k of Object.keys(src.value)) if (k.startsWith('x-')) delete (src.value as Record<string, unknown>)[k];
  }
  return src;
}

export function loadVaultConfig(vaultDir: string, opts: LoadOptions = {}): LoadedVaultConfig {
  const root = resolve(vaultDir);
  const problems: Problem[] = [];
  const out: LoadedVaultConfig = { config: defaultConfig(), schema: defaultSchema(), problems };

  const cfgPath = opts.configPath ? resolve(opts.configPath) : join(root, CONFIG_FILE);
  if (existsSync(cfgPath)) {
    out.configFile = cfgPath;
    const file = displayPath(root, cfgPath);
    const src = readSource(cfgPath, file, problems);
    if (src) {
      out.config = validateRepair(VaultConfigZ, src, file, problems);
      checkConfig(out.config, src, file, problems);
    }
  } else if (opts.configPath) {
    problems.push({ severity: 'error', code: 'config-missing', file: opts.configPath, message: `${opts.configPath}: no such file (defaults used)` });
  }

  // template folders named in Obsidian's settings, unless lorecraft.yaml names them itself
  if (out.config.template_folders === undefined) out.config.template_folders = obsidianTemplateFolders(root);

  const schPath = opts.schemaPath ? resolve(opts.schemaPath) : join(root, SCHEMA_FILE);
  if (existsSync(schPath)) {
    out.schemaFile = schPath;
    const file = displayPath(root, schPath);
    const src = readSource(schPath, file, problems);
    if (src) {
      out.schema = validateRepair(SchemaZ, src, file, problems);
      checkSchema(out.schema, src, file, problems);
    }
  } else if (opts.schemaPath) {
    problems.push({ severity: 'error', code: 'config-missing', file: opts.schemaPath, message: `${opts.schemaPath}: no such file (defaults used)` });
  }
  return out;
}

function refProblem(file: string, line: number, field: string, message: string, hint: string, severity: Problem['severity'] = 'error'): Problem {
  return { severity, code: 'config-reference', file, line, field, message: `${file}: ${message}`, hint };
}

/** Layer names unique; depends_on names existing layers, without cycles. Repairs in place. */
function checkConfig(config: VaultConfig, src: YamlSource, file: string, problems: Problem[]): void {
  const seen = new Set<string>();
  config.layers = config.layers.filter((l, i) => {
    if (seen.has(l.name)) {
      problems.push(refProblem(file, lineOf(src, ['layers', i, 'name']), 'layers', `layer '${l.name}' is declared twice (the second is ignored)`, 'give each layer a unique name'));
      return false;
    }
    seen.add(l.name);
    return true;
  });
  config.layers.forEach((l, i) => {
    l.depends_on = l.depends_on.filter((d, j) => {
      if (seen.has(d) && d !== l.name) return true;
      problems.push(refProblem(file, lineOf(src, ['layers', i, 'depends_on', j]), 'depends_on',
        d === l.name ? `layer '${l.name}' depends on itself` : `layer '${l.name}' depends on unknown layer '${d}'`,
        `known layers: ${[...seen].join(', ')}`));
      return false;
    });
  });
  if (config.calendar) {
    const issues = Calendar.check(config.calendar);
    for (const m of issues) problems.push(refProblem(file, lineOf(src, ['calendar']), 'calendar', m, 'fix calendar: in lorecraft.yaml (docs/timeline.md)'));
  }
  // cycles: drop the edge that closes one
  const byName = new Map(config.layers.map((l) => [l.name, l]));
  const reaches = (from: string, to: string, guard = new Set<string>()): boolean => {
    if (from === to) return true;
    if (guard.has(from)) return false;
    guard.add(from);
    return (byName.get(from)?.depends_on ?? []).some((d) => reaches(d, to, guard));
  };
  config.layers.forEach((l, i) => {
    l.depends_on = l.depends_on.filter((d, j) => {
      if (!reaches(d, l.name)) return true;
      problems.push(refProblem(file, lineOf(src, ['layers', i, 'depends_on', j]), 'depends_on', `layer '${l.name}' depends on '${d}', which depends back on it (cycle; ignored)`, 'layers must form a chain or tree'));
      return false;
    });
  });
  if (config.layers.length === 0) config.layers = defaultConfig().layers;
}

/** Cross-references inside schema.yaml. Repairs in place (see docs/schema.md). */
function checkSchema(schema: Schema, src: YamlSource, file: string, problems: Problem[]): void {
  // entity types unique (case-insensitive, since type: values match case-insensitively)
  const typeNames = new Map<string, string>();
  schema.entity_types = schema.entity_types.filter((t, i) => {
    const k = t.name.toLowerCase();
    if (typeNames.has(k)) {
      problems.push(refProblem(file, lineOf(src, ['entity_types', i, 'name']), 'entity_types', `entity type '${t.name}' is declared twice (the second is ignored)`, 'merge the two declarations'));
      return false;
    }
    typeNames.set(k, t.name);
    return true;
  });
  // relationship names (canonical and inverse) unique, built-ins reserved
  const relNames = new Set<string>([LINK_REL, RELATED_REL]);
  schema.relationship_types = schema.relationship_types.filter((r, i) => {
    const clash = [r.name, r.inverse].find((n) => n !== undefined && relNames.has(n));
    if (clash) {
      problems.push(refProblem(file, lineOf(src, ['relationship_types', i, 'name']), 'relationship_types', `relationship name '${clash}' is already used (built-in or declared earlier); '${r.name}' is ignored`, 'every canonical and inverse name must be unique'));
      return false;
    }
    if (r.inverse && r.symmetric) {
      problems.push(refProblem(file, lineOf(src, ['relationship_types', i, 'inverse']), 'inverse', `relationship '${r.name}' is symmetric and has an inverse: the inverse is ignored`, 'a symmetric relationship is its own inverse', 'warning'));
      delete r.inverse;
    }
    if (r.inverse === r.name) delete r.inverse;
    relNames.add(r.name);
    if (r.inverse) relNames.add(r.inverse);
    return true;
  });
  const knownType = (n: string) => typeNames.get(n.toLowerCase());
  schema.entity_types.forEach((t, ti) => {
    t.field_mappings.forEach((m, mi) => {
      const at = ['entity_types', ti, 'field_mappings', mi];
      if (!relNames.has(m.relationship) || m.relationship === LINK_REL) {
        if (m.relationship === LINK_REL || m.relationship === RELATED_REL) return;
        problems.push(refProblem(file, lineOf(src, [...at, 'relationship']), m.field,
          `type '${t.name}', field '${m.field}': relationship '${m.relationship}' is not declared in relationship_types; declared automatically`,
          `add { name: ${m.relationship} } to relationship_types`, 'warning'));
        schema.relationship_types.push({ name: m.relationship, symmetric: false, hierarchy: false, rules: false });
        relNames.add(m.relationship);
      }
      if (m.target_type !== undefined) {
        const list = Array.isArray(m.target_type) ? m.target_type : [m.target_type];
        const ok: string[] = [];
        list.forEach((tt, k) => {
          const canon = knownType(tt);
          if (canon) ok.push(canon);
          else problems.push(refProblem(file, lineOf(src, Array.isArray(m.target_type) ? [...at, 'target_type', k] : [...at, 'target_type']), m.field,
            `type '${t.name}', field '${m.field}': target_type '${tt}' is not a declared entity type (ignored)`, `declared types: ${[...typeNames.values()].join(', ') || '(none)'}`));
        });
        if (ok.length === 0) delete m.target_type; else m.target_type = ok;
      }
    });
  });
  schema.type_rules = schema.type_rules.filter((r, i) => {
    const names = 'field' in r ? Object.values(r.map ?? {}) : [r.type];
    for (const n of names) {
      if (!knownType(n)) {
        problems.push(refProblem(file, lineOf(src, ['type_rules', i]), 'type_rules', `type rule ${i + 1} names unknown entity type '${n}' (rule ignored)`, `declared types: ${[...typeNames.values()].join(', ') || '(none)'}`));
        return false;
      }
    }
    return true;
  });
  const ev = schema.events.type;
  if (ev !== undefined && typeNames.size > 0 && !knownType(ev) && src.value && typeof src.value === 'object' && 'events' in (src.value as object)) {
    problems.push(refProblem(file, lineOf(src, ['events', 'type']), 'events.type', `events.type '${ev}' is not a declared entity type`, 'name the type of your session/event notes', 'warning'));
  }
}
