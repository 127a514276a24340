/**
 * noteRefs with the schema view's mappedFields (a note of a type without field mappings skips its frontmatter keys:
 * every note of a vault without a schema) gives the references it gives asking mapping() of every key. Oracle: both
 * ways on the sample world, a generated vault (types with mappings), the real-shaped one (no schema, 10-40 keys) and a
 * vault of defects (a reserved field and `related` mapped, wikilinks in unmapped keys, `related` not first, null
 * values), each note under every type of its schema and untyped.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVault } from '../../bench/generate.js';
import { generateRealVault } from '../../bench/generate-real.js';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import { noteRefs } from './refs.js';
import type { SchemaView } from './schema-view.js';
import { freshModel } from './test-helpers.js';

const SAMPLE = fileURLToPath(new URL('../../resources/sample-world', import.meta.url));
const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

const DEFECTS: Record<string, string> = {
  'schema.yaml': `
entity_types:
  - name: npc
    field_mappings:
      - { field: faction, relationship: MEMBER_OF }
      - { field: tags, relationship: MEMBER_OF }
      - { field: related, relationship: ALLIED_WITH }
      - { field: home, relationship: LOCATED_IN, cardinality: scalar }
  - name: plain
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: LOCATED_IN }
  - { name: ALLIED_WITH, symmetric: true }
`,
  'Ann.md': '---\ntype: npc\nnotes: "see [[Bob]]"\nfaction: "[[Crows]]"\nrelated: [Bob, "[[Crows]]"]\nhome: "[[Town]]"\ntags: [a]\n---\n[[Bob]]\n',
  'Bob.md': '---\ntype: plain\nrelated:\nfriend: "[[Ann]]"\nfaction: "[[Crows]]"\n---\n[[Ann]]\n',
  'Crows.md': '---\nmembers: ["[[Ann]]", "[[Bob]]"]\nhome: "[[Town]]"\nrelated: Ann\n---\n',
  'Town.md': '---\ntitle: Town\nrelated: ["[[Ann]]"]\nfaction: "[[Crows]]"\n---\nbody [[Crows]]\n',
};

describe('noteRefs: the mapped fields known beforehand give the same references as asking every key', () => {
  const vaults: Array<[string, () => Promise<string>]> = [
    ['sample world', async () => SAMPLE],
    ['generated', async () => { const d = tempDir('lc-refs-gen-'); tmp.push(d); return (await generateVault(d, { entities: 150, avgLinks: 5, seed: 3, danglingRatio: 0.1 })).dir; }],
    ['real-shaped', async () => { const d = tempDir('lc-refs-real-'); tmp.push(d); return (await generateRealVault(d, { notes: 120, seed: 6 })).dir; }],
    ['defects', async () => { const d = tempDir('lc-refs-bad-'); tmp.push(d); writeFiles(d, DEFECTS); return d; }],
  ];
  for (const [name, make] of vaults) {
    it(name, async () => {
      const { model, notes } = await freshModel(await make());
      const sv = model.sv;
      expect(sv.mappedFields).toBeDefined();
      const plain: SchemaView = { ...sv, mappedFields: undefined };
      const types = [null, ...sv.schema.entity_types.map((t) => t.name)];
      let refs = 0;
      let fieldRefs = 0;
      for (const n of notes) {
        for (const type of types) {
          const fast = noteRefs(n, type, sv);
          expect(JSON.stringify(fast), `${n.path} as ${type}`).toEqual(JSON.stringify(noteRefs(n, type, plain)));
          refs += fast.length;
          fieldRefs += fast.filter((r) => r.field !== null).length;
        }
      }
      expect(refs).toBeGreaterThan(0);
      if (name !== 'sample world') expect(fieldRefs).toBeGreaterThan(0);
    });
  }
});
