import { describe, expect, it } from 'vitest';
import type { EntitySummary, RelationView } from '../../../shared/types.js';
import { groupRelations } from './relations.js';

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
