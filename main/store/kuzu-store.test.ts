import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createKuzuStore } from './kuzu-store.js';
import { edge, ent, testSchema } from './test-helpers.js';
import type { GraphStore } from './types.js';

let dir: string;
let store: GraphStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-store-'));
  store = createKuzuStore(join(dir, '.lorecraft'));
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const world = () => ({
  entities: [
    ent('Captain Varo', { type: 'npc', tags: ['NPC', 'Location/Settlement'], aliases: ['The Captain'], properties: { status: 'alive', age: 41, titles: ['a', 'b'] }, body: 'Line one, "quoted"\nline two — ünïcode ✓' }),
    ent('Red Hand', { type: 'faction', tags: ['Faction'] }),
    ent('Iron Guild', { type: 'faction' }),
    ent('Millbrook', { type: 'location' }),
    ent('Ghost', { placeholder: true }),
  ],
  edges: [
    edge('Captain Varo', 'Red Hand', 'MEMBER_OF', { field: 'organization', line: 3 }),
    edge('Red Hand', 'Iron Guild', 'ALLIED_WITH', { field: 'allies' }),
    edge('Captain Varo', 'Millbrook', 'LINKS_TO', { line: 9 }),
    edge('Captain Varo', 'Ghost', 'LINKS_TO', { line: 10 }),
  ],
});

async function loaded(): Promise<void> {
  expect(await store.open(testSchema(), 'fp1')).toBe(false);
  const w = world();
  await store.rebuild(w.entities, w.edges);
}

