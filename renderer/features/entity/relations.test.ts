import { describe, expect, it } from 'vitest';
import type { EntitySummary, RelationView } from '../../../shared/types.js';
import { groupRelations, panelRelations } from './relations.js';

const other = (name: string): EntitySummary => ({ id: `s/${name}`, name, type: 'npc', layer: 's', path: null, placeholder: false, tags: [] });
const rel = (label: string, direction: RelationView['direction'], name: string, field: string | null): RelationView =>
  ({ type: label, label, direction, other: other(name), field, source: 'a.md' });

describe('groupRelations', () => {
  it('groups by direction and label, one entry per other entity with every reason', () => {
    const groups = groupRelations([
      rel('INVOLVED_IN', 'in', 'Forging', 'participants'),
      rel('LINKS_TO', 'in', 'Forging', null),
      rel('INVOLVED_IN', 'in', 'Forging', null),
      rel('MEMBER_OF', 'out', 'Guild', 'faction'),
      rel('ALLIED_WITH', 'both', 'Hand', 'allies'),
    ]);
    expect(groups.map(([k]) => k)).toEqual(['← INVOLVED_IN', '→ MEMBER_OF', '↔ ALLIED_WITH', '← LINKS_TO']);
    expect(groups[0]![1]).toEqual([{ other: other('Forging'), why: ['field “participants” in a.md', 'link in a.md'] }]);
  });
});

describe('panelRelations', () => {
  it('shows a typed relationship once: no body link repeats it, in either direction', () => {
    const { typed, links, linkCount } = panelRelations([
      rel('MEMBER_OF', 'out', 'Guild', 'faction'),
      rel('LINKS_TO', 'out', 'Guild', null),
      rel('LINKS_TO', 'in', 'Guild', null),
      rel('ALLIED_WITH', 'both', 'Hand', 'allies'),
      rel('LINKS_TO', 'in', 'Hand', null),
      rel('LINKS_TO', 'out', 'Oldmere', null),
      rel('LINKS_TO', 'in', 'Tobin', null),
      rel('LINKS_TO', 'out', 'Tobin', 'notes'),
    ]);
    expect(typed.map(([k, g]) => [k, g.map((e) => e.other.name)])).toEqual([['→ MEMBER_OF', ['Guild']], ['↔ ALLIED_WITH', ['Hand']]]);
    expect(links.map(([k, g]) => [k, g.map((e) => e.other.name)])).toEqual([['← LINKS_TO', ['Tobin']], ['→ LINKS_TO', ['Oldmere', 'Tobin']]]);
    expect(linkCount).toBe(2);
  });

  it('a note with only body links keeps them all, and none typed', () => {
    const { typed, links } = panelRelations([rel('LINKS_TO', 'out', 'A', null), rel('LINKS_TO', 'in', 'B', null)]);
    expect(typed).toEqual([]);
    expect(links.flatMap(([, g]) => g.map((e) => e.other.name)).sort()).toEqual(['A', 'B']);
  });
});
