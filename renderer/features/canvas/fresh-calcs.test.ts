import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { describe, expect, it } from 'vitest';
import { installDirectStyleDirty, installFreshTextureSkip, TEXTURE_CACHES } from './fresh-calcs.js';
import { CANVAS_STYLE } from './style.js';

/** nodes of every class the stylesheet tells apart, and edges among them: parallel, opposite, loops */
function defs(n: number, m: number): { nodes: ElementDefinition[]; edges: ElementDefinition[] } {
  const cls = ['', 'big', 'placeholder', 'pinned', 'big selected', 'status-dead', 'status-destroyed', 'status-not-yet-created', 'focus-root', 'near'];
  const nodes = Array.from({ length: n }, (_, i) => ({ group: 'nodes' as const, classes: cls[i % cls.length]!,
    data: { id: `n${i}`, label: `N ${i}`, struck: `N̶ ${i}`, color: i % 3 ? '#884' : '#448', shape: i % 4 ? 'ellipse' : 'round-rectangle', size: 16 + (i % 5) * 6, iconUrl: '', importance: i % 7 },
    position: { x: (i % 20) * 50, y: Math.floor(i / 20) * 50 } }));
  const edges: ElementDefinition[] = [];
  for (let i = 0; i < m; i++) {
    const a = (i * 7) % n, b = i % 13 === 0 ? a : (i * 11 + 3) % n;
    edges.push({ group: 'edges', classes: ['', 'big', 'symmetric', 'link', 'status-added'][i % 5]!, data: { id: `e${i}`, source: `n${a}`, target: `n${b}`, type: 'knows', label: i % 2 ? 'knows' : '' } });
    if (i % 9 === 0) edges.push({ group: 'edges', data: { id: `p${i}`, source: `n${b}`, target: `n${a}`, type: 'rival', label: '' } });
  }
  return { nodes, edges };
}

const STYLE_KEYS = ['background-color', 'width', 'height', 'shape', 'label', 'border-width', 'border-color', 'opacity', 'text-opacity', 'min-zoomed-font-size',
  'z-index', 'text-valign', 'line-color', 'curve-style', 'target-arrow-shape', 'line-style', 'font-size'];

/** every element's style values and body box (what the triggers could have got wrong) */
function state(cy: Core): unknown[] {
  return cy.elements().map((e) => [e.id(), STYLE_KEYS.map((k) => e.style(k)), e.boundingBox({ includeLabels: true } as never)]);
}

/** one sequence of graph work: fresh nodes styled, edges added, classes and data changed, a node removed and restored */
function run(cy: Core): unknown[][] {
  const { nodes, edges } = defs(120, 260);
  const out: unknown[][] = [];
  cy.add(nodes);
  cy.nodes().boundingBox({} as never);
  out.push(state(cy));
  cy.add(edges);
  out.push(state(cy));
  cy.batch(() => {
    cy.nodes().filter((_n, i) => i % 4 === 0).addClass('status-dead lbl-off');
    cy.edges().filter((_e, i) => i % 5 === 0).addClass('touching');
    cy.nodes().filter((_n, i) => i % 6 === 1).data('size', 44);
  });
  out.push(state(cy));
  const gone = cy.getElementById('n3').remove();
  out.push(state(cy));
  gone.restore();
  cy.nodes().removeClass('status-dead');
  out.push(state(cy));
  return out;
}

