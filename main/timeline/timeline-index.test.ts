import { describe, expect, it } from 'vitest';
import { buildTimelineIndex } from './timeline-index.js';
import { entity, eventNote, world } from './testkit.js';

const ix = () => buildTimelineIndex(world());

describe('timeline order and sessions', () => {
  it('orders events by session, then in-world date, then path', () => {
    const names = ix().timeline('war').map((e) => `${e.session} ${e.name}`);
    expect(names).toEqual(['2 The Council at Oldmere', '4 An Omen', '4 The Burning of Millbrook', '6 Rebuilding']);
  });
  it('lists sessions with in-world date labels', () => {
    expect(ix().sessions('war').map((s) => s.label)).toEqual(['Session 2 · 1203-03', 'Session 4 · 1203-05-01', 'Session 6 · c. 1204 AR']);
  });
  it('keeps participants and location resolved across layers', () => {
    const burning = ix().timeline('war').find((e) => e.name === 'The Burning of Millbrook')!;
    expect(burning.participants.map((p) => p.id)).toEqual(['setting/captain varo', 'setting/red hand']);
    expect(burning.location).toEqual({ name: 'Millbrook', id: 'setting/millbrook' });
    expect(burning.consequences.map((c) => c.kind)).toEqual(['destroyed', 'set', 'add', 'remove', 'unset', 'relationship-add', 'relationship-remove', 'created']);
  });
  it('filters by entity and by session range', () => {
    expect(ix().timeline('war', { entity: 'Lady Wren' }).map((e) => e.name)).toEqual(['The Council at Oldmere', 'The Burning of Millbrook', 'Rebuilding']);
    expect(ix().timeline('war', { from: 3, to: 4 }).map((e) => e.name)).toEqual(['An Omen', 'The Burning of Millbrook']);
  });
  it('keeps several campaigns over one setting apart', () => {
    const t = ix();
    expect(t.timeline('peace').map((e) => e.name)).toEqual(['The Treaty']);
    expect(t.stateAt('Red Hand', 'peace')!.properties.leader).toBe('Lady Wren');
    expect(t.stateAt('Red Hand', 'war')!.properties.leader).toBeUndefined();
    expect(t.stateAt('Captain Varo', 'peace')!.properties.status).toBe('alive');
    expect(t.timeline('setting')).toEqual([]);
  });
});