describe('open / rebuild', () => {
  it('creates the db dir with a .gitignore and reports a fresh database as needing a rebuild', async () => {
    expect(await store.open(testSchema(), 'fp1')).toBe(false);
    expect(readFileSync(join(dir, '.lorecraft', '.gitignore'), 'utf8').trim()).toBe('*');
    expect(existsSync(join(dir, '.lorecraft', 'graph.kuzu'))).toBe(true);
    expect(await store.counts()).toEqual({ entities: 0, relationships: 0, placeholders: 0 });
  });

  it('round-trips records through COPY, including quotes, newlines, commas and unicode', async () => {
    await loaded();
    const w = world();
    expect(await store.getEntity(w.entities[0]!.id)).toEqual(w.entities[0]);
    expect(await store.getEntity('main/ghost')).toEqual(w.entities[4]);
    expect(await store.getEntity('main/nobody')).toBeNull();
    expect(await store.counts()).toEqual({ entities: 4, relationships: 4, placeholders: 1 });
    expect(await store.storedHashes()).toEqual(new Map([
      ['Captain Varo.md', 'h-Captain Varo'], ['Red Hand.md', 'h-Red Hand'], ['Iron Guild.md', 'h-Iron Guild'], ['Millbrook.md', 'h-Millbrook'],
    ]));
  });

  it('keeps the data across reopen when the fingerprint matches, and asks for a rebuild when it differs', async () => {
    await loaded();
    await store.close();
    store = createKuzuStore(join(dir, '.lorecraft'));
    expect(await store.open(testSchema(), 'fp1')).toBe(true);
    expect((await store.counts()).entities).toBe(4);
    await store.close();
    store = createKuzuStore(join(dir, '.lorecraft'));
    expect(await store.open(testSchema(), 'fp2')).toBe(false);
    await store.rebuild([ent('Solo')], []);
    expect(await store.counts()).toEqual({ entities: 1, relationships: 0, placeholders: 0 });
    expect(await store.getEntity('main/captain varo')).toBeNull();
  });

  it('keeps a write generation: new with every rebuild and with a delta after it was read, kept across reopen, unknown after a failed delta', async () => {
    expect(await store.open(testSchema(), 'fp1')).toBe(false);
    expect(store.generation()).toBeNull();
    const w = world();
    await store.rebuild(w.entities, w.edges);
    const g1 = store.generation();
    expect(g1).toMatch(/.{8,}/);
    await store.ensureSearchIndex(); // no entity or edge written: the same generation
    expect(store.generation()).toBe(g1);
    await store.close();
    store = createKuzuStore(join(dir, '.lorecraft'));
    expect(await store.open(testSchema(), 'fp1')).toBe(true);
    expect(store.generation()).toBe(g1);
    await store.applyDelta({ removeEntities: ['main/iron guild'], upsertEntities: [], removeEdges: [], addEdges: [] });
    const g2 = store.generation();
    expect(g2).not.toBeNull();
    expect(g2).not.toBe(g1);
    const bad = { ...ent('X'), tags: 'not-a-list' as unknown as string[] };
    await expect(store.applyDelta({ removeEntities: [], upsertEntities: [bad], removeEdges: [], addEdges: [] })).rejects.toThrow();
    expect(store.generation()).toBeNull();
    await store.close();
    store = createKuzuStore(join(dir, '.lorecraft'));
    expect(await store.open(testSchema(), 'fp1')).toBe(true);
    expect(store.generation()).toBe(g2); // the failed delta was rolled back with its generation
    // deltas in a row, the generation not asked for between them: none asked for before survives
    await store.applyDelta({ removeEntities: ['main/millbrook'], upsertEntities: [], removeEdges: [], addEdges: [] });
    await store.applyDelta({ removeEntities: ['main/red hand'], upsertEntities: [], removeEdges: [], addEdges: [] });
    const g3 = store.generation();
    expect([g1, g2, null]).not.toContain(g3);
    await store.close();
    store = createKuzuStore(join(dir, '.lorecraft'));
    expect(await store.open(testSchema(), 'fp1')).toBe(true);
    expect(store.generation()).toBe(g3);
    await store.close();
    store = createKuzuStore(join(dir, '.lorecraft'));
    expect(await store.open(testSchema(), 'fp2')).toBe(false); // another fingerprint: rebuilt, a new generation
    expect(store.generation()).toBeNull();
    await store.rebuild([ent('Solo')], []);
    expect([g1, g2, null]).not.toContain(store.generation());
  });

  it('refuses edges to entities that are not loaded, naming the edge', async () => {
    await store.open(testSchema(), 'fp1');
    await expect(store.rebuild([ent('A')], [edge('A', 'B', 'LINKS_TO')])).rejects.toThrow(/main\/b/);
    // the store is still usable afterwards
    await store.rebuild([ent('A')], []);
    expect((await store.counts()).entities).toBe(1);
  });

  it('creates tables on demand for relationship types not in the schema', async () => {
    await store.open(testSchema(), 'fp1');
    await store.rebuild([ent('A'), ent('B')], [edge('A', 'B', 'HATES')]);
    expect((await store.edgesOf('main/a')).map((e) => e.type)).toEqual(['HATES']);
    await store.applyDelta({ removeEntities: [], upsertEntities: [], removeEdges: [], addEdges: [edge('B', 'A', 'FEARS')] });
    expect((await store.edgesOf('main/a')).map((e) => e.type).sort()).toEqual(['FEARS', 'HATES']);
    const rows = await store.cypher('MATCH (a:Entity)-[:FEARS]->(b:Entity) RETURN a.name AS a, b.name AS b');
    expect(rows).toEqual([{ a: 'B', b: 'A' }]);
  });

  it('stores an edge given under an inverse name in canonical direction', async () => {
    await store.open(testSchema(), 'fp1');
    await store.rebuild([ent('A'), ent('F')], [edge('F', 'A', 'HAS_MEMBER')]);
    expect(await store.edgesOf('main/a')).toEqual([
      { from: 'main/a', to: 'main/f', type: 'MEMBER_OF', field: null, source: 'F.md', line: 1 },
    ]);
  });
});

