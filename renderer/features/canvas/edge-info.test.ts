import { describe, expect, it } from 'vitest';
import type { RelItem } from '../../../shared/contract-edit.js';
import { formValue, hoverText, pickItem } from './edge-info.js';

const item = (holder: string, other: string, rel: string, properties: Record<string, unknown>): RelItem =>
  ({ holder: { id: `s/${holder}`, name: holder }, rel, other: { id: `s/${other}`, name: other }, field: 'allies', path: `${holder}.md`, properties });

describe('the edge panel\'s item', () => {
  it('picks the item that carries properties when both ends write the relationship', () => {
    const edge = { source: 's/bureau', type: 'ALLIED_WITH', target: 's/guild' };
    const info = pickItem(edge, [item('bureau', 'guild', 'ALLIED_WITH', {}), item('guild', 'bureau', 'ALLIED_WITH', { until: '[[Oldmere Rises]]', attitude: 'wary' })])!;
    expect(info.holder.id).toBe('s/guild');
    expect(hoverText(info, { name: 'ALLIED_WITH', properties: [{ name: 'attitude', type: 'enum' }] })).toBe('attitude: wary · until: Oldmere Rises');
    // none has properties: the edge's source end; nothing writes it: null
    expect(pickItem(edge, [item('guild', 'bureau', 'ALLIED_WITH', {}), item('bureau', 'guild', 'ALLIED_WITH', {})])!.holder.id).toBe('s/bureau');
    expect(pickItem(edge, [])).toBeNull();
  });

  it('form values: numbers for integer fields and sessions, empty means unset', () => {
    expect(formValue('3', 'integer')).toBe(3);
    expect(formValue('4', undefined)).toBe(4);
    expect(formValue('Oldmere Rises', undefined)).toBe('Oldmere Rises');
    expect(formValue('  ', 'enum')).toBeNull();
    expect(formValue('wary', 'enum')).toBe('wary');
  });
});
