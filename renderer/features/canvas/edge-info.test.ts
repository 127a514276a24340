import { describe, expect, it } from 'vitest';
import type { EntityView, RelationView } from '../../../shared/types.js';
import { edgeInfo, formValue, hoverText } from './edge-info.js';

const sum = (id: string, name: string) => ({ id, name, type: 'faction', layer: 'setting', path: `${name}.md`, placeholder: false, tags: [] });
const view = (id: string, name: string, relations: RelationView[]): EntityView =>
  ({ ...sum(id, name), hash: null, aliases: [], properties: {}, body: '', relations } as unknown as EntityView);

describe('edgeInfo', () => {
  const guild = view('s/guild', 'Iron Guild', [{ type: 'ALLIED_WITH', label: 'ALLIED_WITH', direction: 'both', other: sum('s/bureau', 'Bureau'), field: 'allies', source: 'Iron Guild.md', properties: { until: '[[Oldmere Rises]]', attitude: 'wary' } }]);
  const bureau = view('s/bureau', 'Bureau', [{ type: 'ALLIED_WITH', label: 'ALLIED_WITH', direction: 'both', other: sum('s/guild', 'Iron Guild'), field: 'allies', source: 'Iron Guild.md', properties: { until: '[[Oldmere Rises]]', attitude: 'wary' } }]);

  it('finds the note that writes the edge, and its properties with the key property first', () => {
    const info = edgeInfo({ source: 's/guild', target: 's/bureau', type: 'ALLIED_WITH' }, guild, bureau)!;
    expect(info).toMatchObject({ holder: { id: 's/guild' }, rel: 'ALLIED_WITH', other: { id: 's/bureau' }, field: 'allies', path: 'Iron Guild.md' });
    expect(hoverText(info, { name: 'ALLIED_WITH', properties: [{ name: 'attitude', type: 'enum' }] })).toBe('attitude: wary · until: Oldmere Rises');
  });

  it('an edge written on the other end is edited there, under the name that end reads it by', () => {
    const tam = view('s/tam', 'Tam', [{ type: 'MEMBER_OF', label: 'MEMBER_OF', direction: 'out', other: sum('s/guild', 'Iron Guild'), field: 'members', source: 'Iron Guild.md' }]);
    const g = view('s/guild', 'Iron Guild', [{ type: 'MEMBER_OF', label: 'HAS_MEMBER', direction: 'in', other: sum('s/tam', 'Tam'), field: 'members', source: 'Iron Guild.md', properties: { role: 'sweeper' } }]);
    const info = edgeInfo({ source: 's/tam', target: 's/guild', type: 'MEMBER_OF' }, tam, g)!;
    expect(info).toMatchObject({ holder: { id: 's/guild' }, rel: 'HAS_MEMBER', other: { id: 's/tam' }, properties: { role: 'sweeper' } });
    expect(edgeInfo({ source: 's/tam', target: 's/guild', type: 'LINKS_TO' }, tam, g)).toBeNull();
  });

  it('form values: numbers for integer fields and sessions, empty means unset', () => {
    expect(formValue('3', 'integer')).toBe(3);
    expect(formValue('4', undefined)).toBe(4);
    expect(formValue('Oldmere Rises', undefined)).toBe('Oldmere Rises');
    expect(formValue('  ', 'enum')).toBeNull();
    expect(formValue('wary', 'enum')).toBe('wary');
  });
});