describe('rebuild in two steps (RebuildSession)', () => {
  it('copies the first entities at once, the rest and the edges at finish; equal to a plain rebuild', async () => {
    expect(await store.open(testSchema(), 'fp1')).toBe(false);
    const w = world();
    const s = await store.beginRebuild();
    expect(s).not.toBeNull();
    s!.copyEntities(w.entities.slice(0, 3));
    await s!.finish(w.entities, w.edges);
    expect(await store.counts()).toEqual({ entities: 4, relationships: 4, placeholders: 1 });
    expect(await store.getEntity(w.entities[0]!.id)).toEqual(w.entities[0]);
    expect(await store.edgesOf('main/captain varo')).toHaveLength(3);
    // the fingerprint is stored: a reopen keeps the data
    await store.close();
    store = createKuzuStore(join(dir, '.lorecraft'));
    expect(await store.open(testSchema(), 'fp1')).toBe(true);
    expect((await store.counts()).entities).toBe(4);
  });

  it('is offered only on the empty store open() made; reads wait for the session to end', async () => {
    await loaded();
    expect(await store.beginRebuild()).toBeNull();
    await store.close();
    await rm(join(dir, '.lorecraft'), { recursive: true, force: true });
    store = createKuzuStore(join(dir, '.lorecraft'));
    await store.open(testSchema(), 'fp1');
    const s = (await store.beginRebuild())!;
    let counted = false;
    const counts = store.counts().then((c) => { counted = true; return c; });
    s.copyEntities([ent('A')]);
    await new Promise((res) => setTimeout(res, 50));
    expect(counted).toBe(false);
    await s.finish([ent('B')], []);
    expect(await counts).toEqual({ entities: 2, relationships: 0, placeholders: 0 });
  });

  it('an open given `after` opens once it settles; its session and the reads asked meanwhile come after it, in order', async () => {
    let go!: () => void;
    const after = new Promise<void>((res) => { go = res; });
    const file = join(dir, '.lorecraft', 'graph.kuzu');
    const opened = store.open(testSchema(), 'fp1', { after });
    const order: string[] = [];
    const session = store.beginRebuild().then((s) => { order.push('session'); return s; });
    const counts = store.counts().then((c) => { order.push('counts'); return c; });
    await new Promise((res) => setTimeout(res, 100));
    // nothing opened while `after` waits
    expect(existsSync(file)).toBe(false);
    expect(order).toEqual([]);
    go();
    expect(await opened).toBe(false);
    const s = (await session)!;
    expect(s).not.toBeNull();
    // the read asked before the session waits for its load (the open handed both queues to it)
    await new Promise((res) => setTimeout(res, 50));
    expect(order).toEqual(['session']);
    await s.finish([ent('A'), ent('B')], []);
    expect(await counts).toEqual({ entities: 2, relationships: 0, placeholders: 0 });
    expect(order).toEqual(['session', 'counts']);
  });

  it('close() before an open given `after` began: nothing is opened, the open and its session are refused', async () => {
    const after = new Promise<void>(() => undefined);
    const opened = store.open(testSchema(), 'fp1', { after });
    const session = store.beginRebuild();
    const counts = store.counts();
    await store.close();
    await expect(opened).rejects.toThrow(/closed before it opened/);
    await expect(session).rejects.toThrow(/closed before it opened/);
    await expect(counts).rejects.toThrow(/closed|not open/);
    expect(existsSync(join(dir, '.lorecraft', 'graph.kuzu'))).toBe(false);
  });

  it('abort() leaves an empty, usable graph without fingerprint and gives the store back', async () => {
    await store.open(testSchema(), 'fp1');
    const s = (await store.beginRebuild())!;
    s.copyEntities([ent('A'), ent('B')]);
    await s.abort();
    await expect(s.finish([], [])).rejects.toThrow(/already finished/);
    expect(await store.counts()).toEqual({ entities: 0, relationships: 0, placeholders: 0 });
    await store.rebuild([ent('C')], []);
    expect((await store.counts()).entities).toBe(1);
  });

  it('refuses a record changed after it was handed over, a duplicate id or a dangling edge, leaving an empty graph', async () => {
    await store.open(testSchema(), 'fp1');
    const a = ent('A');
    let s = (await store.beginRebuild())!;
    s.copyEntities([a]);
    await expect(s.finish([{ ...a, body: 'changed' }], [])).rejects.toThrow(/changed after it was handed over/);
    expect(await store.counts()).toEqual({ entities: 0, relationships: 0, placeholders: 0 });
    await store.close();
    await rm(join(dir, '.lorecraft'), { recursive: true, force: true });
    store = createKuzuStore(join(dir, '.lorecraft'));
    await store.open(testSchema(), 'fp1');
    s = (await store.beginRebuild())!;
    s.copyEntities([a, ent('A')]);
    await expect(s.finish([a], [])).rejects.toThrow(/appears twice/);
    await store.close();
    await rm(join(dir, '.lorecraft'), { recursive: true, force: true });
    store = createKuzuStore(join(dir, '.lorecraft'));
    await store.open(testSchema(), 'fp1');
    s = (await store.beginRebuild())!;
    s.copyEntities([a]);
    await expect(s.finish([a], [edge('A', 'Nobody', 'LINKS_TO')])).rejects.toThrow(/main\/nobody/);
    expect(await store.counts()).toEqual({ entities: 0, relationships: 0, placeholders: 0 });
  });
});

