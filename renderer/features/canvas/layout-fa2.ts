/**
 * ForceAtlas2 on typed arrays, without a graphology graph (issue 19 point 2): the layout worker's big-graph
 * path. It runs graphology-layout-forceatlas2's own iteration (`iterate.js`) on the node and edge matrices
 * that the library's `graphToByteArrays` would build from the graph layout-job.ts used to make (nodes 0..n-1 in
 * order, every edge but self-loops in order, weight 1, no sizes), so the positions are the library's, bit for
 * bit (layout-fa2.test.ts compares them), without building the graph, and without graphology, Cytoscape or
 * fcose in the worker's first chunk (layout.worker.ts loads fcose only for a small graph).
 */
import iterate from 'graphology-layout-forceatlas2/iterate.js';
import FA2_DEFAULTS from 'graphology-layout-forceatlas2/defaults.js';
import type { LayoutRequest, LayoutResult } from './layout-job.js';
import { componentStart, fa2Options } from './layout.js';

/** the library's matrix strides: properties per node, per edge */
const PPN = 10, PPE = 3;

/**
 * The library's node and edge matrices for nodes 0..n-1 at `xy` (fixed where `fixed` is 1) and `edges` as index
 * pairs (self-loops skipped, as the undirected graph without loops refused them).
 */
export function fa2Matrices(n: number, xy: Float32Array, fixed: Uint8Array, edges: Uint32Array): { nodes: Float32Array; edges: Float32Array } {
  let m = 0;
  for (let k = 0; k + 1 < edges.length; k += 2) if (edges[k] !== edges[k + 1]) m++;
  const N = new Float32Array(n * PPN), E = new Float32Array(m * PPE);
  for (let i = 0; i < n; i++) {
    const j = i * PPN;
    N[j] = xy[2 * i]!; N[j + 1] = xy[2 * i + 1]!;
    // dx, dy, old dx, old dy 0; mass 1 (+ degree below); convergence 1; size 1; fixed
    N[j + 6] = 1; N[j + 7] = 1; N[j + 8] = 1; N[j + 9] = fixed[i] ? 1 : 0;
  }
  let e = 0;
  for (let k = 0; k + 1 < edges.length; k += 2) {
    const s = edges[k]!, t = edges[k + 1]!;
    if (s === t) continue;
    N[s * PPN + 6]! += 1; N[t * PPN + 6]! += 1;
    E[e] = s * PPN; E[e + 1] = t * PPN; E[e + 2] = 1;
    e += PPE;
  }
  return { nodes: N, edges: E };
}

/**
 * ForceAtlas2 (Barnes–Hut) over the request: deterministic for a given start
 * (FA2 draws no random numbers). Free nodes start at componentStart's discs
 * (the same picture for the same graph, whatever was shown before); pins are
 * fixed at their place in FA2's units and come back exactly where they were.
 * Disconnected parts start apart, repel each other, and gravity keeps them
 * in view.
 */
export function runFa2(req: LayoutRequest, where: 'worker' | 'main'): LayoutResult {
  const t0 = performance.now();
  const { ids, edges, start, pins } = req;
  const n = ids.length;
  const o = fa2Options(n);
  const xy = componentStart(n, edges, o.startUnit);
  const fixed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const pin = pins[ids[i]!];
    if (pin) { xy[2 * i] = pin.x / o.outScale; xy[2 * i + 1] = pin.y / o.outScale; fixed[i] = 1; }
  }
  let error: string | undefined;
  const positions = new Float32Array(2 * n);
  try {
    const settings = { ...FA2_DEFAULTS, ...o.settings };
    const m = fa2Matrices(n, xy, fixed, edges);
    for (let k = 0; k < o.iterations; k++) iterate(settings, m.nodes, m.edges);
    for (let i = 0; i < n; i++) {
      positions[2 * i] = m.nodes[i * PPN]! * o.outScale; positions[2 * i + 1] = m.nodes[i * PPN + 1]! * o.outScale;
    }
  } catch (e) {
    error = String((e as Error)?.message ?? e);
    positions.set(start);
  }
  for (let i = 0; i < n; i++) {
    const pin = pins[ids[i]!];
    if (pin) { positions[2 * i] = pin.x; positions[2 * i + 1] = pin.y; }
    // a diverged run (never seen) must not put a node at NaN: it stays where it started
    else if (!Number.isFinite(positions[2 * i]!) || !Number.isFinite(positions[2 * i + 1]!)) {
      positions[2 * i] = start[2 * i]!; positions[2 * i + 1] = start[2 * i + 1]!;
    }
  }
  return { id: req.id, positions, ms: performance.now() - t0, where, engine: 'fa2', ...(error ? { error } : {}) };
}
