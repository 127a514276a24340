/**
 * canvas-positions-* below the wire: a real core on a temp copy of the sample
 * world, calls through `dispatch` (zod in and out), canvas.json checked on disk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openCore } from '../../core/index.js';
import { CoreSession } from '../session.js';
import { createHandlers } from './index.js';
import { dispatch } from '../../../shared/rpc.js';
import type { Channel, Req, Res } from '../../../shared/contract.js';
import { CANVAS_FILE } from './canvas.js';

const SAMPLE = resolve(import.meta.dirname, '../../../resources/sample-world');
let dir: string;
let vault: string;
let session: CoreSession;

async function call<C extends Channel>(ch: C, req: Req<C>): Promise<Res<C>> {
  const r = await dispatch(ch, req, { transport: 'ws' }, createHandlers(session));
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.value as Res<C>;
}
const file = () => readFile(join(vault, CANVAS_FILE), 'utf8');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-canvas-h-'));
  vault = join(dir, 'vault');
  await cp(SAMPLE, vault, { recursive: true, filter: (s) => !s.includes('.lorecraft') });
  session = new CoreSession(() => undefined, (v) => openCore({ vaultDir: v, watch: false }));
  await session.open(vault);
}, 60_000);

afterAll(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

describe('canvas-positions', () => {
  it('starts empty, pins merge, null unpins, replace drops the rest; the file is canonical JSON', async () => {
    expect(await call('canvas-positions-get', {})).toEqual({ positions: {} });
    expect(await call('canvas-positions-set', { positions: { 'setting/mira': { x: 10.26, y: -4 } } })).toEqual({ count: 1 });
    expect(await call('canvas-positions-set', { positions: { 'setting/guild': { x: 1, y: 2 } } })).toEqual({ count: 2 });
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
    expect(await call('canvas-positions-get', {})).toEqual({ positions: { b: { x: 1, y: 1 } } });
  });

  it('refuses a non-finite position at the boundary', async () => {
    const r = await dispatch('canvas-positions-set', { positions: { a: { x: 'NaN', y: 1 } } }, { transport: 'ws' }, createHandlers(session));
    expect(r.ok).toBe(false);
  });
});
