/**
 * The players' view through the contract (issue 17, point 2): on the canary vault, after `view-set players`
 * every read the renderer makes answers without a secret canary and with every control canary; a read that
 * names the GM's audience still gets the players' answer; every write and the edit form are refused by the
 * core ('forbidden') and nothing on disk changes; back in the GM's view everything is there again.
 * `export-run` is `lorecraft export` for the open vault.
 */
import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sampleSession } from './test-session.js';
import { createHandlers } from './index.js';
import { contract, type Channel, type Handlers, type Req } from '../../../shared/contract.js';
import type { z } from 'zod';
import { dispatch } from '../../../shared/rpc.js';

const VAULT = resolve(import.meta.dirname, '../../../e2e/vaults/player-secrets');
const SECRET = ['QSECRETGMNAME', 'QSECRETGMBODY', 'QSECRETALIAS', 'QSECRETPROP', 'QSECRETCOMMENT', 'QSECRETCALLOUT', 'QSECRETGMCALLOUT', 'QSECRETGMEVENT', 'QSECRETTARGET'];
const CONTROL = ['QCONTROLNAME', 'QCONTROLBODY', 'QCONTROLALIAS', 'QCONTROLPROP', 'QCONTROLEVENT'];
/** revealed by the event of session 3: a GM-only note and a secret property */
const REVEALED = ['QREVEALNOTE', 'QREVEALPROP'];
const h = sampleSession('lorecraft-players-h-', VAULT);
const MIRA = 'setting/npcs/Mira Vell.md';

/** every read the app's renderer makes, for every entity it lists and every canary searched for */
async function everything(session: number | null, audience?: 'gm' | 'players'): Promise<string> {
  const a = audience ? { audience } : {};
  const out: unknown[] = [];
  const get = async <C extends Channel>(ch: C, req: Req<C>) => { const r = await h.call(ch, req); out.push(r); return r; };
  await get('vault-status', {});
  await get('schema-get', {});
  const list = await get('entity-list', { limit: 100_000, placeholders: true, ...a });
  await get('graph-snapshot', { ...a });
  await get('graph-compact', { ...a });
  await get('problems-list', { ...a });
  await get('canvas-importance', { ...a });
  await get('canvas-positions-get', { ...a });
  const tl = await get('timeline-sessions', { layer: 'campaign', ...a });
  if (session !== null) await get('timeline-graph-at', { layer: 'campaign', session, ...a });
  await get('timeline-events', { layer: 'campaign', ...a });
  // every diff between two sessions the view may show (before play = 0)
  for (const from of [0, 1, 2, 3]) for (const to of [0, 1, 2, 3]) {
    if (from !== to && (session === null || Math.max(from, to) <= session)) await get('timeline-diff', { layer: 'campaign', from, to, ...a });
  }
  for (const e of list.items) {
    await get('entity-get', { nameOrId: e.id, ...a });
    await get('relations-get', { nameOrId: e.id, depth: 3, ...a });
    await get('timeline-state', { nameOrId: e.id, layer: 'campaign', session, ...a }).catch(() => null);
    await get('timeline-events', { layer: 'campaign', entity: e.id, ...a }).catch(() => null);
  }
  for (const c of [...SECRET, ...CONTROL]) {
    await get('search-query', { text: c, ...a });
    await get('entity-suggest', { prefix: c, ...a });
    out.push(await h.call('entity-get', { nameOrId: c, ...a }).then((x) => x ?? 'none'));
  }
  out.push(tl.sessions.length);
  return JSON.stringify(out).toLowerCase();
}

