/**
 * The timeline-* group below the wire: real core (Kùzu) on a temp copy of the
 * sample world, calls through `dispatch` (zod in and out), the created event
 * note checked on disk and read back by the timeline.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sampleSession } from './test-session.js';

const h = sampleSession('lorecraft-timeline-h-');
const { call, refusal } = h;
let vault: string;

beforeAll(() => {
  ({ vault } = h);
});

const VARO = 'setting/captain varo';

describe('timeline-* handlers', () => {
  it('timeline-sessions lists the campaign sessions with in-world dates and lanes for every event', async () => {
    const s = await call('timeline-sessions', { layer: 'campaign' });
    expect(s.sessions.map((x) => x.session)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.sessions[0]).toMatchObject({ dateLabel: '2 Seedtide 1203 WR', label: 'Session 1 · 2 Seedtide 1203 WR' });
    expect(s.before).toBe(0);
    const death = s.events.find((e) => e.name === 'The Death of Captain Varo')!;
    expect(death.session).toBe(5);
    expect(s.laneOf[death.id]).toBe('deaths & ruin');
    expect(s.laneOf[s.events.find((e) => e.name === 'The Broken Pact')!.id]).toBe('relationships');
    expect(s.laneOf[s.events.find((e) => e.name === 'Forging the Ember Blade')!.id]).toBe('creations');
    expect(death.tags).toContain('death');
    for (const e of s.events) expect(s.lanes).toContain(s.laneOf[e.id]);
  });

  it('timeline-graph-at: Captain Varo alive before session 5, dead from it, with the event cited; Millbrook destroyed at 3', async () => {
    const ids = async (n: number) => (await call('timeline-graph-at', { layer: 'campaign', session: n })).entities;
    const varoId = (await call('entity-get', { nameOrId: 'Captain Varo' }))!.id;
    expect(varoId).toBe(VARO);
    expect((await ids(4))[VARO]).toBeUndefined();
    expect((await ids(0))[VARO]).toBeUndefined();
    const at5 = (await ids(5))[VARO]!;
    expect(at5.status).toBe('dead');
    expect(at5.note).toBe('dead ← The Death of Captain Varo, session 5');
    expect((await ids(3))['setting/millbrook']).toEqual({ status: 'destroyed', note: 'destroyed ← The Burning of Millbrook, session 3' });
    expect((await ids(2))['setting/millbrook']).toBeUndefined();
    const g0 = await ids(0);
    const ember = Object.entries(g0).find(([id]) => id.endsWith('ember blade'));
    expect(ember?.[1].status).toBe('not-yet-created');
    const g2 = await ids(2);
    expect(Object.entries(g2).find(([id]) => id.endsWith('ember blade'))?.[1]).toMatchObject({ status: 'created', note: 'created ← Forging the Ember Blade, session 2' });
    const g3 = await ids(3);
    expect(Object.entries(g3).find(([id]) => id.endsWith('ember blade'))?.[1]).toMatchObject({ status: 'alive', note: 'created ← Forging the Ember Blade, session 2' });
  });

  it('timeline-graph-at: the broken pact removes ALLIED_WITH and adds HOSTILE_TO at session 4, not before', async () => {
    const g3 = await call('timeline-graph-at', { layer: 'campaign', session: 3 });
    const g4 = await call('timeline-graph-at', { layer: 'campaign', session: 4 });
    const hostile = (g: typeof g4) => g.addedEdges.find((e) => e.type === 'HOSTILE_TO');
    expect(hostile(g3)).toBeUndefined();
    expect(hostile(g4)).toMatchObject({ note: 'added ← The Broken Pact, session 4' });
    const allied = (g: typeof g4) => g.removedEdges.find((e) => e.type === 'ALLIED_WITH' && [e.from, e.to].some((x) => x.includes('corsair')));
    expect(allied(g3)).toBeUndefined();
    expect(allied(g4)).toMatchObject({ note: 'removed ← The Broken Pact, session 4' });
  });

  it('timeline-state gives values with provenance; the world before play is the note', async () => {
    const at5 = (await call('timeline-state', { nameOrId: 'Captain Varo', layer: 'campaign', session: 5 }))!;
    expect(at5.properties['status']).toBe('dead');
    expect(at5.dead).toBe(true);
    expect(at5.provenance['status']).toMatchObject({ name: 'The Death of Captain Varo', session: 5 });
    const at4 = (await call('timeline-state', { nameOrId: 'Captain Varo', layer: 'campaign', session: 4 }))!;
    expect(at4.properties['status']).toBe('alive');
    expect(at4.provenance['status']).toBeUndefined();
    expect(await call('timeline-state', { nameOrId: 'Nobody At All', layer: 'campaign', session: 4 })).toBeNull();
  });

  it('timeline-events filters by entity and session; timeline-diff lists the death', async () => {
    const evs = await call('timeline-events', { layer: 'campaign', entity: 'Captain Varo' });
    expect(evs.map((e) => e.name)).toEqual(['The Burning of Millbrook', 'The Death of Captain Varo']);
    const s4 = await call('timeline-events', { layer: 'campaign', from: 4, to: 4 });
    expect(s4.map((e) => e.name)).toEqual(['The Broken Pact', 'The Iron Compact']);
    const d = await call('timeline-diff', { layer: 'campaign', from: 4, to: 5 });
    expect(d.died.map((x) => x.entity)).toContain(VARO);
  });

  it('unknown layers are refused with a clear code', async () => {
    expect((await refusal('timeline-graph-at', { layer: 'nope', session: 1 })).code).toBe('unknown-layer');
    expect((await refusal('timeline-create-event', { layer: 'nope', session: 1, title: 'X' })).code).toBe('unknown-layer');
  });

  it('timeline-create-event writes an event note at that session through the write-back and the timeline sees it', async () => {
    const r = await call('timeline-create-event', {
      layer: 'campaign', session: 3, title: 'Riot at the Mill', date: '1203-04-20',
      participants: ['Tobin Reed'], location: 'Millbrook',
      consequences: [{ entity: 'Tobin Reed', property: 'status', value: 'dead' }],
    });
    expect(r.path.startsWith('campaign/')).toBe(true);
    const text = await readFile(join(vault, r.path), 'utf8');
    expect(text).toMatch(/^session: 3$/m);
    expect(text).toMatch(/^type: event$/m);
    expect(text).toContain('Tobin Reed');
    expect(text).toContain('Millbrook');
    expect(text).toMatch(/consequences:/);
    const s = await call('timeline-sessions', { layer: 'campaign' });
    const ev = s.events.find((e) => e.path === r.path)!;
    expect(ev).toMatchObject({ session: 3, name: 'Riot at the Mill' });
    expect(ev.participants.map((p) => p.name)).toContain('Tobin Reed');
    expect(ev.location?.name).toBe('Millbrook');
    const tobin = (await call('timeline-state', { nameOrId: 'Tobin Reed', layer: 'campaign', session: 3 }))!;
    expect(tobin.dead).toBe(true);
    expect(tobin.provenance['status']).toMatchObject({ path: r.path, session: 3 });
    // the write entered the undo history: the editor's undo takes the links and then the note away
    const hist = await call('edit-history', {});
    expect(hist.undo.some((h) => h.paths.includes(r.path))).toBe(true);
  });
});
