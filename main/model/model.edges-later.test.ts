/**
 * A cold open's first answers (issue 15 point 6, time to interactive): loadEdgesLater looks up every reference's
 * target (entities, placeholders, names) but leaves the notes' edges and problems and the edge maps for edgeStep()
 * (or the first read that needs them), and edgesFrom/edgesTo's first questions are answered meanwhile by a pass over
 * the notes' own edges, resolving ahead the notes that reach the entity asked about. Oracle: on the sample world, a generated vault (aliases, placeholders, duplicate
 * names), a real-shaped one and a vault of defects (one fact written on both ends with properties on each, repeated
 * links, path links, duplicate names across layers), every answer given while the edges are pending — entities and
 * their records, names, lookups, referrers, and every entity's edges out and in — equals the answer of the same
 * vault loaded whole by load(); then, after the edge steps (in small slices), the whole model equals it, and the same
 * change gives the same delta.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVault } from '../../bench/generate.js';
import { generateRealVault } from '../../bench/generate-real.js';
import type { ParsedNote } from '../parse/types.js';
import type { GraphDelta } from '../store/types.js';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import { VaultModel } from './model.js';
import { freshModel } from './test-helpers.js';

const SAMPLE = fileURLToPath(new URL('../../resources/sample-world', import.meta.url));
const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });
const json = (x: unknown) => JSON.stringify(x);

const DEFECTS: Record<string, string> = {
  'schema.yaml': `
entity_types:
  - name: npc
    properties:
      - { name: age, type: integer }
      - { name: home, type: string, required: true }
    field_mappings: [{ field: faction, relationship: MEMBER_OF }]
  - name: faction
    field_mappings: [{ field: members, relationship: HAS_MEMBER }]
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER, properties: [{ name: role, type: string }] }
`,
  'lorecraft.yaml': `
layers:
  - { name: w, paths: [w] }
  - { name: c, paths: [c], canonical: false, depends_on: [w] }
`,
  'w/Ann.md': '---\ntype: npc\nage: old\nfaction: "[[Crows]]"\naliases: [Annie]\n---\n[[Bob]] [[Ghost]] [[w/Ann]]\n',
  'w/sub/Ann.md': '---\ntype: npc\nhome: here\n---\n[[Annie]] [[Ann]] [[Crows]]\n',
  'w/Bob.md': '---\ntype: npc\nhome: [1, 2]\nfaction: [{ to: "[[Crows]]", role: apprentice }, "[[Crows]]", Owls]\n---\n[[Ann]] [[Ann]] [[ann]] [[w/sub/Ann]] [[Ghost]]\n',
  'w/Crows.md': '---\ntype: faction\nmembers: [{ to: "[[Bob]]", role: sweeper }, "[[Ann]]", "[[Owls]]"]\n---\n[[Bob]]\n',
  'w/Broken.md': '---\ntype: npc\nhome: [unclosed\n---\n[[Bob]]\n',
  'c/Ann.md': '---\ntitle: Ann\n---\n[[Bob]] [[Annie]] [[Nobody]] [[Ghost]]\n',
  'c/Many.md': Array.from({ length: 30 }, (_, i) => `[[N${i % 12}]] [[Bob]] [[Crows]]`).join('\n') + '\n',
};

/** What a first screen reads without the edges: records, names, lookups, referrers (as plain data). */
function firstScreen(m: VaultModel) {
  const ents = [...m.entities()];
  const names = [...m.nameIndex().entries()];
  const layers = [...new Set(ents.map((e) => e.layer))];
  return {
    entities: ents.map((e) => json({ ...e })),
    paths: [...m.notes()].map((n) => [n.path, m.entityIdOfPath(n.path)]),
    names: names.map(json),
    lookup: layers.flatMap((l) => names.map((e) => [l, e.key, m.resolve(e.key, l)?.id ?? null])).map(json),
    referrers: ents.map((e) => [e.id, m.referrers(e.id)]),
  };
}
const norm = (d: GraphDelta) => json({
  upsertEntities: d.upsertEntities.map((e) => json({ ...e })).sort(), removeEntities: [...d.removeEntities].sort(),
  addEdges: d.addEdges.map(json).sort(), removeEdges: d.removeEdges.map(json).sort(),
});
function change(notes: ParsedNote[]): Map<string, ParsedNote | null> {
  const ns = [...notes].sort((a, b) => a.path.localeCompare(b.path));
  const [edit, del] = [ns[1]!, ns[Math.floor(ns.length / 2)]!];
  return new Map<string, ParsedNote | null>([[del.path, null], [edit.path, { ...edit, bodyLinks: [...edit.bodyLinks, ...del.bodyLinks], hash: edit.hash + 'x' }]]);
}