describe('stateAt', () => {
  it('is the canonical base before any event and carries provenance after', () => {
    const t = ix();
    const before = t.stateAt('Captain Varo', 'war', 3)!;
    expect(before.properties.status).toBe('alive');
    expect(before.dead).toBe(false);
    expect(before.provenance).toEqual({});
    const after = t.stateAt('Captain Varo', 'war', 4)!;
    expect(after.properties.status).toBe('dead');
    expect(after.dead).toBe(true);
    expect(after.died).toMatchObject({ name: 'The Burning of Millbrook', session: 4, path: 'war/burning.md', line: 10 });
    expect(after.provenance.status).toMatchObject({ event: 'war/the burning of millbrook', date: '1203-05-14' });
  });
  it('applies set, add, remove, unset in order', () => {
    const t = ix();
    expect(t.stateAt('Red Hand', 'war', 3)!.properties.holdings).toEqual(['[[Oldmere]]']);
    expect(t.stateAt('Red Hand', 'war', 4)!.properties.holdings).toEqual(['Millbrook']);
    expect(t.stateAt('Lady Wren', 'war', 1)!.properties.title).toBe('Lady of Oldmere');
    const wren = t.stateAt('Lady Wren', 'war', 4)!;
    expect(wren.properties.title).toBeUndefined();
    expect('title' in wren.provenance).toBe(true);
    expect(wren.properties.titles).toEqual(['Regent']);
  });
  it('tracks lifecycle: destroyed, created, not yet created', () => {
    const t = ix();
    expect(t.stateAt('Millbrook', 'war', 3)!.lifecycle).toBe('exists');
    const mb = t.stateAt('Millbrook', 'war', 4)!;
    expect(mb.lifecycle).toBe('destroyed');
    expect(mb.destroyed?.line).toBe(9);
    const nm3 = t.stateAt('New Millbrook', 'war', 3)!;
    expect(nm3).toMatchObject({ lifecycle: 'not-yet-created', exists: false, virtual: true, layer: 'war' });
    const nm6 = t.stateAt('New Millbrook', 'war', 6)!;
    expect(nm6).toMatchObject({ lifecycle: 'exists', properties: { size: 'hamlet' } });
    expect(nm6.created?.session).toBe(4);
  });
  it('adds and removes relationships, symmetric either way, inverse names turned around', () => {
    const t = ix();
    const rh3 = t.stateAt('Red Hand', 'war', 3)!;
    expect(rh3.relationships.map((r) => `${r.from}>${r.type}>${r.to}`).sort()).toEqual([
      'setting/captain varo>MEMBER_OF>setting/red hand', 'setting/red hand>ALLIED_WITH>setting/guild of ash']);
    const rh4 = t.stateAt('Red Hand', 'war', 4)!;
    expect(rh4.relationships.map((r) => `${r.from}>${r.type}>${r.to}`).sort()).toEqual([
      'setting/captain varo>MEMBER_OF>setting/red hand', 'setting/red hand>ALLIED_WITH>setting/iron guild']);
    expect(rh4.removedRelationships[0]).toMatchObject({ to: 'setting/guild of ash', removedBy: { session: 4, line: 15 } });
    const wren = t.stateAt('Lady Wren', 'war', 6)!;
    expect(wren.relationships).toContainEqual(expect.objectContaining({ from: 'setting/lady wren', type: 'MEMBER_OF', to: 'setting/captain varo', origin: 'event' }));
  });
  it('returns null for an unknown name and throws for an unknown layer', () => {
    expect(ix().stateAt('Nobody', 'war')).toBeNull();
    expect(() => ix().stateAt('Red Hand', 'nope')).toThrow(/unknown layer 'nope'/);
  });
});

