/**
 * The bundled sample world (resources/sample-world): real files, real parser,
 * real model. Its campaign exercises every consequence kind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { timelineInputFromModel } from './service.js';
import { buildTimelineIndex, type TimelineIndex } from './timeline-index.js';
import { loadVaultModel } from '../sync/load-model.js';

const SAMPLE = fileURLToPath(new URL('../../resources/sample-world', import.meta.url));
let ix: TimelineIndex;

beforeAll(async () => {
  const v = await loadVaultModel(SAMPLE);
  ix = buildTimelineIndex(timelineInputFromModel(v.model, v.vaultDir));
});

describe('sample world campaign', () => {
  it('has no timeline problems', () => {
    expect(ix.problems()).toEqual([]);
  });
  it('uses every consequence kind', () => {
    const kinds = new Set(ix.timeline('campaign').flatMap((e) => e.consequences.map((c) => c.kind)));
    expect([...kinds].sort()).toEqual(['add', 'created', 'destroyed', 'relationship-add', 'relationship-remove', 'remove', 'set', 'unset']);
  });
  it('lists its sessions in order with in-world dates', () => {
    const s = ix.sessions('campaign');
    expect(s.map((x) => x.session)).toEqual([...s.map((x) => x.session)].sort((a, b) => a - b));
    // written 1203-03-02, shown on the Westland Reckoning (the sample's lorecraft.yaml calendar:)
    expect(s[0]!.dateLabel).toBe('2 Seedtide 1203 WR');
    const events = ix.timeline('campaign');
    expect(events.every((e, i) => i === 0 || e.session! >= events[i - 1]!.session!)).toBe(true);
  });
  it('the Iron Guild\'s wary alliance with the Bureau holds until Oldmere Rises (session 10), with provenance', () => {
    const allied = (s: number) => ix.graphAt('campaign', s).relationships.some((r) => r.type === 'ALLIED_WITH'
      && [r.from, r.to].includes('setting/iron guild') && [r.from, r.to].includes('setting/bureau of civic affairs'));
    const ends = ix.timeline('campaign').find((e) => e.name === 'Oldmere Rises')!.session!;
    expect(allied(ends - 1)).toBe(true);
    expect(allied(ends)).toBe(false);
    const removed = ix.graphAt('campaign', ends).removedRelationships.find((r) => r.type === 'ALLIED_WITH' && r.from === 'setting/iron guild')!;
    expect(removed.removedBy).toMatchObject({ name: 'Oldmere Rises', session: ends });
  });
  it('Captain Varo is alive until the session of his death, dead from it on', () => {
    const death = ix.timeline('campaign', { entity: 'Captain Varo' }).find((e) => e.consequences.some((c) => c.entity === 'setting/captain varo' && c.property === 'status'))!;
    const n = death.session!;
    const before = ix.stateAt('Captain Varo', 'campaign', n - 1)!;
    expect(before.dead).toBe(false);
    expect(before.properties.status).toBe('alive');
    const after = ix.stateAt('Captain Varo', 'campaign', n)!;
    expect(after.dead).toBe(true);
    expect(after.properties.status).toBe('dead');
    expect(after.provenance.status).toMatchObject({ event: death.id, session: n, path: death.path });
    // the scrubber frame says the same
    expect(ix.frame('campaign', n - 1).dead).not.toContain('setting/captain varo');
    expect(ix.frame('campaign', n).dead).toContain('setting/captain varo');
    // the setting itself is untouched
    expect(ix.stateAt('Captain Varo', 'setting')!.properties.status).toBe('alive');
  });
  it('the graph at a session shows destroyed, not-yet-created and changed relationships', () => {
    const burning = ix.timeline('campaign').find((e) => e.consequences.some((c) => c.kind === 'destroyed' && c.entityName === 'Millbrook'))!;
    const founding = ix.timeline('campaign').find((e) => e.consequences.some((c) => c.kind === 'created' && c.entityName === 'New Millbrook'))!;
    const g = (s: number) => ix.graphAt('campaign', s);
    const state = (s: number, name: string) => g(s).entities.find((e) => e.name === name)!;
    expect(state(burning.session! - 1, 'Millbrook').lifecycle).toBe('exists');
    expect(state(burning.session!, 'Millbrook').lifecycle).toBe('destroyed');
    expect(state(founding.session! - 1, 'New Millbrook').lifecycle).toBe('not-yet-created');
    expect(state(founding.session!, 'New Millbrook')).toMatchObject({ lifecycle: 'exists', layer: 'campaign', virtual: false });
    // New Millbrook's own relationships (region, ruler) hold only once it exists
    const nm = 'campaign/new millbrook';
    expect(g(founding.session! - 1).relationships.some((r) => r.from === nm)).toBe(false);
    expect(g(founding.session!).relationships.some((r) => r.from === nm)).toBe(true);
  });
  it('diffs the session of the broken pact: relationship removed and added', () => {
    const pact = ix.timeline('campaign').find((e) => e.consequences.some((c) => c.kind === 'relationship-remove'))!;
    const d = ix.diff('campaign', pact.session! - 1, pact.session!);
    const removed = pact.consequences.find((c) => c.kind === 'relationship-remove')!;
    expect(d.relationshipsRemoved).toContainEqual(expect.objectContaining({ type: removed.relationship }));
    expect(d.relationshipsAdded.length).toBeGreaterThan(0);
    expect(d.events).toContain(pact.id);
  });
  it('every property change in the full diff carries provenance', () => {
    const last = ix.sessions('campaign').at(-1)!.session;
    const d = ix.diff('campaign', 0, last);
    expect(d.changes.length).toBeGreaterThan(3);
    expect(d.changes.every((c) => c.provenance && c.provenance.line > 1)).toBe(true);
  });
});
