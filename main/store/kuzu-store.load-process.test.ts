/**
 * The bulk load in a process of its own (kuzu/load-process.ts): this process queries the graph the load
 * process wrote once it has gone, and a load process that dies or fails gives a clear error, leaves an empty
 * queryable graph, and the next load (in this store or the next open) works.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../domain/errors.js';
import { createKuzuStore } from './kuzu-store.js';
import { edge, ent, testSchema } from './test-helpers.js';
import type { GraphStore } from './types.js';

let dir: string;
let db: string;
const stores: GraphStore[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-loadproc-'));
  db = join(dir, '.lorecraft');
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  await rm(dir, { recursive: true, force: true });
});

function make(onLoadProcess?: (pid: number) => void): GraphStore {
  const s = createKuzuStore(db, { loadProcess: 'always', ...(onLoadProcess ? { onLoadProcess } : {}) });
  stores.push(s);
  return s;
}

const world = () => ({
  entities: [
    ent('Captain Varo', { type: 'npc', tags: ['NPC'], aliases: ['The Captain'], properties: { age: 41 }, body: 'The captain hunts a dragon — ünïcode ✓' }),
    ent('Red Hand', { type: 'faction', body: 'A guild of thieves.' }),
    ent('Millbrook', { type: 'location' }),
    ent('Ghost', { placeholder: true }),
  ],
  edges: [
    edge('Captain Varo', 'Red Hand', 'MEMBER_OF', { field: 'organization', line: 3 }),
    edge('Captain Varo', 'Millbrook', 'LINKS_TO', { line: 9 }),
    edge('Captain Varo', 'Ghost', 'LINKS_TO', { line: 10 }),
  ],
});

/** Is `pid` still a process (not yet exited and reaped)? */
function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

async function expectLoaded(s: GraphStore): Promise<void> {
  const w = world();
  expect(await s.counts()).toEqual({ entities: 3, relationships: 3, placeholders: 1 });
  expect(await s.getEntity(w.entities[0]!.id)).toEqual(w.entities[0]);
  expect((await s.edgesOf(w.entities[0]!.id)).map((e) => e.type).sort()).toEqual(['LINKS_TO', 'LINKS_TO', 'MEMBER_OF']);
  expect((await s.search('dragon', { limit: 5 })).map((h) => h.entity.id)).toEqual([w.entities[0]!.id]);
}

describe('the bulk load in a load process', () => {
  it('loads and indexes there; this process then holds the database and queries what it wrote', async () => {
    const pids: number[] = [];
    const s = make((pid) => pids.push(pid));
    expect(await s.open(testSchema(), 'fp1')).toBe(false);
    const w = world();
    await s.rebuild(w.entities, w.edges);
    expect(pids).toHaveLength(1);
    expect(pids[0]).not.toBe(process.pid);
    // queryable while the load process still holds the database (reads go to it)
    expect(await s.cypher('MATCH (e:Entity) WHERE e.placeholder = false RETURN count(*) AS n')).toEqual([{ n: 3 }]);
    await s.ensureSearchIndex();
    // the index is built: the load process has closed the database and exited
    expect(alive(pids[0]!)).toBe(false);
    await expectLoaded(s);
    // an edit after it goes to this process's own handle
    await s.applyDelta({ removeEntities: [], upsertEntities: [{ ...w.entities[1]!, body: 'They keep a dragon egg.' }], removeEdges: [], addEdges: [] });
    expect((await s.search('dragon', { limit: 5 })).length).toBe(2);
    await s.close();
    // the fingerprint was committed by the load process: the next open reuses the graph
    const again = make();
    expect(await again.open(testSchema(), 'fp1')).toBe(true);
    expect(await again.counts()).toEqual({ entities: 3, relationships: 3, placeholders: 1 });
  });

  it('a load process killed during the load: a clear error, an empty queryable graph, and the next load works', async () => {
    let kill = true;
    const s = make((pid) => { if (kill) process.kill(pid, 'SIGKILL'); });
    expect(await s.open(testSchema(), 'fp1')).toBe(false);
    const w = world();
    const err = await s.rebuild(w.entities, w.edges).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(CoreError);
    expect((err as CoreError).code).toBe('store-load-failed');
    expect((err as CoreError).message).toMatch(/graph load process .* was killed \(SIGKILL\)/);
    expect(await s.counts()).toEqual({ entities: 0, relationships: 0, placeholders: 0 });
    kill = false;
    await s.rebuild(w.entities, w.edges);
    await expectLoaded(s);
  });

  it('a row Kùzu refuses in the load process: its COPY error, an empty queryable graph here, and the next load works', async () => {
    const pids: number[] = [];
    const s = make((pid) => pids.push(pid));
    expect(await s.open(testSchema(), 'fp1')).toBe(false);
    const w = world();
    // a lone surrogate: JSON.stringify writes it as an escape Kùzu's JSON reader refuses
    const bad = [...w.entities, ent('Broken', { body: 'half a pair \uD800 here' })];
    await expect(s.rebuild(bad, w.edges)).rejects.toThrow(/Copy exception: .*no low surrogate/);
    expect(pids).toHaveLength(1);
    expect(alive(pids[0]!)).toBe(false);
    expect(await s.counts()).toEqual({ entities: 0, relationships: 0, placeholders: 0 });
    await s.rebuild(w.entities, w.edges);
    await expectLoaded(s);
  });

  it('killed in the middle of a two-step load (opening a fresh vault): the next open rebuilds and works', async () => {
    let started!: (pid: number) => void;
    const pid = new Promise<number>((res) => { started = res; });
    const s = make((p) => started(p));
    expect(await s.open(testSchema(), 'fp1')).toBe(false);
    const session = await s.beginRebuild();
    expect(session).not.toBeNull();
    const w = world();
    // the records handed over start the load process; it dies before the load finishes
    session!.copyEntities(w.entities.slice(0, 2));
    const p = await pid;
    expect(p).toBeGreaterThan(0);
    process.kill(p, 'SIGKILL');
    await expect(session!.finish(w.entities, w.edges)).rejects.toMatchObject({ code: 'store-load-failed' });
    expect(await s.counts()).toEqual({ entities: 0, relationships: 0, placeholders: 0 });
    await s.close();
    const next = make();
    expect(await next.open(testSchema(), 'fp1')).toBe(false);
    await next.rebuild(w.entities, w.edges);
    await expectLoaded(next);
  });
});
