/**
 * Oracle for graphAt's edge delta (state.ts): the graph and the scrubber frame at every session, reached by
 * stepping from snapshots in any visiting order, equal — order of every array included — the ones computed by
 * replaying from the base with plain maps (entityStateAt for each entity, edgesAt's Map of every edge, the
 * frame from the keys of the edges that hold). Worlds: the generated scrubbing world and the test world with
 * a base edge removed, added back and removed again, `since` / `until` edges, and edges to things not created yet.
 */
import { describe, expect, it } from 'vitest';
import { entityId } from '../../shared/names.js';
import { generateTimelineWorld } from '../../bench/timeline.js';
import { buildScope, compile, type TimelineInput } from './compile.js';
import { edgesAt, entityStateAt, frameOfGraph } from './state.js';
import { buildTimelineIndex } from './timeline-index.js';
import { eventNote, world } from './testkit.js';
import type { GraphState } from './types.js';

const S = (n: string) => entityId('setting', n);

function reference(input: TimelineInput, layer: string, session: number | null): GraphState {
  const c = compile(input);
  const sc = buildScope(c, layer);
  const entities = sc.ids.map((id) => entityStateAt(c, sc, id, session)!);
  const st = new Map(entities.map((e) => [e.id, e]));
  const { edges, removed } = edgesAt(c, sc, session);
  const relationships = [...edges.values()].filter((e) => st.get(e.from)?.lifecycle !== 'not-yet-created' && st.get(e.to)?.lifecycle !== 'not-yet-created');
  return { layer, session, entities, relationships, removedRelationships: [...removed.values()] };
}

function churn(): TimelineInput {
  const input = world([
    eventNote('war', 'a-early.md', 'title: Early\ntype: event\nsession: 1\nconsequences:\n  - { entity: Red Hand, relationship: ALLIED_WITH, add: New Millbrook }\n  - { entity: Iron Guild, relationship: MEMBER_OF, add: Red Hand }'),
    eventNote('war', 'back.md', 'title: Back Again\ntype: event\nsession: 7\nconsequences:\n  - { entity: Guild of Ash, relationship: ALLIED_WITH, add: Red Hand }\n  - { entity: Captain Varo, relationship: MEMBER_OF, remove: Red Hand }'),
    eventNote('war', 'gone.md', 'title: Gone Again\ntype: event\nsession: 8\nconsequences:\n  - { entity: Red Hand, relationship: ALLIED_WITH, remove: Guild of Ash }\n  - { entity: Iron Guild, relationship: MEMBER_OF, remove: Red Hand }\n  - { entity: Captain Varo, relationship: MEMBER_OF, add: Red Hand }'),
    eventNote('war', 'return.md', 'title: Return\ntype: event\nsession: 9\nconsequences:\n  - { entity: Red Hand, relationship: ALLIED_WITH, add: Guild of Ash }\n  - { entity: Iron Guild, relationship: MEMBER_OF, add: Red Hand }'),
  ]);
  input.relationships = [
    ...input.relationships,
    { from: S('Iron Guild'), to: S('Guild of Ash'), type: 'ALLIED_WITH', field: 'allies', source: 'setting/Iron Guild.md', line: 4, properties: { until: 5 } },
    { from: S('Lady Wren'), to: S('Oldmere'), type: 'MEMBER_OF', field: null, source: 'setting/Lady Wren.md', line: 3, properties: { since: 3 } },
    // a base edge to an event note (not there before its session) and one to a thing an event creates
    { from: S('Lady Wren'), to: entityId('war', 'The Council at Oldmere'), type: 'LINKS_TO', field: null, source: 'setting/Lady Wren.md', line: 5 },
    { from: S('Oldmere'), to: entityId('war', 'New Millbrook'), type: 'LINKS_TO', field: null, source: 'setting/Oldmere.md', line: 5 },
  ];
  return input;
}

/** the generated scrubbing world, plus events removing some of its base edges (its own events rarely do) */
function generated(): TimelineInput {
  const input = generateTimelineWorld(300, 60, 20);
  const name = (id: string) => [...input.entities].find((e) => e.id === id)!.name;
  const rels = [...input.relationships].filter((r) => r.type === 'ALLIED_WITH' || r.type === 'MEMBER_OF').slice(0, 12);
  const removals = rels.map((r, i) => eventNote('campaign', `zz-removal-${i}.md`,
    `title: Removal ${i}\ntype: event\nsession: ${1 + (i % 6) * 3}\nconsequences:\n  - { entity: ${name(r.from)}, relationship: ${r.type}, remove: ${name(r.to)} }`));
  return { ...input, events: [...input.events, ...removals], entities: [...input.entities, ...removals.map((e) => ({ ...[...input.entities][0]!, id: entityId('campaign', e.name), name: e.name, type: 'event', layer: 'campaign', path: e.path, properties: {} }))] };
}

const worlds: Array<[string, () => TimelineInput, string]> = [
  ['the generated world', generated, 'campaign'],
  ['edges removed, added back, timed, to things not created yet', churn, 'war'],
];

describe.each(worlds)('graphAt and frame by edge delta, %s', (_name, make, layer) => {
  const input = make();
  const sessions = buildScope(compile(input), layer).sessions;
  const all: Array<number | null> = [...sessions, null, 0];
  const expected = new Map(all.map((s) => [s, reference(input, layer, s)]));
  const sc = buildScope(compile(input), layer);

  it('the world has base edges that do not hold at some session and edges events add', () => {
    const graphs = [...expected.values()];
    expect(graphs.some((g) => frameOfGraph(sc, g).hidden.length > 0)).toBe(true);
    expect(graphs.some((g) => g.relationships.some((r) => r.origin === 'event'))).toBe(true);
  });

  const orders: Array<[string, Array<number | null>]> = [
    ['forward', all],
    ['backward', [...all].reverse()],
    ['jumping', [...all].sort((a, b) => ((a ?? 999) * 7919) % 13 - ((b ?? 999) * 7919) % 13)],
  ];
  it.each(orders)('visited %s: every graph and frame equals the replay from the base', (_o, order) => {
    const ix = buildTimelineIndex(input);
    for (const s of order) {
      const want = expected.get(s)!;
      expect(ix.graphAt(layer, s), `graph at ${s}`).toEqual(want);
      expect(ix.frame(layer, s), `frame at ${s}`).toEqual(frameOfGraph(sc, want));
    }
  });
});
