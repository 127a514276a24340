/**
 * The model snapshot (snapshot.ts), oracle-tested: on several vaults (the bundled sample world, Thellade, a
 * generated one and a real-shaped one), a model restored from a snapshot — through the file, from notes read
 * again — answers every query as the model built from the files does: entities (bodies and properties too),
 * edges, adjacency, referrers, ids of paths, names/aliases/paths lookup, problems, counts, the timeline; and an
 * incremental change applied to both gives the same delta and the same model. A snapshot that was not built
 * from exactly these notes, under this key and format, or is damaged, is not used and leaves the model empty.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize, setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVault } from '../../bench/generate.js';
import { generateRealVault } from '../../bench/generate-real.js';
import type { LoadOptions } from '../config/load.js';
import type { ParsedNote } from '../parse/types.js';
import { tempDir } from '../sync/test-helpers.js';
import { timelineInputFromModel } from '../timeline/service.js';
import { buildTimelineIndex } from '../timeline/timeline-index.js';
import { VaultModel } from './model.js';
import { freshModel } from './test-helpers.js';
import { decodeSnapshot, encodeSnapshot, ModelSnapshotFile, SNAPSHOT_FORMAT } from './snapshot.js';

const SAMPLE = fileURLToPath(new URL('../../resources/sample-world', import.meta.url));
const THELLADE = fileURLToPath(new URL('../../examples/thellade', import.meta.url));
const KEY = 'test-key';

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

const json = (x: unknown) => JSON.stringify(x);
/** Every answer of the model, as plain data (order-sensitive where the model's order is part of the answer). */
function answers(m: VaultModel, vaultDir: string) {
  const ents = [...m.entities()];
  const ids = ents.map((e) => e.id);
  const layers = [...new Set(ents.map((e) => e.layer))];
  const names = [...m.nameIndex().entries()];
  const tl = buildTimelineIndex(timelineInputFromModel(m, vaultDir));
  return {
    entities: ents.map((e) => json({ ...e })), // in the model's order, with body and properties
    edges: [...m.edges()].map(json),
    counts: m.counts(),
    problems: m.problems().map(json),
    paths: [...m.notes()].map((n) => [n.path, m.entityIdOfPath(n.path)]),
    names: names.map((e) => json(e)).sort(),
    lookup: layers.flatMap((l) => names.map((e) => [l, e.key, m.resolve(e.key, l)?.id ?? null])),
    adjacency: ids.map((id) => [id, m.edgesFrom(id).map(json).sort(), m.edgesTo(id).map(json).sort()]),
    referrers: ids.filter((_, i) => i % 7 === 0).map((id) => [id, m.referrers(id)]),
    timeline: json({ problems: tl.problems(), layers: layers.map((l) => tl.timeline(l)) }),
  };
}

/** The model built from the files, and one restored through a snapshot file from the files read again. */
async function builtAndRestored(dir: string, opts: LoadOptions = {}) {
  const built = await freshModel(dir, opts);
  built.model.load(built.notes);
  const file = join(tempDir('lc-snap-'), 'model.snap');
  tmp.push(file.slice(0, -'/model.snap'.length));
  expect(new ModelSnapshotFile(file, KEY).save(built.model, built.notes)).toBe(true);
  const again = await freshModel(dir, opts);
  expect(new ModelSnapshotFile(file, KEY).restore(again.model, again.notes)).toBe(true);
  return { built, restored: again, file };
}