describe('edges and natural Cypher', () => {
  it('edgesOf returns both directions with canonical names', async () => {
    await loaded();
    const red = await store.edgesOf('main/red hand');
    expect(red).toEqual(expect.arrayContaining([
      { from: 'main/captain varo', to: 'main/red hand', type: 'MEMBER_OF', field: 'organization', source: 'Captain Varo.md', line: 3 },
      { from: 'main/red hand', to: 'main/iron guild', type: 'ALLIED_WITH', field: 'allies', source: 'Red Hand.md', line: 1 },
    ]));
    expect(red).toHaveLength(2);
  });

  it('inverse types read naturally from either end through the mirror table', async () => {
    await loaded();
    const fwd = await store.cypher('MATCH (n:Entity)-[:MEMBER_OF]->(f) RETURN n.name AS n, f.name AS f');
    const inv = await store.cypher('MATCH (f:Entity)-[:HAS_MEMBER]->(n) RETURN n.name AS n, f.name AS f');
    expect(fwd).toEqual([{ n: 'Captain Varo', f: 'Red Hand' }]);
    expect(inv).toEqual(fwd);
  });
});

describe('applyDelta', () => {
  it('removes, upserts (keeping unlisted edges) and adds edges in one transaction', async () => {
    await loaded();
    const w = world();
    const varo = { ...w.entities[0]!, body: 'new body', tags: [], hash: 'h2' };
    await store.applyDelta({
      removeEntities: ['main/iron guild'],
      upsertEntities: [varo, ent('Lady Wren', { type: 'npc' })],
      removeEdges: [edge('Captain Varo', 'Millbrook', 'LINKS_TO', { line: 99 })],
      addEdges: [edge('Lady Wren', 'Red Hand', 'MEMBER_OF', { field: 'organization' })],
    });
    expect(await store.getEntity('main/captain varo')).toEqual(varo);
    expect(await store.getEntity('main/iron guild')).toBeNull();
    const edges = await store.edgesOf('main/captain varo');
    expect(edges.map((e) => `${e.type}>${e.to}`).sort()).toEqual(['LINKS_TO>main/ghost', 'MEMBER_OF>main/red hand']);
    const members = await store.cypher("MATCH (f:Entity {id: 'main/red hand'})-[:HAS_MEMBER]->(n) RETURN n.name AS nm ORDER BY nm");
    expect(members).toEqual([{ nm: 'Captain Varo' }, { nm: 'Lady Wren' }]);
    expect(await store.counts()).toEqual({ entities: 4, relationships: 3, placeholders: 1 });
  });

  it('removing an edge removes its mirror; adding the same edge twice keeps one', async () => {
    await loaded();
    const e = edge('Captain Varo', 'Red Hand', 'MEMBER_OF', { field: 'organization', line: 3 });
    await store.applyDelta({ removeEntities: [], upsertEntities: [], removeEdges: [], addEdges: [e, e] });
    expect(await store.cypher('MATCH ()-[r:HAS_MEMBER]->() RETURN count(r) AS n')).toEqual([{ n: 1 }]);
    await store.applyDelta({ removeEntities: [], upsertEntities: [], removeEdges: [e], addEdges: [] });
    expect(await store.cypher('MATCH ()-[r:HAS_MEMBER]->() RETURN count(r) AS n')).toEqual([{ n: 0 }]);
    expect(await store.cypher('MATCH ()-[r:MEMBER_OF]->() RETURN count(r) AS n')).toEqual([{ n: 0 }]);
  });

  it('a failing delta changes nothing and the store keeps working', async () => {
    await loaded();
    const bad = { ...ent('X'), tags: 'not-a-list' as unknown as string[] };
    await expect(store.applyDelta({ removeEntities: ['main/red hand'], upsertEntities: [bad], removeEdges: [], addEdges: [] })).rejects.toThrow();
    expect(await store.getEntity('main/red hand')).not.toBeNull();
    await store.applyDelta({ removeEntities: ['main/red hand'], upsertEntities: [], removeEdges: [], addEdges: [] });
    expect(await store.getEntity('main/red hand')).toBeNull();
  });

  it('serialises concurrent writes and reads without losing any', async () => {
    await loaded();
    const jobs: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      jobs.push(store.applyDelta({ removeEntities: [], upsertEntities: [ent(`N${i}`)], removeEdges: [], addEdges: [edge(`N${i}`, 'Red Hand', 'MEMBER_OF')] }));
      jobs.push(store.counts());
      jobs.push(store.cypher('MATCH (n:Entity) RETURN count(n) AS n'));
    }
    await Promise.all(jobs);
    expect(await store.counts()).toEqual({ entities: 24, relationships: 24, placeholders: 1 });
  });
});

