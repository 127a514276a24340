/**
 * Model-level oracle: after random sequences of note changes, the incrementally
 * maintained model (and the deltas it emitted, replayed on a plain graph) equals
 * a model built from scratch. The store-level oracle lives in main/sync.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntityRecord, RelationshipRecord } from '../../shared/types.js';
import type { ParsedNote } from '../parse/types.js';
import type { GraphDelta } from '../store/types.js';
import { VaultModel } from './model.js';
import { config, note, schemaView } from './test-helpers.js';

const SCHEMA = `
entity_types:
  - name: npc
    field_mappings: [{ field: faction, relationship: MEMBER_OF }, { field: part_of, relationship: PART_OF }]
  - name: faction
    field_mappings: [{ field: members, relationship: HAS_MEMBER }]
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: PART_OF, hierarchy: true }
`;
const CFG = `
layers:
  - { name: w, paths: [w] }
  - { name: c, paths: [c], canonical: false, depends_on: [w] }
`;
const NAMES = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve'];
const FOLDERS = ['w', 'w/sub', 'c'];

const noteArb = fc.record({
  folder: fc.constantFrom(...FOLDERS),
  file: fc.constantFrom(...NAMES),
  title: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
  type: fc.constantFrom('npc', 'faction', undefined),
  alias: fc.option(fc.constantFrom(...NAMES.map((n) => n.toLowerCase() + 'x'), 'Ann'), { nil: undefined }),
  faction: fc.array(fc.constantFrom(...NAMES, 'Ghost', 'annx'), { maxLength: 2 }),
  part: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
  links: fc.array(fc.constantFrom(...NAMES, 'Nope', 'w/sub/Bob', 'bobx'), { maxLength: 3 }),
});

function text(n: fc.Arbitrary<unknown> extends never ? never : { title?: string; type?: string; alias?: string; faction: string[]; part?: string; links: string[] }): string {
  const fm: string[] = [];
  if (n.title) fm.push(`title: ${n.title}`);
  if (n.type) fm.push(`type: ${n.type}`);
  if (n.alias) fm.push(`aliases: [${n.alias}]`);
  if (n.faction.length) fm.push(`${n.type === 'faction' ? 'members' : 'faction'}:`, ...n.faction.map((f) => `  - "[[${f}]]"`));
  if (n.part) fm.push(`part_of: ${n.part}`);
  return (fm.length ? `---\n${fm.join('\n')}\n---\n` : '') + n.links.map((l) => `[[${l}]]`).join(' ') + '\n';
}

const opArb = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), n: noteArb }),
  fc.record({ kind: fc.constant('del' as const), i: fc.nat() }),
);

const sortE = (l: EntityRecord[]) => l.map((e) => JSON.stringify(e)).sort();
const sortR = (l: RelationshipRecord[]) => l.map((e) => JSON.stringify(e)).sort();

function replay(ents: Map<string, EntityRecord>, edges: Map<string, RelationshipRecord>, d: GraphDelta): void {
  const k = (e: RelationshipRecord) => `${e.from}|${e.to}|${e.type}|${e.field}|${e.source}`;
  for (const id of d.removeEntities) {
    ents.delete(id);
    for (const [key, e] of edges) if (e.from === id || e.to === id) edges.delete(key);
  }
  for (const e of d.removeEdges) edges.delete(k(e));
  for (const e of d.upsertEntities) ents.set(e.id, e);
  for (const e of d.addEdges) {
    expect(ents.has(e.from) && ents.has(e.to)).toBe(true);
    edges.set(k(e), e);
  }
}

describe('VaultModel incremental == from scratch', () => {
  it('holds for random change sequences', () => {
    const sv = schemaView(SCHEMA);
    const cfg = config(CFG);
    fc.assert(fc.property(fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), (batches) => {
      const files = new Map<string, ParsedNote>();
      const inc = new VaultModel(cfg, sv);
      const ents = new Map<string, EntityRecord>();
      const edges = new Map<string, RelationshipRecord>();
      for (const batch of batches) {
        const changed = new Map<string, ParsedNote | null>();
        for (const op of batch) {
          if (op.kind === 'put') {
            const p = `${op.n.folder}/${op.n.file}.md`;
            const nn = note(p, text(op.n));
            files.set(p, nn); changed.set(p, nn);
          } else if (files.size) {
            const p = [...files.keys()].sort()[op.i % files.size]!;
            files.delete(p); changed.set(p, null);
          }
        }
        replay(ents, edges, inc.applyChanges(changed));
        const fresh = new VaultModel(cfg, sv);
        fresh.load(files.values());
        expect(sortE([...inc.entities()])).toEqual(sortE([...fresh.entities()]));
        expect(sortR([...inc.edges()])).toEqual(sortR([...fresh.edges()]));
        expect(sortE([...ents.values()])).toEqual(sortE([...fresh.entities()]));
        expect(sortR([...edges.values()])).toEqual(sortR([...fresh.edges()]));
        const probs = (m: VaultModel) => m.problems().map((p) => JSON.stringify(p)).sort();
        expect(probs(inc)).toEqual(probs(fresh));
      }
    }), { numRuns: 300, seed: 20261122 });
  });
});
