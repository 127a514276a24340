/**
 * Test helpers: write a small vault (real files in a temp dir) and validate it
 * through the real config loader, parser, model and timeline.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Problem } from '../../shared/types.js';
import { validate } from './index.js';
import { loadVaultModel as loadModel } from '../sync/load-model.js';
import type { ProblemReport } from './types.js';

const made: string[] = [];

/** The schema most tests use; `extra` is appended (e.g. a rules: block). */
export const SCHEMA = `
entity_types:
  - name: npc
    properties:
      - { name: status, type: enum, values: [alive, dead] }
      - { name: age, type: integer }
      - { name: role, type: string }
    field_mappings:
      - { field: faction, relationship: MEMBER_OF, target_type: [faction] }
      - { field: home, relationship: LOCATED_IN, target_type: [settlement] }
  - name: faction
    properties:
      - { name: motto, type: string }
    field_mappings:
      - { field: rules, relationship: RULES, target_type: [settlement] }
  - name: settlement
    properties:
      - { name: size, type: enum, values: [village, town, city] }
    field_mappings:
      - { field: region, relationship: PART_OF, target_type: [settlement, region] }
      - { field: ruled_by, relationship: RULED_BY, target_type: [faction, npc] }
  - name: region
    field_mappings:
      - { field: region, relationship: PART_OF, target_type: [region] }
  - name: event
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: LOCATED_IN, inverse: HAS_PRESENT }
  - { name: PART_OF, inverse: CONTAINS, hierarchy: true }
  - { name: RULES, inverse: RULED_BY, rules: true }
  - { name: ALLIED_WITH, symmetric: true }
`;

export const LAYERS = `
layers:
  - { name: setting, paths: [setting], canonical: true }
  - { name: war, paths: [war], canonical: false, depends_on: [setting] }
`;

/** Write files into a fresh temp dir; schema.yaml / lorecraft.yaml default to SCHEMA / LAYERS. */
export function writeVault(files: Record<string, string>, opts: { schema?: string; config?: string } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'lc-problems-'));
  made.push(dir);
  const all: Record<string, string> = {
    'schema.yaml': opts.schema ?? SCHEMA,
    'lorecraft.yaml': opts.config ?? LAYERS,
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    const abs = join(dir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  return dir;
}

/** A note: frontmatter lines then a body. */
export function md(front: string, body = 'Text.'): string {
  return `---\n${front.trim()}\n---\n${body}\n`;
}

export async function validateVault(files: Record<string, string>, opts: { schema?: string; config?: string } = {}): Promise<ProblemReport> {
  const host = await loadModel(writeVault(files, opts));
  return validate(host);
}

export function withCode(r: ProblemReport, code: string): Problem[] {
  return r.problems.filter((p) => p.code === code);
}

export function cleanupVaults(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}
