/**
 * Oracle for TimelineIndex.without (the players' timeline, issue 17): the index derived from an index by leaving
 * event notes out (its parsed events and layer scopes reused) answers every question exactly as an index built
 * from scratch over the input without those notes. For every subset of the test world's events (a `since` that
 * names one of them, an event creating an entity that has no note, one that a second event creates too).
 */
import { describe, expect, it } from 'vitest';
import { entityId } from '../../shared/names.js';
import type { TimelineInput } from './compile.js';
import { buildTimelineIndex, type TimelineIndex } from './timeline-index.js';
import { eventNote, world } from './testkit.js';

const S = (n: string) => entityId('setting', n);

function input(): TimelineInput {
  const w = world([
    eventNote('war', 'pact.md', 'title: The Iron Pact\ntype: event\nsession: 3\nconsequences:\n  - { entity: Lady Wren, starts: { relationship: MEMBER_OF, to: "[[Iron Guild]]" } }\n  - { entity: Captain Varo, ends: { relationship: MEMBER_OF, to: "[[Red Hand]]" } }\n  - { entity: Ash Tower, created: true }'),
    eventNote('war', 'tower.md', 'title: The Tower Rises\ntype: event\nsession: 5\nconsequences:\n  - { entity: Ash Tower, created: true }\n  - { entity: Oldmere, property: size, value: city }'),
  ]);
  w.relationships = [
    ...w.relationships,
    { from: S('Iron Guild'), to: S('Guild of Ash'), type: 'ALLIED_WITH', field: 'allies', source: 'setting/Iron Guild.md', line: 4, properties: { until: 5 } },
    { from: S('Lady Wren'), to: S('Red Hand'), type: 'MEMBER_OF', field: 'faction', source: 'setting/Lady Wren.md', line: 3, properties: { since: '[[The Iron Pact]]' } },
    { from: S('Lady Wren'), to: S('Oldmere'), type: 'MEMBER_OF', field: null, source: 'setting/Lady Wren.md', line: 5 },
  ];
  return w;
}

/** every answer of the index, for every layer, session and entity */
function answers(ix: TimelineIndex, names: string[]): unknown {
  const out: Record<string, unknown> = { layers: ix.layers(), problems: ix.problems() };
  for (const layer of ix.layers()) {
    const sessions = ix.sessions(layer).map((s) => s.session);
    const at = [null, 0, ...sessions, 99];
    out[layer] = {
      sessions: ix.sessions(layer), timeline: ix.timeline(layer), chronicle: ix.chronicle(layer),
      graphs: at.map((s) => ix.graphAt(layer, s)),
      frames: at.map((s) => ix.frame(layer, s)),
      diffs: sessions.flatMap((a) => sessions.map((b) => ix.diff(layer, a, b))),
      states: names.flatMap((n) => at.map((s) => ix.stateAt(n, layer, s))),
      resolved: names.map((n) => ix.resolve(n, layer)),
      histories: names.map((n) => ix.relationshipHistory(layer, n)),
      involving: names.map((n) => { try { return ix.timeline(layer, { entity: n }); } catch (e) { return String(e); } }),
    };
  }
  return out;
}

describe('TimelineIndex.without equals an index built without those events', () => {
  it('for every subset of the events', () => {
    const base = input();
    const events = [...base.events];
    const names = [...base.entities].map((e) => e.name).concat(['Ash Tower', 'New Millbrook', 'nobody']);
    let derived = 0, refused = 0;
    for (let mask = 0; mask < 1 << events.length; mask++) {
      const hidden = new Set(events.filter((_, i) => mask & (1 << i)).map((e) => e.id));
      const full = buildTimelineIndex(base);
      // the GM's index has answered questions before (its scopes built), as in the app
      full.graphAt('war', 4);
      const d = full.without(hidden);
      const want = buildTimelineIndex({ ...base, events: events.filter((e) => !hidden.has(e.id)) });
      const wantAnswers = answers(want, names);
      if (!d) {
        refused++;
        // refused only when a virtual entity would be lost: an index built again then creates fewer entities
        expect(want.graphAt('war').entities.length, `mask ${mask}`).toBeLessThan(full.graphAt('war').entities.length);
        continue;
      }
      derived++;
      expect(answers(d, names), `mask ${mask}`).toEqual(wantAnswers);
      // and the source index is untouched by the derivation
      expect(answers(full, names), `mask ${mask}`).toEqual(answers(buildTimelineIndex(base), names));
    }
    expect(derived).toBeGreaterThan(32);
    expect(refused).toBeGreaterThan(0);
  });

  it('when the source index has made its graphs at those sessions already (the states they share taken from them)', () => {
    const base = input();
    const events = [...base.events];
    const names = [...base.entities].map((e) => e.name).concat(['Ash Tower', 'New Millbrook', 'nobody']);
    let derived = 0, shared = 0;
    for (let mask = 0; mask < 1 << events.length; mask++) {
      const hidden = new Set(events.filter((_, i) => mask & (1 << i)).map((e) => e.id));
      const full = buildTimelineIndex(base);
      // the GM's view asked for every session's graph before the players' index is derived (graphAt's `like`)
      const fullAnswers = answers(full, names);
      const d = full.without(hidden);
      if (!d) continue;
      derived++;
      const want = buildTimelineIndex({ ...base, events: events.filter((e) => !hidden.has(e.id)) });
      // the derived index asked at the sessions in another order too (the nearest earlier snapshot, or none)
      for (const layer of d.layers()) for (const s of [3, 99, null, 0]) d.graphAt(layer, s);
      expect(answers(d, names), `mask ${mask}`).toEqual(answers(want, names));
      expect(answers(full, names), `mask ${mask}`).toEqual(fullAnswers);
      for (const layer of d.layers()) for (const s of [3, 5, 99]) {
        const mine = d.graphAt(layer, s).entities, theirs = full.graphAt(layer, s).entities;
        // an entity changed by an event both keep: one state object, made by the source
        shared += mine.filter((e, i) => e === theirs[i] && Object.keys(e.provenance).length > 0).length;
      }
    }
    expect(derived).toBeGreaterThan(32);
    expect(shared).toBeGreaterThan(0);
  });
});
