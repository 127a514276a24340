/**
 * schema-setup-* below the wire: a real core on a temp copy of the untyped
 * Obsidian-style e2e vault, calls through `dispatch` (zod in and out). Accept
 * writes the files and reopens the vault: the session's core is typed at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openCore } from '../../core/index.js';
import { CoreSession } from '../../core/index.js';
import { createHandlers } from './index.js';
import { dispatch } from '../../../shared/rpc.js';
import type { Channel, Req, Res } from '../../../shared/contract.js';

const UNTYPED = resolve(import.meta.dirname, '../../../e2e/vaults/obsidian-untyped');
let dir: string;
let vault: string;
let session: CoreSession;
const pushed: string[] = [];

async function call<C extends Channel>(ch: C, req: Req<C>): Promise<Res<C>> {
  const r = await dispatch(ch, req, { transport: 'ws' }, createHandlers(session));
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.value as Res<C>;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-setup-h-'));
  vault = join(dir, 'vault');
  await cp(UNTYPED, vault, { recursive: true });
  session = new CoreSession((e) => { pushed.push(e); }, (v) => openCore({ vaultDir: v, watch: false }));
  await session.open(vault);
}, 180_000);
afterAll(async () => {
  await session?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('schema-setup', () => {
  it('vault-status says there is no schema and lists the README as a vault file', async () => {
    expect(await call('vault-status', {})).toMatchObject({ hasSchema: false, vaultFiles: ['README.md'] });
  });

  it('propose -> preview (merge) -> accept writes both files and re-types the open vault', async () => {
    const p = await call('schema-setup-propose', {});
    expect(Object.fromEntries(p.types.map((t) => [t.name, t.count]))).toEqual({ character: 3, organization: 2, place: 3 });
    // merge the organizations into the places (same name) and preview
    const choices = [{ id: 'folder:World/Organizations', name: 'place', keep: true }];
    const v = await call('schema-setup-preview', { choices });
    expect(v.summary.types).toEqual({ character: 3, place: 5 });
    pushed.length = 0;
    const res = await call('schema-setup-accept', { choices });
    expect(res.reload).toBe(true);
    expect(res.files).toEqual([{ file: 'lorecraft.yaml', status: 'written' }, { file: 'schema.yaml', status: 'written' }]);
    expect(await readFile(join(vault, 'schema.yaml'), 'utf8')).toBe(v.text);
    expect(pushed).toContain('vault-opened');
    expect(await call('vault-status', {})).toMatchObject({ hasSchema: true });
    const places = await call('entity-list', { type: 'place' });
    expect(places.items.map((e) => e.name)).toEqual(['Ash Circle', 'Ember Fen', 'Greyhold', 'Saltmere', 'Tide Guild']);
  });
});