describe('graphAt and diff', () => {
  it('tells which entities exist and which relationships hold at a session', () => {
    const t = ix();
    const g3 = t.graphAt('war', 3);
    const by = (g: typeof g3, n: string) => g.entities.find((e) => e.name === n)!;
    expect(by(g3, 'Captain Varo').dead).toBe(false);
    expect(by(g3, 'New Millbrook').lifecycle).toBe('not-yet-created');
    expect(by(g3, 'The Burning of Millbrook').lifecycle).toBe('not-yet-created');
    expect(by(g3, 'The Council at Oldmere').lifecycle).toBe('exists');
    const g4 = t.graphAt('war', 4);
    expect(by(g4, 'Captain Varo').dead).toBe(true);
    expect(by(g4, 'Millbrook').lifecycle).toBe('destroyed');
    expect(g4.relationships.some((r) => r.to === 'setting/iron guild')).toBe(true);
    expect(g4.removedRelationships.map((r) => r.to)).toEqual(['setting/guild of ash']);
    // setting entities that nothing touched are the shared base objects
    expect(by(g3, 'Oldmere')).toBe(by(g4, 'Oldmere'));
    expect(t.graphAt('war', 4)).toBe(g4);
  });
  it('frame: only the deviations from the base graph, for the scrubber', () => {
    const t = ix();
    const f3 = t.frame('war', 3);
    expect(f3.lifecycle).toMatchObject({ 'war/new millbrook': 'not-yet-created', 'war/the burning of millbrook': 'not-yet-created' });
    expect(f3.lifecycle['setting/captain varo']).toBeUndefined();
    expect(f3.dead).toEqual([]);
    expect(f3.added).toEqual([]);
    expect(f3.changed).toEqual(['setting/lady wren']);
    const f4 = t.frame('war', 4);
    expect(f4.lifecycle).toMatchObject({ 'setting/millbrook': 'destroyed' });
    expect(f4.dead).toEqual(['setting/captain varo']);
    expect(f4.lifecycle['war/new millbrook']).toBeUndefined();
    expect(f4.added).toEqual([{ from: 'setting/red hand', to: 'setting/iron guild', type: 'ALLIED_WITH', event: 'war/the burning of millbrook' }]);
    expect(f4.hidden).toEqual([{ from: 'setting/red hand', to: 'setting/guild of ash', type: 'ALLIED_WITH' }]);
    expect(t.frame('war', 4)).toBe(f4);
  });
  it('diffs two sessions with provenance, both directions', () => {
    const d = ix().diff('war', 3, 4);
    expect(d.events).toEqual(['war/an omen', 'war/the burning of millbrook']);
    expect(d.destroyed.map((x) => x.name)).toEqual(['Millbrook']);
    expect(d.created.map((x) => x.name)).toEqual(['New Millbrook']);
    expect(d.died).toMatchObject([{ name: 'Captain Varo', provenance: { session: 4 } }]);
    expect(d.changes).toContainEqual(expect.objectContaining({ name: 'Captain Varo', property: 'status', before: 'alive', after: 'dead' }));
    expect(d.relationshipsAdded.map((r) => r.to)).toEqual(['setting/iron guild']);
    expect(d.relationshipsRemoved.map((r) => r.to)).toEqual(['setting/guild of ash']);
    const back = ix().diff('war', 4, 3);
    expect(back.revived.map((x) => x.name)).toEqual(['Captain Varo']);
    expect(back.relationshipsAdded.map((r) => r.to)).toEqual(['setting/guild of ash']);
  });
  it('with the omen at session 4 applied first, the burning wins the status', () => {
    const d = ix().diff('war', 2, 4);
    const ch = d.changes.find((c) => c.property === 'status')!;
    expect(ch).toMatchObject({ before: 'alive', after: 'dead', provenance: { name: 'The Burning of Millbrook' } });
  });
});

describe('relationshipHistory', () => {
  it('gives the intervals a relationship held, from notes and events', () => {
    const t = ix();
    const ash = t.relationshipHistory('war', 'Red Hand', 'Guild of Ash')!;
    expect(ash).toEqual([expect.objectContaining({ type: 'ALLIED_WITH', since: null, until: expect.objectContaining({ name: 'The Burning of Millbrook', session: 4 }) })]);
    const iron = t.relationshipHistory('war', 'Iron Guild', 'Red Hand', 'ALLIED_WITH')!;
    expect(iron).toEqual([expect.objectContaining({ since: expect.objectContaining({ session: 4 }), until: null })]);
    expect(t.relationshipHistory('peace', 'Red Hand', 'Guild of Ash')![0]!.until).toBeNull();
    expect(t.relationshipHistory('war', 'Red Hand')!.map((r) => r.type).sort()).toEqual(['ALLIED_WITH', 'ALLIED_WITH', 'MEMBER_OF']);
    expect(t.relationshipHistory('war', 'Nobody')).toBeNull();
  });
});

describe('dead is configurable', () => {
  it('reads events.status_fields / dead_values from the schema', () => {
    const w = world();
    w.schema = { ...w.schema, events: { ...w.schema.events, status_fields: ['status'], dead_values: ['unknown'] } };
    const t = buildTimelineIndex(w);
    // the omen sets status: unknown before the burning sets dead
    expect(t.stateAt('Captain Varo', 'war', 4)!.dead).toBe(false);
    const omenOnly = buildTimelineIndex({ ...w, events: [...w.events].filter((e) => e.name !== 'The Burning of Millbrook') });
    expect(omenOnly.stateAt('Captain Varo', 'war', 4)!).toMatchObject({ dead: true, died: { name: 'An Omen' } });
  });
});