describe('a restored model answers as the model built from the files', () => {
  const vaults: Array<[string, () => Promise<{ dir: string; opts?: LoadOptions }>]> = [
    ['sample world', async () => ({ dir: SAMPLE })],
    ['Thellade', async () => ({ dir: join(THELLADE, 'vault'), opts: { schemaPath: join(THELLADE, 'schema.yaml'), configPath: join(THELLADE, 'lorecraft.yaml') } })],
    ['generated', async () => { const d = tempDir('lc-snap-gen-'); tmp.push(d); return { dir: (await generateVault(d, { entities: 300, avgLinks: 5, seed: 4, danglingRatio: 0.1 })).dir }; }],
    ['real-shaped', async () => { const d = tempDir('lc-snap-real-'); tmp.push(d); return { dir: (await generateRealVault(d, { notes: 200, seed: 6 })).dir }; }],
  ];
  for (const [name, make] of vaults) {
    it(`${name}: every query, then the same incremental change on both`, async () => {
      const { dir, opts } = await make();
      const { built, restored } = await builtAndRestored(dir, opts);
      expect(built.model.counts().relationships).toBeGreaterThan(0);
      expect(answers(restored.model, dir)).toEqual(answers(built.model, dir));
      // an incremental change (refs of restored notes are derived again when it needs them): one note edited to
      // link elsewhere, one deleted, one renamed away
      const ns = [...built.notes].sort((a, b) => a.path.localeCompare(b.path));
      const [edit, del, ren] = [ns[1]!, ns[Math.floor(ns.length / 2)]!, ns[ns.length - 1]!];
      const change = (others: ParsedNote[]) => {
        const by = new Map(others.map((n) => [n.path, n]));
        const m = new Map<string, ParsedNote | null>([[del.path, null], [ren.path, null]]);
        const e = by.get(edit.path)!;
        m.set(edit.path, { ...e, bodyLinks: [...e.bodyLinks, ...by.get(ren.path)!.bodyLinks] , hash: e.hash + 'x' });
        const r = by.get(ren.path)!;
        m.set(ren.path.replace(/\.md$/, ' 2.md'), { ...r, path: ren.path.replace(/\.md$/, ' 2.md'), basename: r.basename + ' 2' });
        return m;
      };
      const d1 = built.model.applyChanges(change(built.notes));
      const d2 = restored.model.applyChanges(change(restored.notes));
      const norm = (d: typeof d1) => json({ ...d, upsertEntities: d.upsertEntities.map((e) => json({ ...e })).sort(), addEdges: d.addEdges.map(json).sort(), removeEdges: d.removeEdges.map(json).sort(), removeEntities: [...d.removeEntities].sort() });
      expect(norm(d2)).toEqual(norm(d1));
      const a1 = answers(built.model, dir);
      const a2 = answers(restored.model, dir);
      expect({ ...a2, entities: a2.entities.sort() }).toEqual({ ...a1, entities: a1.entities.sort() });
    });
  }
});

/** Whether a restored model still holds its edges as the snapshot's list (its edge maps not built: model.ts ensureEdgeMaps). */
const lazyEdges = (m: VaultModel) => (m as unknown as { lazyEdges: unknown }).lazyEdges !== null;

