/**
 * refBatches (huge15g): a note's references in batches are noteRefs' exactly, in order (a note of at most
 * REF_BATCH body links in one batch, a larger one in batches of at most REF_BATCH after its frontmatter's); and a
 * bulk load of a vault with such a note equals the general path's model (edges, problems, entities).
 */
import { describe, expect, it } from 'vitest';
import type { ParsedNote } from '../parse/types.js';
import { VaultModel } from './model.js';
import { noteRefs, REF_BATCH, refBatches } from './refs.js';
import { config, modelState, note, schemaView } from './test-helpers.js';

const SCHEMA = `
entity_types:
  - name: npc
    field_mappings:
      - { field: faction, relationship: MEMBER_OF }
relationship_types:
  - { name: MEMBER_OF }
`;

/** A note of `n` body links (to 30 names, some dangling, some path-like, some with headings and labels) and frontmatter links. */
function manyLinks(n: number): ParsedNote {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 30;
    const link = k % 7 === 0 ? `[[places/Town ${k}.md#Gate|the gate]]` : k % 5 === 0 ? `[[Nobody ${k}]]` : `[[Person ${k}]]`;
    lines.push(`Line ${i} mentions ${link} and ${i % 3 === 0 ? `[[Person ${(k + 1) % 30}]]` : 'no one'}.`);
  }
  return note('Chronicle.md', `---\ntype: npc\nfaction: "[[Guild]]"\nrelated: ["[[Person 1]]", Person 2]\nnotes: see [[Person 3]]\n---\n${lines.join('\n')}\n`);
}

const sv = schemaView(SCHEMA);

describe('refBatches', () => {
  for (const n of [0, 10, REF_BATCH, REF_BATCH + 1, 3 * REF_BATCH + 17]) {
    it(`equals noteRefs for a note of ${n} body-link lines`, () => {
      const nt = manyLinks(n);
      const batches = [...refBatches(nt, 'npc', sv)];
      expect(batches.flat()).toEqual(noteRefs(nt, 'npc', sv));
      if (nt.bodyLinks.length > REF_BATCH) {
        expect(batches.length).toBeGreaterThan(2);
        for (const b of batches) expect(b.length).toBeLessThanOrEqual(REF_BATCH);
      } else {
        expect(batches.length).toBe(1);
      }
    });
  }

  it('a bulk load of a note of many links equals the general path', () => {
    const others = Array.from({ length: 30 }, (_, k) => note(`Person ${k}.md`, `---\ntype: npc\n---\nKnows [[Person ${(k + 3) % 30}]].\n`));
    const notes = [manyLinks(2 * REF_BATCH + 5), note('Guild.md', 'A guild.\n'), note('places/Town 0.md', 'A town.\n'), ...others];
    const bulk = new VaultModel(config(), sv);
    bulk.load(notes);
    const general = new VaultModel(config(), sv);
    general.load(notes.slice(1));
    general.applyChanges(new Map([[notes[0]!.path, notes[0]!]]));
    expect(modelState(bulk)).toEqual(modelState(general));
  });
});