describe('validation problems', () => {
  const bad = eventNote('war', 'bad.md', `
title: Bad Event
type: event
session: 5
consequences:
  - { entity: Nobody, property: status, value: dead }
  - { entity: Captain Varo, property: mood, value: grim }
  - { entity: Captain Varo, property: status, value: zombie }
  - { entity: Red Hand, relationship: HATES, add: Iron Guild }
  - { entity: Captain Varo, relationship: MEMBER_OF, add: Millbrook }
  - { entity: Captain Varo, property: faction, value: Iron Guild }
  - { entity: Red Hand, property: holdings, value: x, add: y }
  - just a string
  - { entity: Red Hand, relationship: ALLIED_WITH, add: Nowhere }
`);
  const t = buildTimelineIndex(world([bad]));
  const probs = t.problems().filter((p) => p.file === 'war/bad.md');
  const at = (line: number) => probs.filter((p) => p.line === line).map((p) => `${p.severity} ${p.code}`);
  it('names file and line of each bad consequence item', () => {
    expect(at(6)).toEqual(['error event-unknown-entity']);
    expect(at(7)).toEqual(['warning event-unknown-property']);
    expect(at(8)).toEqual(['warning event-enum-value']);
    expect(at(9)).toEqual(['error event-unknown-relationship']);
    expect(at(10)).toEqual(['warning event-relationship-types']);
    expect(at(11)).toEqual(['warning event-unknown-property']);
    expect(at(12)).toEqual(['error event-consequence']);
    expect(at(13)).toEqual(['error event-consequence']);
    expect(at(14)).toEqual(['error event-unknown-entity']);
    expect(probs.find((p) => p.line === 11)!.hint).toMatch(/relationship: MEMBER_OF/);
    expect(probs.every((p) => p.entityId === 'war/bad event' && p.field === 'consequences')).toBe(true);
  });
  it('does not apply invalid items, applies warned ones', () => {
    const varo = t.stateAt('Captain Varo', 'war', 5)!;
    expect(varo.properties.mood).toBe('grim');
    expect(t.stateAt('Red Hand', 'war', 5)!.relationships.some((r) => r.type === 'HATES')).toBe(false);
  });
  it('reports an event without a session', () => {
    const noSession = eventNote('war', 'later.md', 'title: Later\ntype: event\nsession: ""\nconsequences:\n  - { entity: Oldmere, destroyed: true }\n');
    const t2 = buildTimelineIndex(world([noSession]));
    expect(t2.problems().find((p) => p.file === 'war/later.md')).toMatchObject({ code: 'event-session', severity: 'warning', line: 4 });
    expect(t2.timeline('war').at(-1)).toMatchObject({ name: 'Later', session: null });
    expect(t2.stateAt('Oldmere', 'war', 99)!.lifecycle).toBe('exists');
  });
});

describe('layers', () => {
  it('flags a campaign note that edits a canonical entity directly', () => {
    const w = world();
    w.entities = [...w.entities, entity('war', 'Captain Varo', 'npc', { status: 'dead' }), entity('war', 'Tavern Rumour', 'npc', { status: 'alive' }), entity('war', 'Oldmere', 'settlement')];
    const probs = buildTimelineIndex({ ...w, fieldLine: (_p, f) => (f === 'status' ? 3 : undefined) }).problems().filter((p) => p.code === 'cross-layer-edit');
    expect(probs).toEqual([expect.objectContaining({ severity: 'error', file: 'war/Captain Varo.md', line: 3, field: 'status', entityId: 'war/captain varo' })]);
    expect(probs[0]!.hint).toMatch(/record an event/);
  });
  it('reports unknown dependencies and cycles', () => {
    const w = world();
    w.config = { ...w.config, layers: [
      { name: 'a', paths: ['a'], canonical: false, depends_on: ['b'] },
      { name: 'b', paths: ['b'], canonical: false, depends_on: ['a', 'ghost'] },
    ] };
    const codes = buildTimelineIndex(w).problems().map((p) => p.code).filter((c) => c.startsWith('layer-')).sort();
    expect(codes).toEqual(['layer-cycle', 'layer-cycle', 'layer-unknown-dependency']);
  });
});