describe('a restored model whose edge maps are not built yet (snapshot format 3: edge groups)', () => {
  const vaults: Array<[string, () => Promise<{ dir: string; opts?: LoadOptions }>]> = [
    ['sample world', async () => ({ dir: SAMPLE })],
    ['generated', async () => { const d = tempDir('lc-snap-lgen-'); tmp.push(d); return { dir: (await generateVault(d, { entities: 300, avgLinks: 5, seed: 5, danglingRatio: 0.1 })).dir }; }],
    ['real-shaped', async () => { const d = tempDir('lc-snap-lreal-'); tmp.push(d); return { dir: (await generateRealVault(d, { notes: 200, seed: 7 })).dir }; }],
  ];
  for (const [name, make] of vaults) {
    it(`${name}: edges, counts, problems and adjacency from the list; a change right after the restore gives the delta and model of the built one`, async () => {
      const { dir, opts } = await make();
      const { built, restored } = await builtAndRestored(dir, opts);
      const r = restored.model;
      expect(lazyEdges(r)).toBe(true);
      expect([...r.edges()].map(json)).toEqual([...built.model.edges()].map(json));
      expect(r.counts()).toEqual(built.model.counts());
      expect(r.problems().map(json)).toEqual(built.model.problems().map(json));
      // the adjacency (what warm() builds after an open) is made over the list, in the same order
      const ids = [...built.model.entities()].map((e) => e.id);
      for (const id of ids) {
        expect(r.edgesFrom(id).map(json)).toEqual(built.model.edgesFrom(id).map(json));
        expect(r.edgesTo(id).map(json)).toEqual(built.model.edgesTo(id).map(json));
      }
      r.warm();
      expect(lazyEdges(r)).toBe(true);
      // two slices of the background build (warmStep): still the list, the maps half made; the change finishes them
      expect(r.warmStep(3)).toBe(true);
      expect(r.warmStep(3)).toBe(true);
      expect(lazyEdges(r)).toBe(true);
      for (const id of ids.slice(0, 20)) expect(r.edgesFrom(id).map(json)).toEqual(built.model.edgesFrom(id).map(json));
      // an incremental change: edges of one note moved to another, one note deleted (the maps are built now)
      const ns = [...built.notes].sort((a, b) => a.path.localeCompare(b.path));
      const withLinks = ns.filter((n) => n.bodyLinks.length > 0);
      const [edit, del] = [withLinks[0]!, ns[Math.floor(ns.length / 3)]!];
      const change = (others: ParsedNote[]) => {
        const by = new Map(others.map((n) => [n.path, n]));
        const e = by.get(edit.path)!;
        return new Map<string, ParsedNote | null>([[del.path, null], [edit.path, { ...e, bodyLinks: e.bodyLinks.slice(1), hash: e.hash + 'y' }]]);
      };
      const norm = (d: ReturnType<VaultModel['applyChanges']>) => json({ ...d, upsertEntities: d.upsertEntities.map((e) => json({ ...e })).sort(), addEdges: d.addEdges.map(json).sort(), removeEdges: d.removeEdges.map(json).sort(), removeEntities: [...d.removeEntities].sort() });
      const d1 = built.model.applyChanges(change(built.notes));
      const d2 = r.applyChanges(change(restored.notes));
      expect(lazyEdges(r)).toBe(false);
      expect(d1.removeEdges.length + d1.addEdges.length).toBeGreaterThan(0);
      expect(norm(d2)).toEqual(norm(d1));
      const a1 = answers(built.model, dir);
      const a2 = answers(r, dir);
      expect({ ...a2, entities: a2.entities.sort() }).toEqual({ ...a1, entities: a1.entities.sort() });
      // and a second change on the maps the first one built
      const again = new Map<string, ParsedNote | null>([[ns[2]!.path, null]]);
      expect(norm(r.applyChanges(new Map(again)))).toEqual(norm(built.model.applyChanges(new Map(again))));
      expect(answers(r, dir)).toEqual(answers(built.model, dir));
    });
  }
  it('the edge maps built a slice at a time (warmStep, as the engine does after an open) equal the built ones', async () => {
    const d = tempDir('lc-snap-lstep-');
    tmp.push(d);
    const { dir } = await generateRealVault(d, { notes: 120, seed: 8 });
    const { built, restored } = await builtAndRestored(dir);
    const r = restored.model;
    let steps = 0;
    while (r.warmStep(37)) steps++;
    expect(steps).toBeGreaterThan(3);
    expect(lazyEdges(r)).toBe(false);
    expect(answers(r, dir)).toEqual(answers(built.model, dir));
    const ns = [...built.notes].sort((a, b) => a.path.localeCompare(b.path));
    const change = () => new Map<string, ParsedNote | null>([[ns[5]!.path, null], [ns[9]!.path, null]]);
    const norm = (x: ReturnType<VaultModel['applyChanges']>) => json({ ...x, upsertEntities: x.upsertEntities.map((e) => json({ ...e })).sort(), addEdges: x.addEdges.map(json).sort(), removeEdges: x.removeEdges.map(json).sort(), removeEntities: [...x.removeEntities].sort() });
    expect(norm(r.applyChanges(change()))).toEqual(norm(built.model.applyChanges(change())));
    expect(answers(r, dir)).toEqual(answers(built.model, dir));
  });

  it('edge groups that do not fit the notes are refused before the model changes', async () => {
    const d = tempDir('lc-snap-lbad-');
    tmp.push(d);
    const { dir } = await generateVault(d, { entities: 60, avgLinks: 4, seed: 3, danglingRatio: 0.1 });
    const { file } = await builtAndRestored(dir);
    const s = deserialize(readFileSync(file)) as { gOff: Int32Array; gMem: Int32Array; eTo: Int32Array };
    const mutations: Array<(x: typeof s) => void> = [
      (x) => { x.gMem[1] = x.gMem[0]!; }, // an edge twice, another in no group
      (x) => { x.gOff = x.gOff.subarray(0, x.gOff.length - 1); }, // the groups do not cover the edges
      (x) => { x.gOff = Int32Array.from([0, ...x.gOff.subarray(2)]); }, // the first two groups (two keys) as one
    ];
    for (const mutate of mutations) {
      const copy = deserialize(readFileSync(file)) as typeof s;
      mutate(copy);
      const bad = `${file}.bad`;
      writeFileSync(bad, serialize(copy));
      const again = await freshModel(dir);
      expect(new ModelSnapshotFile(bad, KEY).restore(again.model, again.notes)).toBe(false);
      expect(again.model.counts()).toEqual({ notes: 0, entities: 0, relationships: 0, placeholders: 0 });
    }
  });
});

/** Whether a restored model has left its name index for later (model.ts names()). */
const namesPending = (m: VaultModel) => (m as unknown as { namesPending: boolean }).namesPending;

