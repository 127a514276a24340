import cytoscape, { type ElementDefinition } from 'cytoscape';
import { describe, expect, it } from 'vitest';
import { styleFresh } from './fresh-style.js';
import { CANVAS_STYLE } from './style.js';

/** nodes and edges of every kind the stylesheet tells apart: big and small, statuses, pins, parallel edges, a loop */
function elements(): { nodes: ElementDefinition[]; edges: ElementDefinition[] } {
  const kinds = ['big', 'big status-dead', 'big pinned', 'status-destroyed lbl-on lbl-above', 'selected', 'placeholder status-not-yet-created', 'big lbl-off', 'near status-created', ''];
  const nodes: ElementDefinition[] = Array.from({ length: 90 }, (_, i) => ({
    group: 'nodes', classes: kinds[i % kinds.length],
    data: { id: `n${i}`, label: `Name ${i}`, struck: `N\u0336${i}`, color: ['#3b6ea5', '#8e3b46'][i % 2], shape: ['ellipse', 'round-rectangle', 'diamond'][i % 3], size: 16 + (i % 5) * 6, iconUrl: '' },
    position: { x: (i % 10) * 50, y: Math.floor(i / 10) * 50 },
  }));
  const ekinds = ['big', 'symmetric', 'link', 'status-removed', 'status-added', 'big touching', ''];
  const edges: ElementDefinition[] = [];
  for (let k = 0; k < 160; k++) {
    const s = (k * 7) % 90, t = (k * 13 + 5) % 90;
    edges.push({ group: 'edges', classes: ekinds[k % ekinds.length], data: { id: `e${k}`, source: `n${s}`, target: `n${t}`, label: `rel ${k}` } });
    // parallel edges and loops
    if (k % 10 === 0) edges.push({ group: 'edges', classes: ekinds[(k + 1) % ekinds.length], data: { id: `p${k}`, source: `n${s}`, target: `n${t}`, label: 'again' } });
    if (k % 40 === 0) edges.push({ group: 'edges', classes: '', data: { id: `l${k}`, source: `n${s}`, target: `n${s}`, label: 'self' } });
  }
  return { nodes, edges };
}

const make = () => cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE });
const names = (cy: cytoscape.Core) => (cy.style() as unknown as { properties: Array<{ name: string }> }).properties.map((p) => p.name);

/** every property's value and the bounding box of every element */
function snapshot(cy: cytoscape.Core): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = names(cy);
  cy.elements().forEach((el) => {
    const st: Record<string, unknown> = {};
    for (const p of props) st[p] = (el as unknown as { pstyle(p: string): { strValue?: unknown } | undefined }).pstyle(p)?.strValue;
    out[el.id()] = { st, bb: el.boundingBox({}) };
  });
  return out;
}

describe('styleFresh', () => {
  it('gives fresh nodes, then fresh edges, the very style and bounds Cytoscape gives them itself', () => {
    const { nodes, edges } = elements();
    const plain = make(), fast = make();
    let bounds = 0, plainBounds = 0;
    fast.on('bounds', () => { bounds++; });
    plain.on('bounds', () => { plainBounds++; });
    plain.add(nodes);
    (plain.nodes() as unknown as { cleanStyle(): void }).cleanStyle();
    const fn = fast.add(nodes);
    expect(styleFresh(fast, fn)).toBe(true);
    // the add's own event and one more per node, not one per property that sets the node's size
    expect(bounds).toBe(2 * nodes.length);
    expect(plainBounds).toBeGreaterThan(5 * nodes.length);
    // the nodes' boxes read before the edges come (as the canvas's fit does)
    expect(snapshot(fast)).toEqual(snapshot(plain));
    plain.add(edges);
    const fe = fast.add(edges);
    expect(styleFresh(fast, fe)).toBe(true);
    expect(snapshot(fast)).toEqual(snapshot(plain));
    // the triggers are Cytoscape's own again afterwards: a later change still dirties a node's box
    expect(Object.prototype.hasOwnProperty.call(fast.style(), 'checkTriggers')).toBe(false);
    for (const cy of [plain, fast]) cy.getElementById('n3').addClass('selected').data('size', 70);
    expect(snapshot(fast)).toEqual(snapshot(plain));
    plain.destroy(); fast.destroy();
  });

  it('a whole first graph at once (nodes and edges in one batch) comes out the same too', () => {
    const { nodes, edges } = elements();
    const plain = make(), fast = make();
    plain.add([...nodes, ...edges]);
    let fresh!: cytoscape.CollectionReturnValue;
    fast.batch(() => { fresh = fast.add([...nodes, ...edges]); });
    expect(styleFresh(fast, fresh)).toBe(true);
    expect(snapshot(fast)).toEqual(snapshot(plain));
    plain.destroy(); fast.destroy();
  });

  it('refuses when the canvas holds older elements of the same kind (their boxes may depend on the fresh ones), or inside a batch', () => {
    const { nodes, edges } = elements();
    const cy = make();
    cy.add(nodes.slice(0, 10));
    expect(styleFresh(cy, cy.add(nodes.slice(10)))).toBe(false);
    const e1 = cy.add(edges.slice(0, 5));
    expect(styleFresh(cy, e1)).toBe(true);
    expect(styleFresh(cy, cy.add(edges.slice(5)))).toBe(false);
    const other = make();
    let ok: boolean | undefined;
    other.batch(() => { ok = styleFresh(other, other.add(nodes)); });
    expect(ok).toBe(false);
    // elements left out by `other` (edgehandles' own) do not count
    const eh = make();
    eh.add({ group: 'nodes', data: { id: 'h' }, classes: 'eh-handle' });
    expect(styleFresh(eh, eh.add(nodes))).toBe(false);
    const eh2 = make();
    eh2.add({ group: 'nodes', data: { id: 'h' }, classes: 'eh-handle' });
    expect(styleFresh(eh2, eh2.add(nodes), '.eh-handle')).toBe(true);
    for (const c of [cy, other, eh, eh2]) c.destroy();
  });
});
