/**
 * Layout policy, run in a worker (layout-client.ts, layout-job.ts). Up to
 * FA2_FROM nodes fcose (never `cose`: 518 s at 5k nodes here) with settings
 * tuned by size; past that ForceAtlas2 (graphology-layout-forceatlas2,
 * Barnes–Hut on typed arrays): fcose's spectral draft alone took ~9 s of its
 * ~12 s at 6k nodes, most of it in its connectComponents (Cytoscape
 * collections), and gave a worse picture there (docs/performance.md,
 * 2026-11-25 layout19). User-pinned nodes are fixed (fcose constraints, FA2
 * `fixed`) so a re-layout never moves them. A few new nodes are placed
 * beside a neighbour without moving anything else.
 */
import type { Core as Cy, NodeSingular } from 'cytoscape';
import type { Positions } from '../../../shared/contract-canvas.js';

/** From this many nodes on the full layout is ForceAtlas2's, below it fcose's. */
export const FA2_FROM = 1500;

export type LayoutEngine = 'fcose' | 'fa2';

/** The engine for a graph of `n` nodes. */
export function layoutEngine(n: number): LayoutEngine {
  return n >= FA2_FROM ? 'fa2' : 'fcose';
}

/**
 * ForceAtlas2's run, chosen by node count (pure, tested). Measured on the
 * bench's 6k- and 12k-node graphs: from componentStart's discs (spots `startUnit` apart),
 * slowDown 1 and 30 iterations reach the edge-length/neighbour-distance ratio
 * of 100 iterations at the inferred slowDown (~10); theta 1 (coarser
 * Barnes–Hut) cut a quarter of the time for the same picture.
 * `outScale` turns FA2's units (median nearest neighbour ~18) into model units
 * (~45: node bodies 16–40 apart, labels below them).
 */
export function fa2Options(n: number): {
  iterations: number; startUnit: number; outScale: number;
  settings: { barnesHutOptimize: boolean; barnesHutTheta: number; strongGravityMode: boolean; gravity: number; scalingRatio: number; slowDown: number };
} {
  return {
    iterations: n > 8000 ? 40 : 30,
    startUnit: 4,
    outScale: 2.5,
    settings: { barnesHutOptimize: true, barnesHutTheta: 1, strongGravityMode: true, gravity: 0.05, scalingRatio: 10, slowDown: 1 },
  };
}

/**
 * A start for ForceAtlas2 that already keeps connected components apart
 * (pure, deterministic): each component is a sunflower disc of its nodes,
 * the discs in turn on a sunflower around the origin, biggest first, each
 * given the room its node count needs. From an interleaved start (the quick
 * spiral) 30 iterations left two 80-node components mixed; from this one
 * they come out separate. `unit`: the spacing of neighbouring spots.
 */
export function componentStart(n: number, edges: Uint32Array, unit: number): Float32Array {
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) { parent[x] = parent[parent[x]!]!; x = parent[x]!; }
    return x;
  };
  for (let k = 0; k + 1 < edges.length; k += 2) {
    const a = find(edges[k]!), b = find(edges[k + 1]!);
    if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
  }
  const members = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = find(i);
    let m = members.get(r);
    if (!m) members.set(r, m = []);
    m.push(i);
  }
  // biggest first; equal sizes by their first node (deterministic)
  const comps = [...members.values()].sort((a, b) => b.length - a.length || a[0]! - b[0]!);
  const out = new Float32Array(2 * n);
  let used = 0;
  comps.forEach((m, c) => {
    // the disc's centre: as far out as the nodes placed before it take, plus its own radius
    const rc = unit * (Math.sqrt(used) + (c === 0 ? 0 : Math.sqrt(m.length))), ac = c * 2.399963;
    const cx = rc * Math.cos(ac), cy = rc * Math.sin(ac);
    m.forEach((i, k) => {
      const r = unit * Math.sqrt(k + 0.5), a = k * 2.399963;
      out[2 * i] = cx + r * Math.cos(a); out[2 * i + 1] = cy + r * Math.sin(a);
    });
    used += m.length * 4;
  });
  return out;
}

/** fcose's options chosen by node count (pure, tested). */
export function layoutOptions(n: number, pins: Positions, present: (id: string) => boolean): Record<string, unknown> {
  const big = n > 1500;
  const fixed = Object.entries(pins).filter(([id]) => present(id)).map(([nodeId, position]) => ({ nodeId, position }));
  return {
    name: 'fcose',
    quality: n > 600 ? 'draft' : 'default',
    randomize: true,
    animate: false,
    // the controller fits on node bodies afterwards; fcose's own fit measures every edge and label (2.4 s at 5k nodes)
    fit: false,
    // the spectral step dominates draft mode; fewer force iterations past 1.5k nodes
    numIter: big ? 600 : 2500,
    samplingType: true,
    sampleSize: big ? 15 : 25,
    nodeRepulsion: 20000,
    idealEdgeLength: 90,
    nodeSeparation: 90,
    // true shifts every node by half its label height after layoutstop (pins would drift): off
    nodeDimensionsIncludeLabels: false,
    packComponents: true,
    tile: true,
    ...(fixed.length ? { fixedNodeConstraint: fixed } : {}),
  };
}

/**
 * The k-th spot of a sunflower spiral around the origin: an instant, even,
 * overlap-free first placement for nodes without a saved position (shown
 * until the layout is done).
 */
export function quickPlace(k: number): { x: number; y: number } {
  const r = 40 * Math.sqrt(k + 0.5), a = k * 2.399963;
  return { x: r * Math.cos(a), y: r * Math.sin(a) };
}

/** Place new nodes: a pin wins; else beside a placed neighbour; else near the centre of the view. */
export function placeNew(cy: Cy, ids: string[], pins: Positions): void {
  const ext = cy.extent();
  const centre = { x: (ext.x1 + ext.x2) / 2, y: (ext.y1 + ext.y2) / 2 };
  const fresh = new Set(ids);
  for (const id of ids) {
    const node = cy.getElementById(id) as NodeSingular;
    const pin = pins[id];
    if (pin) { node.position(pin); continue; }
    const near = node.neighborhood().nodes().filter((m) => !fresh.has(m.id()))[0];
    const base = near ? near.position() : centre;
    node.position({ x: base.x + 60 * (Math.random() - 0.5), y: base.y + 60 * (Math.random() - 0.5) });
  }
}
