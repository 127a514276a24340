import { describe, expect, it } from 'vitest';
import type { GraphSnapshot } from '../../../shared/types.js';
import { sameGraph } from './graph-same.js';

const graph = (): GraphSnapshot => ({
  nodes: [
    { id: 'world/a', name: 'A', type: 'npc', layer: 'world', path: 'A.md', placeholder: false, tags: ['x', 'y'] },
    { id: 'world/b', name: 'B', type: null, layer: 'world', path: null, placeholder: true, tags: [] },
  ],
  edges: [{ from: 'world/a', to: 'world/b', type: 'KNOWS', field: 'knows' }, { from: 'world/b', to: 'world/a', type: 'LINKS_TO', field: null }],
});

describe('sameGraph', () => {
  it('is true for an equal snapshot built apart (a refresh that changed nothing)', () => {
    expect(sameGraph(graph(), graph())).toBe(true);
  });

  it('is false without a shown graph', () => {
    expect(sameGraph(null, graph())).toBe(false);
  });

  // every field the canvas reads: a change to any must rebuild the elements
  const changes: Array<[string, (g: GraphSnapshot) => void]> = [
    ['a node added', (g) => g.nodes.push({ ...g.nodes[0]!, id: 'world/c' })],
    ['an edge removed', (g) => g.edges.pop()],
    ['a name', (g) => { g.nodes[0]!.name = 'A2'; }],
    ['a type', (g) => { g.nodes[1]!.type = 'npc'; }],
    ['a layer', (g) => { g.nodes[0]!.layer = 'gm'; }],
    ['a path', (g) => { g.nodes[0]!.path = 'B/A.md'; }],
    ['placeholder', (g) => { g.nodes[1]!.placeholder = false; }],
    ['a tag', (g) => { g.nodes[0]!.tags = ['x', 'z']; }],
    ['a tag count', (g) => { g.nodes[0]!.tags = ['x']; }],
    ['an id (same order)', (g) => { g.nodes[1]!.id = 'world/c'; }],
    ['an edge end', (g) => { g.edges[0]!.to = 'world/a'; }],
    ['an edge type', (g) => { g.edges[0]!.type = 'HATES'; }],
    ['an edge field', (g) => { g.edges[1]!.field = 'x'; }],
    ['the node order', (g) => { g.nodes.reverse(); }],
  ];
  for (const [what, change] of changes) {
    it(`is false when ${what} differs`, () => {
      const b = graph();
      change(b);
      expect(sameGraph(graph(), b)).toBe(false);
    });
  }
});