describe('a restored model whose name index is not built yet (warm15f: built when first needed)', () => {
  const vaults: Array<[string, () => Promise<{ dir: string; opts?: LoadOptions }>]> = [
    ['sample world', async () => ({ dir: SAMPLE })],
    ['real-shaped', async () => { const d = tempDir('lc-snap-nreal-'); tmp.push(d); return { dir: (await generateRealVault(d, { notes: 200, seed: 11 })).dir }; }],
  ];
  for (const [name, make] of vaults) {
    it(`${name}: the index as the built model's (its keys' order too), lookups, and a change made before anything asked for it`, async () => {
      const { dir, opts } = await make();
      const { built, restored } = await builtAndRestored(dir, opts);
      const r = restored.model;
      expect(namesPending(r)).toBe(true);
      // a change first (the index built by it): one note takes another's title (its id then depends on the
      // holders of that name, path order), one note deleted, one note's aliases changed
      const ns = [...built.notes].sort((a, b) => a.path.localeCompare(b.path));
      const [retitle, other, del, alias] = [ns[3]!, ns[ns.length - 2]!, ns[Math.floor(ns.length / 2)]!, ns[7]!];
      const change = (notes: ParsedNote[]) => {
        const by = new Map(notes.map((n) => [n.path, n]));
        const a = by.get(retitle.path)!;
        const b = by.get(alias.path)!;
        return new Map<string, ParsedNote | null>([
          [retitle.path, { ...a, title: by.get(other.path)!.title, hash: a.hash + 't' }],
          [del.path, null],
          [alias.path, { ...b, aliases: [...b.aliases, 'Warm Fifteen F'], hash: b.hash + 'a' }],
        ]);
      };
      const norm = (d: ReturnType<VaultModel['applyChanges']>) => json({ ...d, upsertEntities: d.upsertEntities.map((e) => json({ ...e })).sort(), addEdges: d.addEdges.map(json).sort(), removeEdges: d.removeEdges.map(json).sort(), removeEntities: [...d.removeEntities].sort() });
      const d1 = built.model.applyChanges(change(built.notes));
      const d2 = r.applyChanges(change(restored.notes));
      expect(namesPending(r)).toBe(false);
      expect(norm(d2)).toEqual(norm(d1));
      expect(r.resolve('Warm Fifteen F', r.entity(built.model.entityIdOfPath(alias.path)!)!.layer)?.id).toBe(built.model.entityIdOfPath(alias.path));
      expect(answers(r, dir)).toEqual(answers(built.model, dir));

      // restored again: the index asked for first, in order (entries() is what completion lists)
      const again = await freshModel(dir, opts);
      const fresh = await freshModel(dir, opts);
      fresh.model.load(fresh.notes);
      const file = join(tempDir('lc-snap-n-'), 'model.snap');
      tmp.push(file.slice(0, -'/model.snap'.length));
      expect(new ModelSnapshotFile(file, KEY).save(fresh.model, fresh.notes)).toBe(true);
      expect(new ModelSnapshotFile(file, KEY).restore(again.model, again.notes)).toBe(true);
      expect(namesPending(again.model)).toBe(true);
      const layers = [...new Set([...fresh.model.entities()].map((e) => e.layer))];
      // a lookup before anything else (the public resolve builds the index)
      const probe = [...fresh.model.nameIndex().entries()].filter((_, i) => i % 5 === 0);
      for (const l of layers) for (const e of probe) expect(again.model.resolve(e.key, l)?.id ?? null).toBe(fresh.model.resolve(e.key, l)?.id ?? null);
      expect(namesPending(again.model)).toBe(false);
      expect([...again.model.nameIndex().entries()].map(json)).toEqual([...fresh.model.nameIndex().entries()].map(json));
    });
  }
});

// V8's own view of the objects (natives syntax switched on for this worker), as main/sync/body.test.ts
setFlagsFromString('--allow-natives-syntax');
const fast = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

describe("a restored model's note states and records (mem15c)", () => {
  it('share one hidden class each, also after their lazy refs and properties were read, and answer as built', async () => {
    const d = tempDir('lc-snap-shape-');
    tmp.push(d);
    const { dir } = await generateVault(d, { entities: 40, avgLinks: 4, seed: 9, danglingRatio: 0.1 });
    const { built, restored } = await builtAndRestored(dir);
    const recs = [...restored.model.entities()].filter((r) => !r.placeholder);
    const states = [...(restored.model as unknown as { states: Map<string, object> }).states.values()];
    expect(recs.length).toBeGreaterThan(10);
    expect(states.length).toBe(recs.length);
    const check = () => {
      for (const o of [...recs, ...states]) expect(fast(o)).toBe(true);
      for (const r of recs) expect(sameMap(recs[0]!, r)).toBe(true);
      for (const st of states) expect(sameMap(states[0]!, st)).toBe(true);
    };
    check();
    // reading the lazy properties (the store's load does) changes neither the shape nor the answer
    const builtRecs = new Map([...built.model.entities()].map((r) => [r.id, r]));
    for (const r of recs) expect(json({ ...r })).toBe(json({ ...builtRecs.get(r.id)! }));
    check();
  });
});