describe('list and snapshot', () => {
  it('filters by type, layer and tag (case-insensitive, # optional) with paging and total', async () => {
    await loaded();
    const all = await store.list({});
    expect(all.total).toBe(4);
    expect(all.items.map((i) => i.name)).toEqual(['Captain Varo', 'Iron Guild', 'Millbrook', 'Red Hand']);
    expect((await store.list({ type: 'faction' })).items.map((i) => i.name)).toEqual(['Iron Guild', 'Red Hand']);
    expect((await store.list({ tag: '#npc' })).items.map((i) => i.name)).toEqual(['Captain Varo']);
    expect((await store.list({ layer: 'other' })).total).toBe(0);
    expect((await store.list({ placeholders: true })).total).toBe(5);
    const page = await store.list({ offset: 1, limit: 2 });
    expect(page).toEqual({ total: 4, items: [expect.objectContaining({ name: 'Iron Guild' }), expect.objectContaining({ name: 'Millbrook' })] });
  });

  it('snapshot returns every node and canonical edge', async () => {
    await loaded();
    const s = await store.snapshot();
    expect(s.nodes).toHaveLength(5);
    expect(s.edges).toHaveLength(4);
    expect((await store.snapshot({ layer: 'nope' })).nodes).toEqual([]);
  });
});

