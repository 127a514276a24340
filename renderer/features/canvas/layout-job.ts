/**
 * One force layout as a self-contained job: the graph as plain arrays in, the
 * positions as a Float32Array out. layout.worker.ts runs it off the main
 * thread (ForceAtlas2 on typed arrays for big graphs, layout-fa2.ts; a headless
 * Cytoscape + fcose for the others: layout.ts layoutEngine); layout-client.ts
 * posts the jobs and falls back to running one here when no worker can be
 * started. Pure of the DOM (tested under node).
 */
import cytoscape from 'cytoscape';
import fcose from 'cytoscape-fcose';
import type { Positions } from '../../../shared/contract-canvas.js';
import { runFa2 } from './layout-fa2.js';
import { layoutEngine, layoutOptions, type LayoutEngine } from './layout.js';

let registered = false;

export interface LayoutRequest {
  /** a newer request supersedes every older one */
  id: number;
  /** node ids, index = position in the typed arrays below */
  ids: string[];
  /** node diameters (model units) */
  sizes: Float32Array;
  /** edges as node index pairs: [s0, t0, s1, t1, ...] */
  edges: Uint32Array;
  /** current positions [x0, y0, x1, y1, ...] (the quick placement or where the nodes are) */
  start: Float32Array;
  /** user pins: fixed constraints of the layout */
  pins: Positions;
}

export interface LayoutResult {
  id: number;
  /** laid-out positions, same order as the request's ids */
  positions: Float32Array;
  /** time spent laying out (ms), and where it ran */
  ms: number;
  where: 'worker' | 'main';
  /** the engine that laid it out */
  engine?: LayoutEngine;
  /** the layout failed: positions are the start ones */
  error?: string;
  /** (worker) when the request reached the worker, as an epoch time in ms (performance.timeOrigin + now) */
  receivedAtEpoch?: number;
}

/** Build a request from nodes and edges (the controller's live graph, or a test's). */
export function layoutRequest(id: number, nodes: Array<{ id: string; x: number; y: number; size: number }>,
  edges: Array<{ source: string; target: string }>, pins: Positions): LayoutRequest {
  const index = new Map<string, number>();
  const n = nodes.length;
  const sizes = new Float32Array(n), start = new Float32Array(2 * n);
  nodes.forEach((v, i) => { index.set(v.id, i); sizes[i] = v.size; start[2 * i] = v.x; start[2 * i + 1] = v.y; });
  const pairs: number[] = [];
  for (const e of edges) {
    const s = index.get(e.source), t = index.get(e.target);
    if (s !== undefined && t !== undefined) pairs.push(s, t);
  }
  return { id, ids: nodes.map((v) => v.id), sizes, edges: Uint32Array.from(pairs), start, pins };
}

/**
 * Run the layout of `req` (synchronous: neither engine yields). `engine`
 * overrides the choice by size (tests); `override` patches fcose's options.
 */
export function runLayoutJob(req: LayoutRequest, where: 'worker' | 'main', override: Record<string, unknown> = {},
  engine: LayoutEngine = layoutEngine(req.ids.length)): LayoutResult {
  if (engine === 'fa2') return runFa2(req, where);
  const t0 = performance.now();
  if (!registered) { cytoscape.use(fcose); registered = true; }
  const { ids, sizes, edges, start } = req;
  const n = ids.length;
  const els: cytoscape.ElementDefinition[] = new Array(n + edges.length / 2);
  for (let i = 0; i < n; i++) {
    els[i] = { group: 'nodes', data: { id: ids[i]!, size: sizes[i] }, position: { x: start[2 * i]!, y: start[2 * i + 1]! } };
  }
  for (let k = 0; k < edges.length; k += 2) {
    els[n + k / 2] = { group: 'edges', data: { id: `e${k / 2}`, source: ids[edges[k]!]!, target: ids[edges[k + 1]!]! } };
  }
  const cy = cytoscape({
    headless: true, styleEnabled: true, elements: els,
    // node bodies only: fcose reads their dimensions; nothing is drawn
    style: [{ selector: 'node', style: { width: 'data(size)', height: 'data(size)' } }],
  });
  const present = new Set(ids);
  const opts = { ...layoutOptions(n, req.pins, (id) => present.has(id)), ...override };
  let error: string | undefined;
  const run = (o: Record<string, unknown>) => { cy.layout(o as never).run(); };
  try {
    run(opts);
  } catch (e) {
    // fcose can refuse a constraint set (e.g. contradictory pins): lay out without them rather than not at all
    const { fixedNodeConstraint: _drop, ...rest } = opts;
    try { run(rest); } catch (e2) { error = String((e2 as Error)?.message ?? e2 ?? e); }
  }
  const positions = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const p = cy.getElementById(ids[i]!).position();
    positions[2 * i] = p.x; positions[2 * i + 1] = p.y;
  }
  // fcose's constraints are approximate: pins exactly where the user left them
  for (let i = 0; i < n; i++) {
    const pin = req.pins[ids[i]!];
    if (pin) { positions[2 * i] = pin.x; positions[2 * i + 1] = pin.y; }
  }
  cy.destroy();
  return { id: req.id, positions, ms: performance.now() - t0, where, engine: 'fcose', ...(error ? { error } : {}) };
}
