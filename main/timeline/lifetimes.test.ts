/**
 * Relationships that begin and end (issue 18): `since` / `until` on a
 * relationship written in a note (a session number or an event), and the
 * consequences `starts:` / `ends:`; the state at a session shows only what held
 * then, with provenance.
 */
import { describe, expect, it } from 'vitest';
import { entityId } from '../../shared/names.js';
import { buildTimelineIndex } from './timeline-index.js';
import { eventNote, world } from './testkit.js';

const S = (n: string) => entityId('setting', n);

function ix() {
  const input = world([
    eventNote('war', 'pact.md', 'title: The Iron Pact\ntype: event\nsession: 3\nconsequences:\n  - { entity: Lady Wren, starts: { relationship: MEMBER_OF, to: "[[Iron Guild]]" } }\n  - { entity: Captain Varo, ends: { relationship: MEMBER_OF, to: "[[Red Hand]]" } }'),
  ]);
  input.relationships = [
    ...input.relationships,
    // a wary alliance, from the note, that ends at session 5
    { from: S('Iron Guild'), to: S('Guild of Ash'), type: 'ALLIED_WITH', field: 'allies', source: 'setting/Iron Guild.md', line: 4, properties: { attitude: 'wary', until: 5 } },
    // a membership that starts with an event
    { from: S('Lady Wren'), to: S('Red Hand'), type: 'MEMBER_OF', field: 'faction', source: 'setting/Lady Wren.md', line: 3, properties: { since: '[[The Iron Pact]]' } },
  ];
  return buildTimelineIndex(input);
}

const has = (g: ReturnType<ReturnType<typeof ix>['graphAt']>, from: string, type: string, to: string) =>
  g.relationships.some((r) => r.type === type && ((r.from === S(from) && r.to === S(to)) || (type === 'ALLIED_WITH' && r.from === S(to) && r.to === S(from))));

describe('relationships with since / until', () => {
  it('until: the alliance holds before session 5 and not from it on, with provenance', () => {
    const t = ix();
    expect(has(t.graphAt('war', 4), 'Iron Guild', 'ALLIED_WITH', 'Guild of Ash')).toBe(true);
    const g5 = t.graphAt('war', 5);
    expect(has(g5, 'Iron Guild', 'ALLIED_WITH', 'Guild of Ash')).toBe(false);
    expect(g5.removedRelationships.find((r) => r.type === 'ALLIED_WITH' && r.from === S('Iron Guild'))!.removedBy).toMatchObject({ session: 5, path: 'setting/Iron Guild.md', line: 4 });
  });

  it('since an event: the membership holds from that event on', () => {
    const t = ix();
    expect(has(t.graphAt('war', 2), 'Lady Wren', 'MEMBER_OF', 'Red Hand')).toBe(false);
    const g3 = t.graphAt('war', 3);
    expect(g3.relationships.find((r) => r.from === S('Lady Wren') && r.to === S('Red Hand'))).toMatchObject({ origin: 'base', provenance: { name: 'The Iron Pact', session: 3 } });
    const st = t.stateAt('Lady Wren', 'war', 3)!;
    expect(st.relationships.some((r) => r.type === 'MEMBER_OF' && r.to === S('Red Hand'))).toBe(true);
    expect(t.stateAt('Lady Wren', 'war', 2)!.relationships.some((r) => r.type === 'MEMBER_OF' && r.to === S('Red Hand'))).toBe(false);
  });

  it('starts: / ends: consequences start and end a relationship', () => {
    const t = ix();
    expect(has(t.graphAt('war', 2), 'Lady Wren', 'MEMBER_OF', 'Iron Guild')).toBe(false);
    expect(has(t.graphAt('war', 3), 'Lady Wren', 'MEMBER_OF', 'Iron Guild')).toBe(true);
    expect(has(t.graphAt('war', 2), 'Captain Varo', 'MEMBER_OF', 'Red Hand')).toBe(true);
    expect(has(t.graphAt('war', 3), 'Captain Varo', 'MEMBER_OF', 'Red Hand')).toBe(false);
    expect(t.problems().filter((p) => p.file === 'war/pact.md' && p.severity === 'error')).toEqual([]);
  });
});
