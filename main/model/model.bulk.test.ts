/**
 * The bulk load (a cold open: load() into an empty model, stageBulk and the bulk branches of complete/finalize)
 * against the general path it short-cuts (stage/complete/finalize of applyChanges into a non-empty model), on
 * the bundled sample world, a generated vault, a real-shaped one and a vault of defects: the same
 * entities (bodies and properties), edges, ids of paths, names, lookups, problems (naming file and field),
 * counts, and a bulk load's delta holds exactly the model. Then the same change applied to both gives the same
 * delta and the same model (a bulk load does not keep the notes' references: they are made again here).
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVault } from '../../bench/generate.js';
import { generateRealVault } from '../../bench/generate-real.js';
import type { LoadOptions } from '../config/load.js';
import type { ParsedNote } from '../parse/types.js';
import type { GraphDelta } from '../store/types.js';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import { VaultModel } from './model.js';
import { freshModel } from './test-helpers.js';
import { normKey } from './names.js';

const SAMPLE = fileURLToPath(new URL('../../resources/sample-world', import.meta.url));

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

const json = (x: unknown) => JSON.stringify(x);
/** Every answer of the model, as plain data, in an order both paths share. */
function answers(m: VaultModel) {
  const ents = [...m.entities()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const names = [...m.nameIndex().entries()];
  const layers = [...new Set(ents.map((e) => e.layer))];
  return {
    entities: ents.map((e) => json({ ...e })),
    edges: [...m.edges()].map(json).sort(),
    counts: m.counts(),
    problems: m.problems().map(json).sort(),
    paths: [...m.notes()].map((n) => [n.path, m.entityIdOfPath(n.path)]).sort(),
    names: names.map((e) => json(e)).sort(),
    lookup: layers.flatMap((l) => names.map((e) => [l, e.key, m.resolve(e.key, l)?.id ?? null])).map(json).sort(),
    adjacency: ents.map((e) => [e.id, m.edgesFrom(e.id).map(json).sort(), m.edgesTo(e.id).map(json).sort()]),
    referrers: ents.filter((_, i) => i % 5 === 0).map((e) => [e.id, m.referrers(e.id)]),
  };
}
const norm = (d: GraphDelta) => json({
  upsertEntities: d.upsertEntities.map((e) => json({ ...e })).sort(), removeEntities: [...d.removeEntities].sort(),
  addEdges: d.addEdges.map(json).sort(), removeEdges: d.removeEdges.map(json).sort(),
});

/** One note edited to link elsewhere, one deleted, one renamed away (as the snapshot oracle changes them). */
function change(notes: ParsedNote[]): Map<string, ParsedNote | null> {
  const ns = [...notes].sort((a, b) => a.path.localeCompare(b.path));
  const [edit, del, ren] = [ns[1]!, ns[Math.floor(ns.length / 2)]!, ns[ns.length - 1]!];
  const m = new Map<string, ParsedNote | null>([[del.path, null], [ren.path, null]]);
  m.set(edit.path, { ...edit, bodyLinks: [...edit.bodyLinks, ...ren.bodyLinks], hash: edit.hash + 'x' });
  m.set(ren.path.replace(/\.md$/, ' 2.md'), { ...ren, path: ren.path.replace(/\.md$/, ' 2.md'), basename: ren.basename + ' 2' });
  return m;
}

const DEFECTS: Record<string, string> = {
  'schema.yaml': `
entity_types:
  - name: npc
    properties:
      - { name: age, type: integer }
      - { name: status, type: enum, values: [alive, dead] }
      - { name: born, type: date }
      - { name: titles, type: list, items: string }
      - { name: home, type: string, required: true }
    field_mappings: [{ field: faction, relationship: MEMBER_OF }]
  - name: faction
    field_mappings: [{ field: members, relationship: HAS_MEMBER }]
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
`,
  'lorecraft.yaml': `
layers:
  - { name: w, paths: [w] }
  - { name: c, paths: [c], canonical: false, depends_on: [w] }
`,
  'w/Ann.md': '---\ntype: npc\nage: old\nstatus: missing\nborn: someday\ntitles: [[a, b]]\nfaction: "[[Crows]]"\n---\n[[Bob]] [[Ghost]] [[w/Ann]]\n',
  'w/sub/Ann.md': '---\ntype: npc\nhome: here\naliases: [Annie]\n---\n[[Annie]] [[Ann]]\n',
  'w/Bob.md': '---\ntype: npc\nhome: [1, 2]\nfaction: ["[[Crows]]", "[[Crows]]", Owls]\n---\n[[Ann]] [[Ann]] [[ann]] [[w/sub/Ann]]\n',
  'w/Crows.md': '---\ntype: faction\nmembers: ["[[Bob]]", "[[Ann]]"]\n---\n',
  'w/Broken.md': '---\ntype: npc\nhome: [unclosed\n---\n[[Bob]]\n',
  'w/Weird.md': '---\ntype: dragon\n---\n[[Crows]]\n',
  'c/Ann.md': '---\ntitle: Ann\n---\n[[Bob]] [[Annie]] [[Nobody]]\n',
  'c/Many.md': Array.from({ length: 30 }, (_, i) => `[[N${i % 12}]] [[Bob]]`).join('\n') + '\n',
};

describe('a bulk load equals the general path', () => {
  const vaults: Array<[string, () => Promise<{ dir: string; opts?: LoadOptions }>]> = [
    ['sample world', async () => ({ dir: SAMPLE })],
    ['generated', async () => { const d = tempDir('lc-bulk-gen-'); tmp.push(d); return { dir: (await generateVault(d, { entities: 400, avgLinks: 5, seed: 8, danglingRatio: 0.1 })).dir }; }],
    ['real-shaped', async () => { const d = tempDir('lc-bulk-real-'); tmp.push(d); return { dir: (await generateRealVault(d, { notes: 200, seed: 12 })).dir }; }],
    ['defects', async () => { const d = tempDir('lc-bulk-bad-'); tmp.push(d); writeFiles(d, DEFECTS); return { dir: d }; }],
  ];
  for (const [name, make] of vaults) {
    it(`${name}: the same model, then the same change`, async () => {
      const { dir, opts } = await make();
      const bulk = await freshModel(dir, opts);
      const delta = bulk.model.load(bulk.notes);
      // the general path: one note loaded, the rest applied to a non-empty model in three batches
      const gen = await freshModel(dir, opts);
      gen.model.load(gen.notes.slice(0, 1));
      const rest = gen.notes.slice(1);
      const step = Math.ceil(rest.length / 3);
      for (let i = 0; i < rest.length; i += step) gen.model.applyChanges(new Map(rest.slice(i, i + step).map((n) => [n.path, n])));
      expect(bulk.model.counts().relationships).toBeGreaterThan(0);
      expect(answers(bulk.model)).toEqual(answers(gen.model));
      // each body link went where resolve() (which looks every name up, no memo) says, or to its placeholder
      const state = bulk.model.resolvedState()!;
      let links = 0;
      for (const r of state.notes) {
        const ls = r.note.bodyLinks.filter((l) => normKey(l.name));
        const got = r.targets.slice(r.targets.length - ls.length);
        const want = ls.map((l) => bulk.model.resolve(l.target, r.layer)?.id ?? `${r.layer}/${normKey(l.name)}`);
        expect(got, r.note.path).toEqual(want);
        links += ls.length;
      }
      expect(links).toBeGreaterThan(0);
      // the bulk load's delta is the whole model
      expect(norm(delta)).toEqual(norm({ upsertEntities: [...bulk.model.entities()], removeEntities: [], addEdges: [...bulk.model.edges()], removeEdges: [] }));
      const d1 = bulk.model.applyChanges(change(bulk.notes));
      const d2 = gen.model.applyChanges(change(gen.notes));
      expect(norm(d1)).toEqual(norm(d2));
      expect(answers(bulk.model)).toEqual(answers(gen.model));
      // and equals a model loaded from scratch with the change
      const after = await freshModel(dir, opts);
      const changed = change(after.notes);
      after.model.load([...after.notes.filter((n) => !changed.has(n.path)), ...[...changed.values()].filter((n): n is ParsedNote => n !== null)]);
      expect(answers(after.model)).toEqual(answers(bulk.model));
    });
  }

  it('a bulk load in path order (staged as the notes come) equals one of the same notes shuffled or repeated', async () => {
    const d = tempDir('lc-bulk-order-'); tmp.push(d);
    const dir = (await generateVault(d, { entities: 300, avgLinks: 5, seed: 9, danglingRatio: 0.1 })).dir;
    const ordered = await freshModel(dir);
    ordered.model.load([...ordered.notes].sort((a, b) => (a.path < b.path ? -1 : 1)));
    // as the walk gives them (in path order within each folder)
    const walked = await freshModel(dir);
    walked.model.load(walked.notes);
    // shuffled (a fixed permutation), and with a stale copy of some notes first: the later copy of a path wins
    const shuffled = await freshModel(dir);
    const perm = shuffled.notes.map((n, i) => [(i * 7919) % shuffled.notes.length, n] as const).sort((a, b) => a[0] - b[0]).map((x) => x[1]);
    shuffled.model.load(perm);
    const repeated = await freshModel(dir);
    const stale = repeated.notes.filter((_, i) => i % 10 === 0).map((n) => ({ ...n, bodyLinks: [], aliases: ['Stale ' + n.basename], hash: 'stale' }));
    repeated.model.load([...stale, ...repeated.notes]);
    // loadEdgesLater stages as load does
    const later = await freshModel(dir);
    later.model.loadEdgesLater(later.notes);
    expect(answers(walked.model)).toEqual(answers(ordered.model));
    expect(answers(shuffled.model)).toEqual(answers(ordered.model));
    expect(answers(repeated.model)).toEqual(answers(ordered.model));
    expect(answers(later.model)).toEqual(answers(ordered.model));
  });

  it("defers each record's properties to its first read, and derives them as the general path does", async () => {
    const d = tempDir('lc-bulk-bad-'); tmp.push(d); writeFiles(d, DEFECTS);
    const bulk = await freshModel(d);
    bulk.model.load(bulk.notes);
    const gen = await freshModel(d);
    gen.model.load(gen.notes.slice(0, 1));
    gen.model.applyChanges(new Map(gen.notes.slice(1).map((n) => [n.path, n])));
    const notes = [...bulk.model.entities()].filter((e) => !e.placeholder);
    expect(notes.length).toBeGreaterThan(5);
    for (const e of notes) {
      // an accessor, not a value: a cold open's model does not derive every note's properties before the first screen
      expect(typeof Object.getOwnPropertyDescriptor(e, 'properties')?.get, e.id).toBe('function');
      const want = gen.model.entity(e.id)!;
      // (the general path's first note was itself a bulk load into the empty model)
      if (want.path !== gen.notes[0]!.path) expect(Object.getOwnPropertyDescriptor(want, 'properties')?.get, e.id).toBeUndefined();
      expect(json(e.properties), e.id).toBe(json(want.properties));
      // read once: the same object on every read (the store's load and a panel see one value)
      expect(e.properties).toBe(e.properties);
    }
    expect(notes.some((e) => Object.keys(e.properties).length > 0)).toBe(true);
  });

  it("a bulk-loaded record's properties are kept from their second read on, equal on every read (rss15h)", async () => {
    const d = tempDir('lc-bulk-props-'); tmp.push(d);
    await generateVault(d, { entities: 60, avgLinks: 3, seed: 9, danglingRatio: 0 });
    const { model, notes } = await freshModel(d);
    model.load(notes);
    // the record's lazy source (model.ts PropsSource): what it keeps
    const source = (e: object) => {
      const sym = Object.getOwnPropertySymbols(e).find((x) => x.description === 'lorecraft.recordProps')!;
      return (e as Record<symbol, { value: unknown; read: boolean }>)[sym]!;
    };
    const unread = [...model.entities()].filter((e) => !e.placeholder && !source(e).read);
    expect(unread.length).toBeGreaterThan(30);
    for (const e of unread) {
      // the store's load (a cold open) reads each once: that object is not kept
      const first = e.properties;
      expect(source(e).value).toBeNull();
      const second = e.properties;
      expect(second).not.toBe(first);
      expect(json(second)).toBe(json(first));
      // read again (a panel, the players' view): kept from then on
      expect(source(e).value).toBe(second);
      expect(e.properties).toBe(second);
    }
  });

  it('defects: problems name their file and field', async () => {
    const d = tempDir('lc-bulk-bad-'); tmp.push(d); writeFiles(d, DEFECTS);
    const { model, notes } = await freshModel(d);
    model.load(notes);
    const ps = model.problems();
    const codes = (file: string) => ps.filter((p) => p.file === file).map((p) => `${p.code}:${p.field ?? ''}`).sort();
    expect(codes('w/Ann.md')).toEqual(expect.arrayContaining(['property-type:age', 'enum-value:status', 'property-type:born', 'required-missing:home', 'dangling-link:']));
    expect(codes('w/Bob.md')).toEqual(expect.arrayContaining(['property-type:home']));
    expect(ps.some((p) => p.file === 'w/Broken.md' && p.code.startsWith('yaml'))).toBe(true);
    expect(codes('w/Weird.md')).toEqual(['unknown-type:type']);
    expect(ps.some((p) => p.file === 'w/sub/Ann.md' && p.code === 'duplicate-name')).toBe(true);
  });
});