describe('cypher', () => {
  it('runs read-only queries with parameters and converts nodes, rels and integers to plain JSON', async () => {
    await loaded();
    expect(await store.cypher('MATCH (n:Entity)-[:MEMBER_OF]->(f) RETURN n.name, f.name')).toEqual([{ 'n.name': 'Captain Varo', 'f.name': 'Red Hand' }]);
    const rows = await store.cypher('MATCH (n:Entity {id: $id})-[r:MEMBER_OF]->(f) RETURN n, r, r.line AS line, count(*) AS c', { id: 'main/captain varo' });
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.line).toBe(3);
    expect(row.c).toBe(1);
    expect(row.n).toMatchObject({ _label: 'Entity', id: 'main/captain varo', tags: ['NPC', 'Location/Settlement'] });
    expect(row.r).toMatchObject({ _label: 'MEMBER_OF', field: 'organization', line: 3 });
    expect(JSON.parse(JSON.stringify(rows))).toEqual(rows);
  });

  it('refuses writes through the store with cypher-refused and leaves the data alone', async () => {
    await loaded();
    for (const q of ['MATCH (n:Entity) DETACH DELETE n', "CALL DROP_FTS_INDEX('Entity', 'fts_body')", "COPY Entity FROM '/tmp/x.json'"]) {
      await expect(store.cypher(q)).rejects.toMatchObject({ code: 'cypher-refused' });
    }
    expect((await store.counts()).entities).toBe(4);
  });

  it('reports Kùzu errors for bad queries without breaking the store', async () => {
    await loaded();
    await expect(store.cypher('MATCH (n:Nope) RETURN n')).rejects.toThrow(/Nope/);
    expect((await store.counts()).entities).toBe(4);
  });
});

describe('parameter types across reuse of prepared statements', () => {
  it('accepts empty/non-empty lists and null/non-null values in any order', async () => {
    await store.open(testSchema(), 'fp1');
    await store.rebuild([ent('A'), ent('B')], []);
    const seq = [
      ent('C', { tags: [], aliases: [], type: null }),
      ent('D', { tags: ['x'], aliases: ['dee'], type: 'npc' }),
      ent('E', { tags: [], aliases: [] }),
      ent('F', { tags: ['y', 'z'], path: null, hash: null, placeholder: true }),
    ];
    for (const e of seq) {
      await store.applyDelta({ removeEntities: [], upsertEntities: [e], removeEdges: [], addEdges: [] });
    }
    for (const e of seq) expect(await store.getEntity(e.id)).toEqual(e);
    const edges = [
      edge('A', 'B', 'LINKS_TO', { field: null }),
      edge('A', 'B', 'MEMBER_OF', { field: 'organization' }),
      edge('B', 'A', 'MEMBER_OF', { field: null }),
      edge('C', 'D', 'LINKS_TO', { field: 'x' }),
    ];
    for (const e of edges) await store.applyDelta({ removeEntities: [], upsertEntities: [], removeEdges: [], addEdges: [e] });
    const got = [...(await store.edgesOf('main/a')), ...(await store.edgesOf('main/c'))];
    expect(got).toEqual(expect.arrayContaining(edges));
    expect(got).toHaveLength(4);
    await store.applyDelta({ removeEntities: [], upsertEntities: [], removeEdges: [edges[1]!, edges[2]!], addEdges: [] });
    expect(await store.edgesOf('main/a')).toEqual([edges[0]]);
  });
});

describe('database file', () => {
  it('starts over when the database file is not a Kùzu database (it is a cache)', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(join(dir, '.lorecraft'), { recursive: true });
    await writeFile(join(dir, '.lorecraft', 'graph.kuzu'), 'not a database '.repeat(500));
    expect(await store.open(testSchema(), 'fp1')).toBe(false);
    await store.rebuild([ent('A')], []);
    expect((await store.counts()).entities).toBe(1);
  });

  it('close() waits for queued writes and later calls fail cleanly', async () => {
    await loaded();
    const pending = store.applyDelta({ removeEntities: [], upsertEntities: [ent('Late')], removeEdges: [], addEdges: [] });
    await store.close();
    await pending;
    await expect(store.getEntity('main/late')).rejects.toMatchObject({ code: 'store-closed' });
    store = createKuzuStore(join(dir, '.lorecraft'));
    expect(await store.open(testSchema(), 'fp1')).toBe(true);
    expect(await store.getEntity('main/late')).not.toBeNull();
  });
});

