import { describe, expect, it } from 'vitest';
import type { EntitySummary } from '../../../shared/types.js';
import { groupByType, UNTYPED } from './group.js';

const e = (name: string, type: string | null, layer = 'setting'): EntitySummary =>
  ({ id: `${layer}/${name.toLowerCase()}`, name, type, layer, path: `${name}.md`, placeholder: false, tags: [] });

describe('groupByType', () => {
  it('orders schema types first, then others alphabetically, untyped last; names sorted inside', () => {
    const groups = groupByType(
      [e('zed', 'npc'), e('Aria', 'npc'), e('Note', null), e('Westport', 'settlement'), e('Thing', 'custom'), e('Ball', 'bauble')],
      ['settlement', 'npc'],
    );
    expect(groups.map((g) => g.type)).toEqual(['settlement', 'npc', 'bauble', 'custom', UNTYPED]);
    expect(groups[1]!.items.map((x) => x.name)).toEqual(['Aria', 'zed']);
  });

  it('returns no groups for no entities', () => {
    expect(groupByType([], ['npc'])).toEqual([]);
  });
});