describe('a cold open answers before the edge maps are built, as the whole model does', () => {
  const vaults: Array<[string, () => Promise<string>]> = [
    ['sample world', async () => SAMPLE],
    ['generated', async () => { const d = tempDir('lc-later-gen-'); tmp.push(d); return (await generateVault(d, { entities: 300, avgLinks: 5, seed: 4, danglingRatio: 0.1 })).dir; }],
    ['real-shaped', async () => { const d = tempDir('lc-later-real-'); tmp.push(d); return (await generateRealVault(d, { notes: 150, seed: 5 })).dir; }],
    ['defects', async () => { const d = tempDir('lc-later-bad-'); tmp.push(d); writeFiles(d, DEFECTS); return d; }],
  ];
  for (const [name, make] of vaults) {
    it(`${name}: every early answer equals the whole model's`, async () => {
      const dir = await make();
      const base = await freshModel(dir);
      const make2 = () => new VaultModel(base.model.config(), base.model.sv);
      const whole = make2();
      const wholeDelta = whole.load(base.notes);
      const ids = [...whole.entities()].map((e) => e.id).sort();
      // the vault has what the early path must get right
      if (name !== 'sample world') expect(ids.some((id) => whole.entity(id)!.placeholder)).toBe(true);
      expect([...whole.edges()].length).toBeGreaterThan(0);
      // defects: one fact on both ends, each with its own properties (the visible edge merges them)
      if (name === 'defects') expect([...whole.edges()].some((e) => e.properties && e.inverseProperties)).toBe(true);

      const early = make2();
      const delta = early.loadEdgesLater(base.notes);
      expect(early.edgesPending()).toBe(true);
      expect(firstScreen(early)).toEqual(firstScreen(whole));
      expect(delta.addEdges).toEqual([]);
      expect(norm({ ...delta, addEdges: wholeDelta.addEdges })).toEqual(norm(wholeDelta));
      expect(early.edgesPending()).toBe(true);

      // every entity's edges out and in, asked early: a fresh early model per 8 entities (16 questions are early)
      let nonEmpty = 0;
      for (let i = 0; i < ids.length; i += 8) {
        const m = make2();
        m.loadEdgesLater(base.notes);
        // some slices already in the maps: the early answers do not depend on how far the steps are
        if (i % 16 === 8) m.edgeStep(1);
        for (const id of ids.slice(i, i + 8)) {
          const out = m.edgesFrom(id);
          const inn = m.edgesTo(id);
          expect(m.edgesPending(), id).toBe(true);
          expect(out.map(json), `${id} out`).toEqual(whole.edgesFrom(id).map(json));
          expect(inn.map(json), `${id} in`).toEqual(whole.edgesTo(id).map(json));
          if (out.length + inn.length) nonEmpty++;
        }
      }
      expect(nonEmpty).toBeGreaterThan(ids.length / 3);

      // then in small slices (a turn each in the engine) to the whole model: the same edges in the same order
      let steps = 0;
      while (early.edgeStep(7)) steps++;
      expect(steps).toBeGreaterThan(1);
      expect(early.edgesPending()).toBe(false);
      expect([...early.edges()].map(json)).toEqual([...whole.edges()].map(json));
      expect(early.counts()).toEqual(whole.counts());
      expect(early.problems().map(json)).toEqual(whole.problems().map(json));
      for (const id of ids) expect(early.edgesFrom(id).map(json), id).toEqual(whole.edgesFrom(id).map(json));
      expect(firstScreen(early)).toEqual(firstScreen(whole));
      expect(norm(early.applyChanges(change(base.notes)))).toEqual(norm(whole.applyChanges(change(base.notes))));
      expect([...early.edges()].map(json).sort()).toEqual([...whole.edges()].map(json).sort());
    });
  }

  it('whatever reads the edge maps while they are pending finishes them first', async () => {
    const d = tempDir('lc-later-bad-'); tmp.push(d); writeFiles(d, DEFECTS);
    const base = await freshModel(d);
    const loaded = () => { const w = new VaultModel(base.model.config(), base.model.sv); w.load(base.notes); return w; };
    const whole = loaded();
    const reads: Array<[string, (m: VaultModel) => unknown]> = [
      ['edges', (m) => [...m.edges()].map(json)],
      ['counts', (m) => m.counts()],
      ['problems', (m) => m.problems().map(json)],
      ['a change', (m) => norm(m.applyChanges(change(base.notes)))],
    ];
    for (const [what, read] of reads) {
      const m = new VaultModel(base.model.config(), base.model.sv);
      m.loadEdgesLater(base.notes);
      expect(read(m), what).toEqual(read(loaded()));
      expect(m.edgesPending(), what).toBe(false);
    }
    // past the early questions, edgesFrom builds the maps and the adjacency
    const m = new VaultModel(base.model.config(), base.model.sv);
    m.loadEdgesLater(base.notes);
    const ids = [...whole.entities()].map((e) => e.id);
    for (let i = 0; i < 20; i++) expect(m.edgesTo(ids[i % ids.length]!).map(json)).toEqual(whole.edgesTo(ids[i % ids.length]!).map(json));
    expect(m.edgesPending()).toBe(false);
  });
  it('the first answers resolve only the notes reaching the entity asked about; the rest waits for the steps', async () => {
    let outside = 0;
    for (const make of [
      async () => { const d = tempDir('lc-later-bad-'); tmp.push(d); writeFiles(d, DEFECTS); return d; },
      async () => { const d = tempDir('lc-later-gen-'); tmp.push(d); return (await generateVault(d, { entities: 200, avgLinks: 5, seed: 11, danglingRatio: 0.1 })).dir; },
    ]) {
      const base = await freshModel(await make());
      const whole = new VaultModel(base.model.config(), base.model.sv);
      whole.load(base.notes);
      // a note's resolution (its edges and problems) validates its properties once, when the note is typed
      const validated: string[] = [];
      const sv = Object.create(base.model.sv) as typeof base.model.sv;
      sv.validate = (type, note) => { validated.push(note.path); return base.model.sv.validate(type, note); };
      const m = new VaultModel(base.model.config(), sv);
      m.loadEdgesLater(base.notes);
      expect(validated).toEqual([]);
      expect(firstScreen(m)).toEqual(firstScreen(whole));
      expect(validated).toEqual([]);
      // the entity with the most referrers: its panel resolves its own note and its referrers' only
      const ents = [...whole.entities()].filter((e) => !e.placeholder);
      const busiest = ents.reduce((a, e) => (whole.referrers(e.id).length > whole.referrers(a.id).length ? e : a));
      const reaching = new Set([busiest.path!, ...whole.referrers(busiest.id)]);
      expect(m.edgesFrom(busiest.id).map(json)).toEqual(whole.edgesFrom(busiest.id).map(json));
      expect(m.edgesTo(busiest.id).map(json)).toEqual(whole.edgesTo(busiest.id).map(json));
      expect(validated.length).toBeGreaterThan(0);
      for (const p of validated) expect(reaching.has(p), p).toBe(true);
      const typedPaths = [...whole.notes()].filter((n) => whole.entity(whole.entityIdOfPath(n.path)!)!.type !== null).map((n) => n.path);
      const typed = typedPaths.length;
      // typed notes not reaching it: none of them resolved yet
      outside += typedPaths.filter((p) => !reaching.has(p)).length;
      while (m.edgeStep(5));
      // every typed note validated once, whatever was resolved ahead
      expect(validated.length).toBe(typed);
      expect(new Set(validated).size).toBe(typed);
      expect(m.problems().map(json)).toEqual(whole.problems().map(json));
      expect([...m.edges()].map(json)).toEqual([...whole.edges()].map(json));
    }
    expect(outside).toBeGreaterThan(0);
  });
  it('one pass answers both ends of an entity: in any order of questions, the same edges as the adjacency', async () => {
    for (const make of [
      async () => { const d = tempDir('lc-later-bad-'); tmp.push(d); writeFiles(d, DEFECTS); return d; },
      async () => { const d = tempDir('lc-later-gen-'); tmp.push(d); return (await generateVault(d, { entities: 200, avgLinks: 5, seed: 9, danglingRatio: 0.1 })).dir; },
    ]) {
      const base = await freshModel(await make());
      const whole = new VaultModel(base.model.config(), base.model.sv);
      whole.load(base.notes);
      whole.warm(); // the adjacency built: what every later question is answered from
      const ids = [...whole.entities()].map((e) => e.id);
      const busy = ids.filter((id) => whole.edgesFrom(id).length && whole.edgesTo(id).length);
      expect(busy.length).toBeGreaterThan(2);
      const [a, b, c] = busy as [string, string, string];
      // sequences of (entity, out?) questions: the other end kept for the next question, a repeated end asked again,
      // another entity in between, the kept end of an entity after the memo moved on
      const orders: Array<Array<[string, boolean]>> = [
        [[a, true], [a, false], [b, false], [b, true]],
        [[a, false], [a, true], [a, true], [a, false], [a, false]],
        [[a, true], [b, true], [a, false], [b, false], [c, false], [c, true]],
        [[a, true], [b, false], [b, true], [a, false], [a, true]],
      ];
      for (const later of [true, false]) {
        for (const order of orders) {
          const m = new VaultModel(base.model.config(), base.model.sv);
          if (later) m.loadEdgesLater(base.notes); else m.load(base.notes);
          for (const [id, out] of order) {
            const got = out ? m.edgesFrom(id) : m.edgesTo(id);
            expect(got.map(json), `${later ? 'later' : 'load'} ${id} ${out ? 'out' : 'in'}`).toEqual((out ? whole.edgesFrom(id) : whole.edgesTo(id)).map(json));
            got.length = 0; // a caller's changes to its answer are its own
          }
          if (later) expect(m.edgesPending()).toBe(true);
        }
      }
    }
  });
});
