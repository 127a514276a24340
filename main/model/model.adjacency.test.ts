/**
 * Right after a bulk load the model answers edgesFrom / edgesTo by a pass over its edges (the adjacency index is
 * built off the interactive path: warm()), for a bounded number of questions, then from the index. Either way the
 * answer is the same edges in the same order as a model whose index was built first: random vaults with forward
 * links, aliases, duplicate names, inverse-mapped fields, placeholders and two layers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParsedNote } from '../parse/types.js';
import { VaultModel } from './model.js';
import { config, note, schemaView } from './test-helpers.js';

const SCHEMA = `
entity_types:
  - name: npc
    field_mappings: [{ field: faction, relationship: MEMBER_OF }]
  - name: faction
    field_mappings: [{ field: members, relationship: HAS_MEMBER }]
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
`;
const CFG = `
layers:
  - { name: w, paths: [w] }
  - { name: c, paths: [c], canonical: false, depends_on: [w] }
`;
const NAMES = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus'];

const noteArb = fc.record({
  folder: fc.constantFrom('w', 'w/sub', 'c'),
  file: fc.constantFrom(...NAMES),
  title: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
  type: fc.constantFrom('npc', 'faction', undefined),
  alias: fc.option(fc.constantFrom('annx', 'bobx', 'Ann'), { nil: undefined }),
  faction: fc.array(fc.constantFrom(...NAMES, 'Ghost', 'annx'), { maxLength: 3 }),
  links: fc.array(fc.constantFrom(...NAMES, 'Nope', 'w/sub/Bob', 'bobx'), { maxLength: 5 }),
});

function text(n: { title?: string; type?: string; alias?: string; faction: string[]; links: string[] }): string {
  const fm: string[] = [];
  if (n.title) fm.push(`title: ${n.title}`);
  if (n.type) fm.push(`type: ${n.type}`);
  if (n.alias) fm.push(`aliases: [${n.alias}]`);
  if (n.faction.length) fm.push(`${n.type === 'faction' ? 'members' : 'faction'}:`, ...n.faction.map((f) => `  - "[[${f}]]"`));
  return (fm.length ? `---\n${fm.join('\n')}\n---\n` : '') + n.links.map((l) => `[[${l}]]`).join(' ') + '\n';
}

describe('edges of an entity right after a bulk load', () => {
  it('are the ones the adjacency index gives, in its order, before and after the index is built', () => {
    const sv = schemaView(SCHEMA);
    const cfg = config(CFG);
    let scanned = 0;
    fc.assert(fc.property(fc.array(noteArb, { minLength: 1, maxLength: 24 }), (ns) => {
      const files = new Map<string, ParsedNote>();
      for (const n of ns) { const p = `${n.folder}/${n.file}.md`; files.set(p, note(p, text(n))); }
      const fresh = new VaultModel(cfg, sv);
      fresh.load(files.values());
      const indexed = new VaultModel(cfg, sv);
      indexed.load(files.values());
      indexed.warm();
      // every entity, both directions, twice: more questions than are answered by a pass over the edges
      const ids = [...fresh.entities()].map((e) => e.id);
      for (let round = 0; round < 2; round++) {
        for (const id of ids) {
          expect(fresh.edgesFrom(id)).toEqual(indexed.edgesFrom(id));
          expect(fresh.edgesTo(id)).toEqual(indexed.edgesTo(id));
          if (round === 0) scanned += 2;
        }
      }
      // a change after the load (the index is built for it) still agrees with a model built from scratch
      const [first] = files.keys();
      const changed = new Map<string, ParsedNote | null>([[first!, note(first!, '[[Ann]] [[Zed]]\n')]]);
      fresh.applyChanges(changed);
      const rebuilt = new VaultModel(cfg, sv);
      rebuilt.load([...files.values()].map((n) => (n.path === first ? changed.get(first)! : n)));
      const sorted = (l: unknown[]) => l.map((x) => JSON.stringify(x)).sort();
      for (const e of rebuilt.entities()) {
        expect(sorted(fresh.edgesFrom(e.id))).toEqual(sorted(rebuilt.edgesFrom(e.id)));
        expect(sorted(fresh.edgesTo(e.id))).toEqual(sorted(rebuilt.edgesTo(e.id)));
      }
    }), { numRuns: 200, seed: 20261125 });
    expect(scanned).toBeGreaterThan(16);
  });
});