describe('installDirectStyleDirty', () => {
  it('gives every element the same style and box as Cytoscape’s own triggers, through adds, changes, a remove and a restore', () => {
    const plain = cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE });
    const fast = cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE });
    expect(installDirectStyleDirty(fast)).toBe(true);
    expect(run(fast)).toEqual(run(plain));
  });

  it('clears the style cache of a node’s connected edges when one of its properties changes', () => {
    const cy = cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE });
    installDirectStyleDirty(cy);
    const { nodes, edges } = defs(30, 60);
    cy.add([...nodes, ...edges]);
    cy.elements().forEach((e) => { void e.style('width'); });
    const node = cy.getElementById('n7');
    const mine = node.connectedEdges(), others = cy.edges().difference(mine);
    expect(mine.length).toBeGreaterThan(2);
    const mark = { kept: true };
    cy.edges().forEach((e) => { (e as unknown as { _private: { styleCache: unknown } })._private.styleCache = mark; });
    node.addClass('status-destroyed');
    void node.style('opacity');
    const cache = (e: unknown) => (e as { _private: { styleCache: unknown } })._private.styleCache;
    mine.forEach((e) => { expect(cache(e)).toBeNull(); });
    expect(others.filter((e) => cache(e) === mark).length).toBe(others.length);
  });

  it('makes no connectedEdges() collection while styling fresh nodes (Cytoscape’s own makes one per property)', () => {
    const count = (patch: boolean) => {
      const cy = cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE });
      if (patch) installDirectStyleDirty(cy);
      cy.add(defs(50, 0).nodes);
      const proto = Object.getPrototypeOf(cy.nodes()) as { connectedEdges: (...a: unknown[]) => unknown };
      const orig = proto.connectedEdges;
      let calls = 0;
      proto.connectedEdges = function (this: unknown, ...a: unknown[]) { calls++; return orig.apply(this, a); };
      try { cy.nodes().forEach((n) => { void n.style('width'); }); } finally { proto.connectedEdges = orig; }
      return calls;
    };
    expect(count(false)).toBeGreaterThan(50 * 5);
    expect(count(true)).toBe(0);
  });

  it('leaves a style without the hooks alone, and defers to Cytoscape with compound nodes', () => {
    expect(installDirectStyleDirty({ style: () => ({}), hasCompoundNodes: () => false })).toBe(false);
    expect(installDirectStyleDirty(null)).toBe(false);
    const plain = cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE });
    const fast = cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE });
    installDirectStyleDirty(fast);
    for (const cy of [plain, fast]) {
      cy.add([{ data: { id: 'p', label: 'P', color: '#888', shape: 'ellipse', size: 20, iconUrl: '' } }, { data: { id: 'c', parent: 'p', label: 'C', color: '#888', shape: 'ellipse', size: 20, iconUrl: '' }, position: { x: 10, y: 10 } }]);
      cy.getElementById('c').addClass('pinned');
    }
    expect(state(fast)).toEqual(state(plain));
  });
});

/** a stand-in for Cytoscape's element-texture cache, built the way its ElementTextureCache keeps keys and levels */
function fakeCache(keyOf: (id: string) => string) {
  const calls: string[] = [];
  const lookup = { keyForId: new Map<string, unknown>(), isInvalid: (e: { id(): string }) => lookup.keyForId.get(e.id()) !== keyOf(e.id()) };
  const cache = {
    lookup,
    invalidateElement(e: { id(): string }) { calls.push(`full ${e.id()}`); },
    removeFromQueue(e: { id(): string }) { calls.push(`dequeue ${e.id()}`); },
  };
  return { cache, calls };
}

describe('installFreshTextureSkip', () => {
  it('runs Cytoscape’s own invalidation for an element a cache holds a key for, and only the queue removal otherwise', () => {
    const caches = Object.fromEntries(TEXTURE_CACHES.map((n) => [n, fakeCache((id) => `k-${id}`)]));
    const stats = installFreshTextureSkip({ data: Object.fromEntries(TEXTURE_CACHES.map((n) => [n, caches[n]!.cache])) });
    expect(stats).not.toBeNull();
    const ele = (id: string) => ({ id: () => id, _private: {} });
    const c = caches.eleTxrCache!;
    c.cache.lookup.keyForId.set('a', 'k-old');
    c.cache.lookup.keyForId.set('b', 'k-b');
    c.cache.invalidateElement(ele('a'));
    c.cache.invalidateElement(ele('b'));
    c.cache.invalidateElement(ele('fresh'));
    expect(c.calls).toEqual(['full a', 'full b', 'dequeue fresh']);
    expect(stats!.skipped).toBe(1);
  });

  it('returns null for a renderer without its caches', () => {
    expect(installFreshTextureSkip(undefined)).toBeNull();
    expect(installFreshTextureSkip({ data: {} })).toBeNull();
  });
});
