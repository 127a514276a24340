import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import { describe, expect, it } from 'vitest';
import { prng as rng } from '../../../shared/prng.js';
import { fa2Matrices, runFa2 } from './layout-fa2.js';
import { layoutRequest, type LayoutRequest } from './layout-job.js';
import { componentStart, fa2Options, quickPlace } from './layout.js';

/**
 * The reference: graphology-layout-forceatlas2 on a graphology graph, exactly as layout-job.ts ran it before
 * layout-fa2.ts (same start, pins fixed in FA2's units, self-loops left out, parallel edges kept).
 */
function reference(req: LayoutRequest): Float32Array {
  const { ids, edges, pins } = req;
  const n = ids.length;
  const o = fa2Options(n);
  const g = new Graph({ type: 'undirected', multi: true, allowSelfLoops: false });
  const from = componentStart(n, edges, o.startUnit);
  for (let i = 0; i < n; i++) {
    const pin = pins[ids[i]!];
    g.addNode(i, pin ? { x: pin.x / o.outScale, y: pin.y / o.outScale, fixed: true } : { x: from[2 * i]!, y: from[2 * i + 1]! });
  }
  for (let k = 0; k < edges.length; k += 2) if (edges[k] !== edges[k + 1]) g.addEdge(edges[k]!, edges[k + 1]!);
  const at = forceAtlas2(g, { iterations: o.iterations, settings: o.settings, getEdgeWeight: null });
  const out = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const pin = pins[ids[i]!];
    const p = at[String(i)]!;
    out[2 * i] = pin ? pin.x : p.x * o.outScale; out[2 * i + 1] = pin ? pin.y : p.y * o.outScale;
  }
  return out;
}

/** a random graph: clusters, isolated nodes, parallel edges and self-loops, a few pins */
function graph(n: number, seed: number) {
  const r = rng(seed);
  const nodes = Array.from({ length: n }, (_, k) => ({ id: `n${k}`, ...quickPlace(k), size: 20 }));
  const edges: Array<{ source: string; target: string }> = [];
  // the last tenth isolated; the rest in clusters of ~50
  const linked = Math.floor(n * 0.9);
  for (let i = 1; i < linked; i++) {
    const base = i - (i % 50);
    if (i > base) edges.push({ source: `n${i}`, target: `n${base + Math.floor(r() * (i - base))}` });
    if (r() < 0.6) edges.push({ source: `n${i}`, target: `n${Math.floor(r() * linked)}` });
  }
  edges.push({ source: 'n3', target: 'n3' }, { source: 'n7', target: 'n8' }, { source: 'n8', target: 'n7' }, { source: 'n7', target: 'n8' });
  const pins = { n5: { x: 300, y: -200 }, [`n${n - 1}`]: { x: -80, y: 40 } };
  return layoutRequest(1, nodes, edges, pins);
}

describe('ForceAtlas2 on typed arrays (layout-fa2.ts)', () => {
  it('gives graphology-layout-forceatlas2\'s positions bit for bit: small, big (Barnes–Hut, 30 iterations) and past 8k (40)', () => {
    for (const [n, seed] of [[1600, 1], [3000, 2], [8100, 3]] as const) {
      const req = graph(n, seed);
      const ours = runFa2(req, 'main');
      expect(ours.error).toBeUndefined();
      const ref = reference(req);
      // the start is not the answer (the oracle would pass for a no-op otherwise)
      expect([...ours.positions]).not.toEqual([...componentStart(n, req.edges, fa2Options(n).startUnit)].map((v) => v * fa2Options(n).outScale));
      expect([...ours.positions]).toEqual([...ref]);
      expect(ours.positions[2 * 5]).toBe(300);
    }
  });

  it('builds the library\'s matrices: mass 1 + degree, self-loops out, parallel edges in, fixed flags, node offsets', () => {
    const xy = Float32Array.from([0, 0, 1, 1, 2, 2]);
    const m = fa2Matrices(3, xy, Uint8Array.from([0, 1, 0]), Uint32Array.from([0, 1, 1, 1, 0, 1, 2, 0]));
    expect([...m.edges]).toEqual([0, 10, 1, 0, 10, 1, 20, 0, 1]);
    expect([m.nodes[6], m.nodes[16], m.nodes[26]]).toEqual([4, 3, 2]);
    expect([m.nodes[9], m.nodes[19], m.nodes[29]]).toEqual([0, 1, 0]);
    expect([m.nodes[10], m.nodes[11], m.nodes[18]]).toEqual([1, 1, 1]);
  });
});
