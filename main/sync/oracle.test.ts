/**
 * The oracle (issue: sync): random sequences of file operations on a temp
 * vault; after each batch the incrementally maintained graph — the model AND
 * the Kùzu contents (entities and every stored edge, inverse mirrors included)
 * — equals a from-scratch full rebuild. Every few batches the engine is closed
 * and reopened, so the start-up incremental path (diff against the store) is
 * checked too. Seeded: a failure names its seed and batch.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { VaultSyncEngine } from './engine.js';
import { closeEngine, dumpModel, dumpStore, openEngine, tempDir, writeFiles } from './test-helpers.js';
import { prng } from '../../shared/prng.js';

const SCHEMA = `
entity_types:
  - name: npc
    properties: [{ name: status, type: enum, values: [alive, dead] }]
    field_mappings:
      - { field: faction, relationship: MEMBER_OF }
      - { field: home, relationship: LOCATED_IN }
  - name: faction
    field_mappings: [{ field: members, relationship: HAS_MEMBER }]
  - name: place
    field_mappings: [{ field: part_of, relationship: PART_OF }]
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: LOCATED_IN }
  - { name: PART_OF, hierarchy: true, inverse: CONTAINS }
  - { name: ALLIED_WITH, symmetric: true }
`;
const CONFIG = `
layers:
  - { name: world, paths: [world] }
  - { name: campaign, paths: [campaign], canonical: false, depends_on: [world] }
`;
const NAMES = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'];
const FOLDERS = ['world', 'world/sub', 'campaign'];
const BATCHES = 14;

function listNotes(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, rel))) {
    const r = rel ? `${rel}/${e}` : e;
    if (statSync(join(root, r)).isDirectory()) { if (!e.startsWith('.')) out.push(...listNotes(root, r)); } else if (r.endsWith('.md')) out.push(r);
  }
  return out.sort();
}

function content(rnd: () => number, extraNames: string[]): string {
  const pick = <T>(l: T[]) => l[Math.floor(rnd() * l.length)]!;
  const names = [...NAMES, 'Nowhere', 'Lost Keep', ...extraNames];
  const fm: string[] = [];
  const type = pick(['npc', 'faction', 'place', null, 'dragon']);
  if (rnd() < 0.3) fm.push(`title: ${pick(NAMES)}`);
  if (type) fm.push(`type: ${type}`);
  if (rnd() < 0.3) fm.push(`aliases: [${pick(NAMES)} the ${pick(['Bold', 'Red'])}]`);
  if (type === 'npc') {
    if (rnd() < 0.7) fm.push('faction:', ...Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => `  - "[[${pick(names)}]]"`));
    if (rnd() < 0.5) fm.push(`home: ${pick(names)}`);
    if (rnd() < 0.4) fm.push(`status: ${pick(['alive', 'dead', 'undead'])}`);
  }
  if (type === 'faction' && rnd() < 0.7) fm.push(`members: ["[[${pick(names)}]]", "${pick(names)}"]`);
  if (type === 'place' && rnd() < 0.8) fm.push(`part_of: "[[${pick(names)}]]"`);
  if (rnd() < 0.3) fm.push(`related: [${pick(names)}]`);
  const body = Array.from({ length: Math.floor(rnd() * 4) }, () => (rnd() < 0.15 ? '[[world/sub/Bob]]' : `[[${pick(names)}]]`)).join(' and ');
  return (fm.length ? `---\n${fm.join('\n')}\n---\n` : '') + `Some prose. ${body}\n`;
}

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

async function checkAgainstRebuild(vault: string, inc: VaultSyncEngine, where: string): Promise<void> {
  const db = tempDir('lc-oracle-fresh-');
  tmp.push(db);
  const fresh = await openEngine(vault, db);
  try {
    await fresh.syncAll({ full: true });
    expect(dumpModel(inc), `model ${where}`).toEqual(dumpModel(fresh));
    expect(await dumpStore(inc.store), `kuzu ${where}`).toEqual(await dumpStore(fresh.store));
    const probs = (e: VaultSyncEngine) => e.model.problems().map((p) => JSON.stringify(p)).sort();
    expect(probs(inc), `problems ${where}`).toEqual(probs(fresh));
  } finally {
    await closeEngine(fresh);
  }
}

describe('incremental sync oracle', () => {
  for (const seed of [11, 29]) {
    it(`incremental graph equals a full rebuild after random file operations (seed ${seed})`, async () => {
      const rnd = prng(seed);
      const pick = <T>(l: T[]) => l[Math.floor(rnd() * l.length)]!;
      const vault = tempDir('lc-oracle-vault-');
      const db = tempDir('lc-oracle-db-');
      tmp.push(vault, db);
      const initial: Record<string, string> = { 'schema.yaml': SCHEMA, 'lorecraft.yaml': CONFIG };
      for (let i = 0; i < 10; i++) initial[`${pick(FOLDERS)}/${pick(NAMES)}.md`] = content(rnd, []);
      writeFiles(vault, initial);
      let inc = await openEngine(vault, db);
      try {
        await inc.syncAll();
        for (let b = 1; b <= BATCHES; b++) {
          const touched = new Set<string>();
          const ops: string[] = [];
          for (let k = 0, n = 1 + Math.floor(rnd() * 4); k < n; k++) {
            const existing = listNotes(vault);
            const placeholders = [...inc.model.entities()].filter((e) => e.placeholder).map((e) => e.name);
            const op = pick(['create', 'edit', 'edit', 'rename', 'delete', 'duplicate', 'fix-dangling']);
            ops.push(op);
            if (op === 'create' || (!existing.length && op !== 'fix-dangling')) {
              const p = `${pick(FOLDERS)}/${pick(NAMES)}${rnd() < 0.3 ? ' 2' : ''}.md`;
              writeFiles(vault, { [p]: content(rnd, placeholders) }); touched.add(p);
            } else if (op === 'edit') {
              const p = pick(existing);
              writeFiles(vault, { [p]: content(rnd, placeholders) }); touched.add(p);
            } else if (op === 'rename') {
              const p = pick(existing);
              const q = `${pick(FOLDERS)}/${pick(NAMES)} r${Math.floor(rnd() * 3)}.md`;
              if (q !== p && !existsSync(join(vault, q))) {
                writeFiles(vault, { [q]: '' });
                renameSync(join(vault, p), join(vault, q)); touched.add(p); touched.add(q);
              }
            } else if (op === 'delete') {
              const p = pick(existing);
              rmSync(join(vault, p)); touched.add(p);
            } else if (op === 'duplicate') {
              const p = pick(existing);
              const base = p.slice(p.lastIndexOf('/') + 1);
              const q = `${p.startsWith('world/sub/') ? 'world' : 'world/sub'}/${base}`;
              writeFiles(vault, { [q]: content(rnd, placeholders) }); touched.add(q);
            } else if (placeholders.length) {
              const q = `${pick(FOLDERS)}/${pick(placeholders)}.md`;
              writeFiles(vault, { [q]: content(rnd, []) }); touched.add(q);
            }
          }
          const where = `seed ${seed} batch ${b} (${ops.join(', ')})`;
          if (b % 5 === 0) {
            // restart: the start-up sync finds the difference against the stored graph
            await closeEngine(inc);
            inc = await openEngine(vault, db);
            const r = await inc.syncAll();
            expect(r.full, where).toBe(false);
          } else {
            await inc.applyPaths([...touched], 'disk');
          }
          await checkAgainstRebuild(vault, inc, where);
        }
      } finally {
        await closeEngine(inc);
      }
    }, 240_000);
  }
});
