import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { describe, expect, it } from 'vitest';
import { addEdges, BULK_EDGES_AT } from './bulk-add.js';
import { CANVAS_STYLE } from './style.js';

/** a graph of `n` nodes and `m` edges among them, with parallel edges, opposite ones and self-loops */
function defs(n: number, m: number, seed = 3): { nodes: ElementDefinition[]; edges: ElementDefinition[] } {
  let s = seed;
  const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  const nodes = Array.from({ length: n }, (_, i) => ({ group: 'nodes' as const, data: { id: `n${i}`, label: `N ${i}`, color: '#888', shape: 'ellipse', size: 20 }, position: { x: i * 7, y: (i * 13) % 97 } }));
  const edges: ElementDefinition[] = [];
  for (let i = 0; i < m; i++) {
    const a = Math.floor(rnd() * n), b = i % 17 === 0 ? a : Math.floor(rnd() * n);
    edges.push({ group: 'edges', data: { id: `e${i}`, source: `n${a}`, target: `n${b}`, type: 'knows', label: '' } });
    // a parallel and an opposite edge now and then
    if (i % 11 === 0) edges.push({ group: 'edges', data: { id: `p${i}`, source: `n${a}`, target: `n${b}`, type: 'rival', label: '' } });
    if (i % 13 === 0) edges.push({ group: 'edges', data: { id: `o${i}`, source: `n${b}`, target: `n${a}`, type: 'knows', label: '' } });
  }
  return { nodes, edges };
}

const make = (): Core => cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE });

/** everything about an element that the add could have got wrong */
function state(cy: Core): unknown[] {
  return cy.elements().map((e) => [e.id(), e.isEdge() ? [e.source().id(), e.target().id(), e.parallelEdges().map((p) => p.id()).sort()] : e.connectedEdges().map((x) => x.id()).sort(),
    e.style('line-color'), e.style('width')]);
}

/** traversal caches primed by cached calls with an argument (the only ones Cytoscape caches) */
function prime(cy: Core): void {
  cy.nodes().forEach((n) => { n.connectedEdges('edge'); n.neighborhood('node'); });
  cy.edges().forEach((e) => { e.source('node'); e.target('node'); });
}
const cacheOf = (cy: Core, id: string) => (cy.getElementById(id) as unknown as { _private: { traversalCache: unknown } })._private.traversalCache;

describe('addEdges (bulk edge add)', () => {
  it('gives the same elements, ends, parallel edges and styles as cy.add', () => {
    const { nodes, edges } = defs(400, 1500);
    const a = make(), b = make();
    a.add(nodes); b.add(nodes);
    // some edges there before, their caches primed
    a.add(edges.slice(0, 300)); b.add(edges.slice(0, 300));
    prime(a); prime(b);
    const addedA = a.add(edges.slice(300));
    const addedB = addEdges(b, edges.slice(300));
    expect(addedB.map((e) => e.id())).toEqual(addedA.map((e) => e.id()));
    expect(state(b)).toEqual(state(a));
    // every cache cy.add cleared is cleared (a stale one would answer a traversal with the graph before the add)
    for (const e of a.elements()) if (cacheOf(a, e.id()) === null) expect(cacheOf(b, e.id()), e.id()).toBeNull();
    // a cached traversal after the add sees the new edges
    const n = addedA[0]!.source();
    expect(b.getElementById(n.id()).connectedEdges('edge').map((e) => e.id()).sort()).toEqual(n.connectedEdges('edge').map((e) => e.id()).sort());
    a.destroy(); b.destroy();
  });

  it('skips the per-edge parallel-edge traversal (the plain add makes one per edge)', () => {
    const { nodes, edges } = defs(300, 1000);
    const count = (fn: (cy: Core) => void) => {
      const cy = make();
      cy.add(nodes);
      const proto = Object.getPrototypeOf(cy.collection()) as { parallelEdges(...a: unknown[]): unknown };
      const orig = proto.parallelEdges;
      let calls = 0;
      proto.parallelEdges = function (this: unknown, ...a: unknown[]) { calls++; return orig.apply(this, a); };
      try { fn(cy); } finally { proto.parallelEdges = orig; }
      cy.destroy();
      return calls;
    };
    expect(count((cy) => cy.add(edges))).toBeGreaterThanOrEqual(edges.length);
    expect(count((cy) => addEdges(cy, edges))).toBeLessThan(edges.length / 10);
    // and the prototype is left as it was
    const cy = make();
    const before = (Object.getPrototypeOf(cy.collection()) as { parallelEdges: unknown }).parallelEdges;
    cy.add(nodes); addEdges(cy, edges);
    expect((Object.getPrototypeOf(cy.collection()) as { parallelEdges: unknown }).parallelEdges).toBe(before);
    cy.destroy();
  });

  it('a small add is the plain one; a bad edge is refused as cy.add refuses it, and the prototype restored', () => {
    const { nodes, edges } = defs(50, BULK_EDGES_AT + 20);
    const a = make(), b = make();
    a.add(nodes); b.add(nodes);
    const bad = [...edges, { group: 'edges' as const, data: { id: 'bad', source: 'n1', target: 'missing' } }];
    const before = (Object.getPrototypeOf(b.collection()) as { parallelEdges: unknown }).parallelEdges;
    expect(() => a.add(bad)).toThrow(/nonexistent target `missing`/);
    expect(() => addEdges(b, bad)).toThrow(/nonexistent target `missing`/);
    expect((Object.getPrototypeOf(b.collection()) as { parallelEdges: unknown }).parallelEdges).toBe(before);
    expect(state(b)).toEqual(state(a));
    const c = make(), d = make();
    c.add(nodes); d.add(nodes);
    c.add(edges.slice(0, 10)); addEdges(d, edges.slice(0, 10));
    expect(state(d)).toEqual(state(c));
    for (const cy of [a, b, c, d]) cy.destroy();
  });
});