describe("the players' view through the contract", () => {
  it('hides every secret canary and shows every control canary; a GM-audience read in that view is the players\' too', async () => {
    const gm = await everything(null);
    for (const c of [...SECRET, ...CONTROL]) expect(gm.includes(c.toLowerCase()), `${c} for the GM`).toBe(true);
    expect(await h.call('view-set', { audience: 'players', layer: 'campaign', session: 2 })).toEqual({ audience: 'players', layer: 'campaign', session: 2 });
    for (const asked of ['players', 'gm', undefined] as const) {
      const t = await everything(2, asked);
      for (const c of SECRET) expect(t.includes(c.toLowerCase()), `${c} leaked (asked: ${String(asked)})`).toBe(false);
      for (const c of CONTROL) expect(t.includes(c.toLowerCase()), `${c} missing (asked: ${String(asked)})`).toBe(true);
      for (const c of REVEALED) expect(t.includes(c.toLowerCase()), `${c} is revealed at session 3 only`).toBe(false);
    }
    await h.call('view-set', { audience: 'players', layer: 'campaign', session: 1 });
    const one = await everything(1);
    for (const c of REVEALED) expect(one.includes(c.toLowerCase()), `${c} at session 1`).toBe(false);
    await h.call('view-set', { audience: 'players', layer: 'campaign', session: 3 });
    const three = await everything(3);
    for (const c of REVEALED) expect(three.includes(c.toLowerCase()), `${c} from session 3 on`).toBe(true);
    for (const c of SECRET) expect(three.includes(c.toLowerCase()), `${c} leaked at session 3`).toBe(false);
    const mira = await h.call('entity-get', { nameOrId: 'Mira Vell', audience: 'players' });
    expect(mira?.body).toContain('She fears (secret).');
    expect(mira?.properties).not.toHaveProperty('secret_motive');
    await h.call('view-set', { audience: 'gm' });
    expect((await h.call('entity-get', { nameOrId: 'Mira Vell' }))?.properties).toHaveProperty('secret_motive');
  });

  it("the players' timeline itself (what the overlay and MCP build on) holds no secret at any session", () => {
    const core = h.session.current();
    for (const cap of [1, 2, 3, null]) {
      const tl = core.playersTimeline(cap);
      const at = cap ?? 3;
      const parts: unknown[] = [tl.sessions('campaign'), tl.timeline('campaign')];
      for (let s = 0; s <= at; s++) parts.push(tl.graphAt('campaign', s), tl.frame('campaign', s));
      for (let a = 0; a <= at; a++) for (let b = 0; b <= at; b++) if (a !== b) parts.push(tl.diff('campaign', a, b));
      for (const e of tl.graphAt('campaign', at).entities) parts.push(tl.stateAt(e.id, 'campaign', at));
      const text = JSON.stringify(parts).toLowerCase();
      for (const c of SECRET) expect(text.includes(c.toLowerCase()), `${c} at session ${cap}`).toBe(false);
      for (const c of REVEALED) expect(text.includes(c.toLowerCase()), `${c} at session ${cap}`).toBe(cap === null || cap >= 3);
      expect(text).toContain('qcontrolevent');
    }
  });

  it("the players' timeline at session N lists no later session, not even by number", async () => {
    const gm = await h.call('timeline-sessions', { layer: 'campaign' });
    expect(gm.sessions.map((s) => s.session)).toEqual([1, 2, 3]);
    try {
      await h.call('view-set', { audience: 'players', layer: 'campaign', session: 1 });
      const at1 = await h.call('timeline-sessions', { layer: 'campaign', audience: 'players' });
      expect(at1.sessions.map((s) => s.session)).toEqual([1]);
      // session 2's only event is the GM's: players know of no session 2
      await h.call('view-set', { audience: 'players', layer: 'campaign', session: 2 });
      expect((await h.call('timeline-sessions', { layer: 'campaign', audience: 'players' })).sessions.map((s) => s.session)).toEqual([1]);
      await h.call('view-set', { audience: 'players', layer: 'campaign', session: null });
      expect((await h.call('timeline-sessions', { layer: 'campaign', audience: 'players' })).sessions.map((s) => s.session)).toEqual([1, 3]);
      // a step past the view's session is refused (the renderer moves the view first)
      await h.call('view-set', { audience: 'players', layer: 'campaign', session: 1 });
      expect((await h.refusal('timeline-graph-at', { layer: 'campaign', session: 3, audience: 'players' })).code).toBe('forbidden');
    } finally {
      await h.call('view-set', { audience: 'gm' });
    }
  });

  it("the status bar's counts in the players' view are those of what the players see", async () => {
    const gm = (await h.call('vault-status', {})).status;
    const gmList = await h.call('entity-list', { limit: 100_000, placeholders: true });
    expect(gm.entities).toBe(gmList.total);
    await h.call('view-set', { audience: 'players', layer: 'campaign', session: 2 });
    try {
      const st = (await h.call('vault-status', {})).status;
      const list = await h.call('entity-list', { limit: 100_000, placeholders: true });
      expect(list.total).toBeLessThan(gmList.total);
      expect(st.entities).toBe(list.total);
      expect(st.relationships).toBeLessThan(gm.relationships);
      expect(st.problems).toBe((await h.call('problems-list', {})).length);
    } finally {
      await h.call('view-set', { audience: 'gm' });
    }
  });

  it('refuses every write and the edit form in the players\' view, on the core; nothing on disk changes', async () => {
    const before = await readFile(join(h.vault, MIRA), 'utf8');
    await h.call('view-set', { audience: 'players' });
    try {
      const writes: Array<[Channel, unknown]> = [
        ['edit-set', { nameOrId: 'Mira Vell', field: 'motto', value: 'x' }],
        ['edit-unset', { nameOrId: 'Mira Vell', field: 'motto' }],
        ['edit-body', { nameOrId: 'Mira Vell', body: 'gone' }],
        ['edit-link', { from: 'Mira Vell', rel: 'MEMBER_OF', to: 'Lantern Guild' }],
        ['edit-create', { type: 'npc', name: 'Somebody New' }],
        ['edit-rename', { nameOrId: 'Mira Vell', newName: 'Mira' }],
        ['edit-delete', { nameOrId: 'Mira Vell' }],
        ['timeline-create-event', { layer: 'campaign', session: 4, title: 'Nope' }],
        ['edit-form', { nameOrId: 'Mira Vell' }],
        ['edit-trash', {}],
        ['edit-history', {}],
        ['edit-delete-preview', { nameOrId: 'Mira Vell' }],
        ['edit-undo', {}],
      ];
      for (const [ch, req] of writes) {
        const r = await h.refusal(ch, req);
        expect(r.code, ch).toBe('forbidden');
        expect(r.message).toMatch(/players' view is read-only/);
      }
      expect(await readFile(join(h.vault, MIRA), 'utf8')).toBe(before);
      expect(await readdir(join(h.vault, 'campaign', 'sessions'))).toHaveLength(3);
    } finally {
      await h.call('view-set', { audience: 'gm' });
    }
    // the GM edits again
    await h.call('edit-set', { nameOrId: 'Mira Vell', field: 'motto', value: 'QCONTROLPROP the tide turns again' });
    await h.call('edit-undo', {});
    expect(await readFile(join(h.vault, MIRA), 'utf8')).toBe(before);
  });

  it('a field the contract does not declare (a lens-internal one) never goes out: the answer is zod\'s, stripped or refused', async () => {
    // answers are sent as they are when zod would give them back unchanged (shared/zod-same.ts): the same answers
    // with a canary planted as an extra key on every object must come out exactly as zod's parse makes them (the
    // canary stripped wherever the contract declares the object's keys, kept only inside values it leaves free:
    // a property's value)
    const CANARY = 'QSECRETLENSFIELD';
    const plant = (x: unknown): unknown => {
      if (Array.isArray(x)) x.forEach(plant);
      else if (x && typeof x === 'object') { for (const v of Object.values(x)) plant(v); (x as Record<string, unknown>).lensInternal = CANARY; }
      return x;
    };
    const real = createHandlers(h.session);
    const answer = (ch: Channel, req: unknown) => (real[ch] as (r: unknown, c: unknown) => Promise<unknown>)(contract[ch].req.parse(req), { transport: 'ws' });
    const planted = new Proxy(real, { get: (_t, ch) => async (req: unknown) => plant(structuredClone(await answer(ch as Channel, req))) }) as Handlers;
    await h.call('view-set', { audience: 'players', layer: 'campaign', session: 2 });
    try {
      const a = { audience: 'players' as const };
      const asks: Array<[Channel, unknown]> = [
        ['entity-list', { limit: 100_000, placeholders: true, ...a }], ['graph-snapshot', a], ['problems-list', a], ['canvas-importance', a],
        ['timeline-sessions', { layer: 'campaign', ...a }], ['timeline-graph-at', { layer: 'campaign', session: 2, ...a }],
        ['entity-get', { nameOrId: 'Mira Vell', ...a }], ['timeline-state', { nameOrId: 'Mira Vell', layer: 'campaign', session: 2, ...a }],
        ['vault-status', {}], ['view-get', {}],
      ];
      /** answers whose every object's keys the contract declares: no canary at all */
      const declared = new Set<Channel>(['entity-list', 'graph-snapshot', 'canvas-importance', 'problems-list', 'vault-status', 'view-get']);
      let stripped = 0;
      for (const [ch, req] of asks) {
        const dirty = await dispatch(ch, req, { transport: 'ws' }, planted);
        const byZod = (contract[ch].res as z.ZodType).safeParse(plant(structuredClone(await answer(ch, req))));
        expect(dirty.ok, ch).toBe(byZod.success);
        if (dirty.ok) { expect(dirty.value, ch).toEqual(byZod.data); stripped++; }
        else expect(dirty.error.code, ch).toBe('bad-response'); // a record of numbers, a strict object: refused
        if (declared.has(ch)) expect(JSON.stringify(dirty), ch).not.toContain(CANARY);
      }
      expect(stripped).toBeGreaterThanOrEqual(6);
    } finally {
      await h.call('view-set', { audience: 'gm' });
    }
  });

  it('export-run writes the players\' lorebook at a session outside the vault, and refuses a path inside it', async () => {
    const out = await mkdtemp(join(tmpdir(), 'lorecraft-export-run-'));
    try {
      const r = await h.call('export-run', { format: 'lorebook', audience: 'players', layer: 'campaign', session: 2, out: join(out, 'book.json') });
      expect(r).toMatchObject({ format: 'lorebook', audience: 'players', layer: 'campaign', session: 2, written: [join(out, 'book.json')] });
      const text = (await readFile(join(out, 'book.json'), 'utf8')).toLowerCase();
      for (const c of SECRET) expect(text.includes(c.toLowerCase()), c).toBe(false);
      expect(text).toContain('qcontrolalias');
      expect((await h.refusal('export-run', { format: 'json', audience: 'gm', out: join(h.vault, 'w.json') })).code).toBe('bad-arguments');
      expect((await h.refusal('export-run', { format: 'json', audience: 'gm', out: 'relative/w.json' })).code).toBe('bad-arguments');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
