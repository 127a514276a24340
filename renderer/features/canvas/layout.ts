/**
 * Layout policy. fcose (never `cose`: 518 s at 5k nodes here) with settings
 * tuned by size, run in a worker (layout-client.ts, layout-job.ts); user-pinned
 * nodes are fixed constraints so a re-layout never moves them. A few new
 * nodes are placed beside a neighbour without moving anything else.
 */
import type { Core as Cy, NodeSingular } from 'cytoscape';
import type { Positions } from '../../../shared/contract-canvas.js';

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