describe('database held by another process', () => {
  it('refuses with store-locked and does not touch the other process files', async () => {
    const { spawn } = await import('node:child_process');
    const file = join(dir, '.lorecraft', 'graph.kuzu');
    expect(await store.open(testSchema(), 'fp1')).toBe(false);
    await store.rebuild([ent('Keep')], []);
    await store.close();
    const script = `import('kuzu').then(async ({ default: k }) => { const db = new k.Database(${JSON.stringify(file)}); await db.init();
      process.stdout.write('ready\\n'); process.stdin.on('data', async () => { await db.close(); process.exit(0); }); });`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((res, rej) => {
        child.stdout.on('data', (b: Buffer) => { if (b.toString().includes('ready')) res(); });
        child.on('exit', (code) => rej(new Error(`child exited ${String(code)}`)));
      });
      store = createKuzuStore(join(dir, '.lorecraft'));
      await expect(store.open(testSchema(), 'fp1')).rejects.toMatchObject({ code: 'store-locked' });
    } finally {
      const done = new Promise((res) => child.on('exit', res));
      child.stdin.write('x');
      await done;
    }
    store = createKuzuStore(join(dir, '.lorecraft'));
    expect(await store.open(testSchema(), 'fp1')).toBe(true);
    expect(await store.getEntity('main/keep')).not.toBeNull();
  });
});

describe('cypher time limit and cancellation', () => {
  // ~8e9 rows: runs for minutes unless Kùzu stops it
  const HEAVY = 'UNWIND range(1, 2000) AS a UNWIND range(1, 2000) AS b UNWIND range(1, 2000) AS c WITH a * b + c AS s WHERE s % 7 = 3 RETURN count(*) AS n';
  const codeOf = async (p: Promise<unknown>): Promise<string> => { try { await p; return 'ok'; } catch (e) { return (e as { code?: string }).code ?? String(e); } };
  beforeEach(async () => {
    await store.open(testSchema(), 'fp');
    await store.rebuild(world().entities, world().edges);
  });

  it('stops a query at its time limit with a timeout error; the connection has no limit afterwards', async () => {
    expect(await codeOf(store.cypher(HEAVY, undefined, { timeoutMs: 100 }))).toBe('timeout');
    const prev = process.env.LORECRAFT_QUERY_TIMEOUT_MS;
    process.env.LORECRAFT_QUERY_TIMEOUT_MS = '100';
    try {
      expect(await codeOf(store.cypher(HEAVY))).toBe('timeout');
    } finally {
      if (prev === undefined) delete process.env.LORECRAFT_QUERY_TIMEOUT_MS; else process.env.LORECRAFT_QUERY_TIMEOUT_MS = prev;
    }
    expect(await store.cypher('MATCH (n:Entity) RETURN count(*) AS n')).toEqual([{ n: 5 }]);
    expect((await store.list({})).total).toBeGreaterThan(0);
  });

  it('a cancelled query rejects at once; one cancelled while it waits never runs', async () => {
    const ac = new AbortController();
    const running = store.cypher(HEAVY, undefined, { timeoutMs: 1500, signal: ac.signal });
    const queued = new AbortController();
    const waiting = store.cypher('MATCH (n:Entity) RETURN n.name AS x', undefined, { signal: queued.signal });
    setTimeout(() => { ac.abort(); queued.abort(); }, 50);
    expect(await codeOf(running)).toBe('cancelled');
    expect(await codeOf(waiting)).toBe('cancelled');
    const pre = new AbortController();
    pre.abort();
    expect(await codeOf(store.cypher('RETURN 1 AS x', undefined, { signal: pre.signal }))).toBe('cancelled');
    // the store serves again once Kùzu has stopped the cancelled query at its limit
    expect(await store.cypher('RETURN 1 AS x')).toEqual([{ x: 1 }]);
  });
});
