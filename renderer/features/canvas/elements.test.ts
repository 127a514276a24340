import { describe, expect, it } from 'vitest';
import type { EntitySummary, GraphSnapshot } from '../../../shared/types.js';
import { DEFAULT_COLOR, PLACEHOLDER_COLOR, edgeId, toElements } from './elements.js';

const node = (name: string, type: string | null, placeholder = false): EntitySummary =>
  ({ id: `setting/${name.toLowerCase()}`, name, type, layer: 'setting', path: placeholder ? null : `${name}.md`, placeholder, tags: [] });

const graph: GraphSnapshot = {
  nodes: [node('Mira', 'npc'), node('Guild', 'faction'), node('Ghost', null, true), node('Odd', 'custom')],
  edges: [
    { from: 'setting/mira', to: 'setting/guild', type: 'MEMBER_OF', field: 'faction' },
    { from: 'setting/mira', to: 'setting/guild', type: 'MEMBER_OF', field: 'faction' },
    { from: 'setting/mira', to: 'setting/ghost', type: 'LINKS_TO', field: null },
    { from: 'setting/mira', to: 'setting/nowhere', type: 'KNOWS', field: 'knows' },
  ],
};
const styles = [{ name: 'npc', color: '#3b6ea5', shape: 'ellipse' }, { name: 'faction', color: '#8e3b46', shape: 'diamond' }];

describe('toElements', () => {
  it('makes one node per entity styled by its type, placeholders greyed', () => {
    const { nodes } = toElements(graph, { styles });
    const byId = new Map(nodes.map((n) => [n.data.id, n]));
    expect(byId.get('setting/mira')!.data).toMatchObject({ label: 'Mira', color: '#3b6ea5', shape: 'ellipse', type: 'npc' });
    expect(byId.get('setting/guild')!.data).toMatchObject({ color: '#8e3b46', shape: 'diamond' });
    expect(byId.get('setting/ghost')!.data.color).toBe(PLACEHOLDER_COLOR);
    expect(byId.get('setting/ghost')!.classes).toContain('placeholder');
    expect(byId.get('setting/odd')!.data.color).toBe(DEFAULT_COLOR);
  });

  it('dedupes edges, drops edges to missing nodes, classes body links apart', () => {
    const { edges } = toElements(graph, { styles });
    expect(edges.map((e) => e.data.id)).toEqual([
      edgeId('setting/mira', 'MEMBER_OF', 'setting/guild'),
      edgeId('setting/mira', 'LINKS_TO', 'setting/ghost'),
    ]);
    expect(edges[0]!.classes).toBe('rel');
    expect(edges[1]!.classes).toBe('link');
  });

  it('marks the selection and the edges touching it; bigger nodes for more edges', () => {
    const { nodes, edges } = toElements(graph, { styles, selectedId: 'setting/guild' });
    expect(nodes.find((n) => n.data.id === 'setting/guild')!.classes).toContain('selected');
    expect(edges[0]!.classes).toContain('touching');
    expect(edges[1]!.classes).not.toContain('touching');
    const size = (id: string) => nodes.find((n) => n.data.id === id)!.data.size;
    expect(size('setting/mira')).toBeGreaterThan(size('setting/odd'));
  });

  it('can hide body links and placeholders (with their edges)', () => {
    const { nodes, edges } = toElements(graph, { showLinks: false, showPlaceholders: false });
    expect(nodes.map((n) => n.data.id)).not.toContain('setting/ghost');
    expect(edges.map((e) => e.data.type)).toEqual(['MEMBER_OF']);
  });
});
