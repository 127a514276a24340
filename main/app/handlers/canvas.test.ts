/**
 * canvas-positions-* below the wire: a real core on a temp copy of the sample
 * world, calls through `dispatch` (zod in and out), canvas.json checked on disk.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sampleSession } from './test-session.js';
import { CANVAS_FILE } from './canvas.js';
import { decodeGraph } from '../../../shared/graph-compact.js';

const h = sampleSession('lorecraft-canvas-h-');
const { call, refusal } = h;
let vault: string;

const file = () => readFile(join(vault, CANVAS_FILE), 'utf8');

beforeAll(() => {
  ({ vault } = h);
});

describe('canvas-positions', () => {
  it('starts empty, pins merge, null unpins, replace drops the rest; the file is canonical JSON', async () => {
    expect(await call('canvas-positions-get', {})).toEqual({ positions: {}, layout: {} });
    expect(await call('canvas-positions-set', { positions: { 'setting/mira': { x: 10.26, y: -4 } } })).toEqual({ count: 1, laidOut: 0 });
    expect(await call('canvas-positions-set', { positions: { 'setting/guild': { x: 1, y: 2 } } })).toEqual({ count: 2, laidOut: 0 });
    expect((await call('canvas-positions-get', {})).positions).toEqual({ 'setting/guild': { x: 1, y: 2 }, 'setting/mira': { x: 10.3, y: -4 } });
    expect(JSON.parse(await file())).toEqual({ version: 1, positions: { 'setting/guild': { x: 1, y: 2 }, 'setting/mira': { x: 10.3, y: -4 } } });
    await call('canvas-positions-set', { positions: { 'setting/mira': null } });
    expect(Object.keys((await call('canvas-positions-get', {})).positions)).toEqual(['setting/guild']);
    await call('canvas-positions-set', { positions: { 'setting/x': { x: 0, y: 0 } }, replace: true });
    expect(Object.keys((await call('canvas-positions-get', {})).positions)).toEqual(['setting/x']);
    // written atomically: no temp files left beside it
    expect((await readdir(join(vault, '.lorecraft'))).filter((f) => f.endsWith('.lorecraft-tmp'))).toEqual([]);
  });

  it('concurrent pins are all kept (one read-merge-write queue)', async () => {
    await call('canvas-positions-set', { positions: {}, replace: true });
    await Promise.all(Array.from({ length: 8 }, (_, i) => call('canvas-positions-set', { positions: { [`setting/n${i}`]: { x: i, y: i } } })));
    expect(Object.keys((await call('canvas-positions-get', {})).positions)).toHaveLength(8);
  });

  it('never touches a note', async () => {
    const before = await readFile(join(vault, 'setting/npcs/Tobin Reed.md'), 'utf8');
    await call('canvas-positions-set', { positions: { 'setting/tobin reed': { x: 5, y: 5 } } });
    expect(await readFile(join(vault, 'setting/npcs/Tobin Reed.md'), 'utf8')).toBe(before);
  });

  it('a damaged canvas.json is reported by file and field, treated as empty, and replaced by the next pin', async () => {
    await writeFile(join(vault, CANVAS_FILE), '{ nope');
    const bad = await call('canvas-positions-get', {});
    expect(bad.positions).toEqual({});
    expect(bad.problem).toMatch(/\.lorecraft\/canvas\.json: not JSON/);
    await writeFile(join(vault, CANVAS_FILE), JSON.stringify({ version: 1, positions: { a: { x: 'left', y: 1 } } }));
    expect((await call('canvas-positions-get', {})).problem).toMatch(/canvas\.json: field 'positions\.a\.x'/);
    await call('canvas-positions-set', { positions: { b: { x: 1, y: 1 } } });
    expect(await call('canvas-positions-get', {})).toEqual({ positions: { b: { x: 1, y: 1 } }, layout: {} });
  });

  it('keeps every node\'s layout position beside the pins: merged, replaced as a whole, never mixed with pins', async () => {
    await call('canvas-positions-set', { positions: { p: { x: 9, y: 9 } }, replace: true, layout: { a: { x: 1, y: 2 }, b: { x: 3, y: 4 } } });
    expect(await call('canvas-positions-set', { positions: {}, layout: { c: { x: 5, y: 6 }, a: null } })).toEqual({ count: 1, laidOut: 2 });
    expect(await call('canvas-positions-get', {})).toEqual({ positions: { p: { x: 9, y: 9 } }, layout: { b: { x: 3, y: 4 }, c: { x: 5, y: 6 } } });
    await call('canvas-positions-set', { positions: {}, layout: { z: { x: 0, y: 0 } }, replaceLayout: true });
    expect(JSON.parse(await file())).toEqual({ version: 1, positions: { p: { x: 9, y: 9 } }, layout: { z: { x: 0, y: 0 } } });
    // a damaged layout map is reported by field, like the pins
    await writeFile(join(vault, CANVAS_FILE), JSON.stringify({ version: 1, positions: {}, layout: { a: { x: 1 } } }));
    expect((await call('canvas-positions-get', {})).problem).toMatch(/canvas\.json: field 'layout\.a\.y'/);
  });

  it('refuses a non-finite position at the boundary', async () => {
    const r = await refusal('canvas-positions-set', { positions: { a: { x: 'NaN', y: 1 } } });
    expect(r.code).toBe('bad-request');
  });

  it('graph-compact decodes to exactly what graph-snapshot answers (the sample world, through zod both ways)', async () => {
    const snap = await call('graph-snapshot', {});
    const compact = await call('graph-compact', {});
    expect(snap.nodes.length).toBeGreaterThan(5);
    expect(snap.edges.length).toBeGreaterThan(5);
    expect(decodeGraph(compact)).toEqual(snap);
    // and smaller on the wire
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(snap).length);
  });

  it('canvas-importance: PageRank of every entity from Kùzu, hubs above leaves, cached until the model changes', async () => {
    const { ranks } = await call('canvas-importance', {});
    const snap = await call('graph-snapshot', {});
    expect(Object.keys(ranks).sort()).toEqual(snap.nodes.map((n) => n.id).sort());
    // the most linked-to entity outranks one nothing points at
    const inDeg = new Map<string, number>();
    for (const e of snap.edges) inDeg.set(e.to, (inDeg.get(e.to) ?? 0) + 1);
    const hub = [...inDeg].sort((a, b) => b[1] - a[1])[0]![0];
    const leaf = snap.nodes.find((n) => !inDeg.has(n.id))!.id;
    expect(ranks[hub]!).toBeGreaterThan(ranks[leaf]!);
    // one computation per model version: the same promise until something changes
    const core = h.session.current();
    expect(core.importance()).toBe(core.importance());
  });
});