describe('a snapshot not built from exactly these notes is not used', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = tempDir('lc-snap-bad-');
    tmp.push(dir);
    await generateRealVault(dir, { notes: 60, seed: 2 });
    const b = await freshModel(dir);
    b.model.load(b.notes);
    file = join(dir, '..', `${dir.split('/').pop()}.snap`);
    tmp.push(file);
    expect(new ModelSnapshotFile(file, KEY).save(b.model, b.notes)).toBe(true);
  });

  const refused = async (mutate: (notes: ParsedNote[]) => ParsedNote[], key = KEY, f = () => file) => {
    const again = await freshModel(dir);
    const used = new ModelSnapshotFile(f(), key).restore(again.model, mutate(again.notes));
    return { used, counts: again.model.counts() };
  };
  const empty = { notes: 0, entities: 0, relationships: 0, placeholders: 0 };

  it('is used for the same notes (the control)', async () => {
    expect((await refused((n) => n)).used).toBe(true);
  });
  it('a changed note (its content hash differs)', async () => {
    expect(await refused((n) => n.map((x, i) => (i === 3 ? { ...x, hash: 'f'.repeat(64) } : x)))).toEqual({ used: false, counts: empty });
  });
  it('a note added, a note gone', async () => {
    expect(await refused((n) => [...n, { ...n[0]!, path: 'New.md' }])).toEqual({ used: false, counts: empty });
    expect(await refused((n) => n.slice(1))).toEqual({ used: false, counts: empty });
  });
  it('another key (schema, config, model version or parser changed)', async () => {
    expect(await refused((n) => n, 'another-key')).toEqual({ used: false, counts: empty });
  });
  it('a truncated, corrupt, empty or missing file, or another format', async () => {
    const bytes = readFileSync(file);
    const bad = join(dir, '..', `${dir.split('/').pop()}.bad`);
    tmp.push(bad);
    for (const content of [bytes.subarray(0, bytes.length >> 1), Buffer.from('not a snapshot'), Buffer.alloc(0), serialize({ format: SNAPSHOT_FORMAT, key: KEY })]) {
      writeFileSync(bad, content);
      expect(await refused((n) => n, KEY, () => bad)).toEqual({ used: false, counts: empty });
    }
    const flipped = Buffer.from(bytes);
    for (let i = 200; i < flipped.length; i += 997) flipped[i] = flipped[i]! ^ 0x5a;
    writeFileSync(bad, flipped);
    const r = await refused((n) => n, KEY, () => bad);
    // bytes flipped throughout: refused, or (if v8 still reads it) the checks refuse it; never a partial model
    expect(r).toEqual({ used: false, counts: empty });
    expect(await refused((n) => n, KEY, () => join(dir, 'nowhere.snap'))).toEqual({ used: false, counts: empty });
    const old = deserialize(bytes) as { format: number };
    writeFileSync(bad, serialize({ ...old, format: SNAPSHOT_FORMAT - 1 }));
    expect(await refused((n) => n, KEY, () => bad)).toEqual({ used: false, counts: empty });
  });
  it('indexes out of range are refused before the model changes', async () => {
    const s = deserialize(readFileSync(file)) as { eTo: Int32Array; ids: string[] };
    s.eTo[0] = s.ids.length + 5;
    const again = await freshModel(dir);
    expect(decodeSnapshot(s, again.notes, KEY)).toBeNull();
  });
  it('relationship properties given twice for one edge are refused (one entry per edge, in edge order)', async () => {
    const again = await freshModel(dir);
    const s = deserialize(readFileSync(file)) as { eProps: unknown[] };
    expect(decodeSnapshot(s, again.notes, KEY)).not.toBeNull(); // the control
    s.eProps = [[0, { since: 1 }, undefined], [0, undefined, { since: 2 }]];
    expect(decodeSnapshot(s, again.notes, KEY)).toBeNull();
    s.eProps = [[1, { since: 1 }, undefined], [0, { since: 2 }, undefined]];
    expect(decodeSnapshot(s, again.notes, KEY)).toBeNull();
  });
  it('a model that does not hold exactly the notes given is not saved', async () => {
    const b = await freshModel(dir);
    b.model.load(b.notes);
    expect(encodeSnapshot(b.model, b.notes.slice(1), KEY)).toBeNull();
    expect(encodeSnapshot(new VaultModel(b.model.config(), b.model.sv), [], KEY)).not.toBeNull(); // an empty vault is a vault
  });
});
