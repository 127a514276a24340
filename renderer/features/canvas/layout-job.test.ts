import { describe, expect, it } from 'vitest';
import { FA2_FROM, layoutEngine, quickPlace } from './layout.js';
import { layoutRequest, runLayoutJob } from './layout-job.js';
import { prng as rng } from '../../../shared/prng.js';

/** `parts` disconnected random clusters of `size` nodes (a spanning path plus random chords), at the quick spiral like a first load */
function clusters(parts: number, size: number, seed = 1) {
  const r = rng(seed);
  const nodes = Array.from({ length: parts * size }, (_, k) => ({ id: `n${k}`, ...quickPlace(k), size: 20 }));
  const edges: Array<{ source: string; target: string }> = [];
  for (let c = 0; c < parts; c++) {
    const base = c * size;
    for (let i = 1; i < size; i++) edges.push({ source: `n${base + i}`, target: `n${base + Math.floor(r() * i)}` });
    for (let i = 0; i < size; i++) edges.push({ source: `n${base + Math.floor(r() * size)}`, target: `n${base + Math.floor(r() * size)}` });
  }
  return { nodes, edges };
}

const pt = (p: Float32Array, i: number) => ({ x: p[2 * i]!, y: p[2 * i + 1]! });

describe('the ForceAtlas2 layout job (big graphs)', () => {
  it('is the engine from FA2_FROM nodes on, fcose below', () => {
    expect(layoutEngine(FA2_FROM - 1)).toBe('fcose');
    expect(layoutEngine(FA2_FROM)).toBe('fa2');
    expect(layoutEngine(10000)).toBe('fa2');
  });

  it('places every node at finite coordinates, the same ones for the same request, pins exactly where they were', () => {
    const { nodes, edges } = clusters(3, 60);
    const pins = { n5: { x: 300, y: -200 } };
    const a = runLayoutJob(layoutRequest(1, nodes, edges, pins), 'main', {}, 'fa2');
    const b = runLayoutJob(layoutRequest(2, nodes, edges, pins), 'main', {}, 'fa2');
    expect(a.engine).toBe('fa2');
    expect(a.error).toBeUndefined();
    expect(a.positions.length).toBe(2 * nodes.length);
    expect([...a.positions].every(Number.isFinite)).toBe(true);
    expect([...a.positions]).toEqual([...b.positions]);
    expect(pt(a.positions, 5)).toEqual({ x: 300, y: -200 });
    // it moved the nodes off the start spiral
    const start = layoutRequest(1, nodes, edges, pins).start;
    expect([...a.positions].some((v, i) => Math.abs(v - start[i]!) > 1)).toBe(true);
  });

  it('draws neighbours close, keeps nodes apart, and separates disconnected parts', () => {
    const size = 80, parts = 2;
    const { nodes, edges } = clusters(parts, size, 7);
    const r = runLayoutJob(layoutRequest(1, nodes, edges, {}), 'main', {}, 'fa2');
    const p = (i: number) => pt(r.positions, i);
    const d = (i: number, j: number) => Math.hypot(p(i).x - p(j).x, p(i).y - p(j).y);
    const idx = (id: string) => Number(id.slice(1));
    const meanEdge = edges.reduce((s, e) => s + d(idx(e.source), idx(e.target)), 0) / edges.length;
    let pairs = 0, sum = 0;
    for (let i = 0; i < nodes.length; i += 3) for (let j = i + 1; j < nodes.length; j += 5) { sum += d(i, j); pairs++; }
    expect(meanEdge).toBeLessThan(0.5 * (sum / pairs));
    // no pile-up: almost every node has its nearest neighbour at least a small node's width away
    let close = 0;
    for (let i = 0; i < nodes.length; i++) {
      let nn = Infinity;
      for (let j = 0; j < nodes.length; j++) if (j !== i) nn = Math.min(nn, d(i, j));
      if (nn < 8) close++;
    }
    expect(close / nodes.length).toBeLessThan(0.05);
    // each part's nodes lie nearer their own part's centre than the other's
    const centre = (c: number) => {
      let x = 0, y = 0;
      for (let i = c * size; i < (c + 1) * size; i++) { x += p(i).x; y += p(i).y; }
      return { x: x / size, y: y / size };
    };
    const cs = [centre(0), centre(1)];
    let wrong = 0;
    for (let i = 0; i < nodes.length; i++) {
      const own = Math.floor(i / size), q = p(i);
      if (Math.hypot(q.x - cs[own]!.x, q.y - cs[own]!.y) > Math.hypot(q.x - cs[1 - own]!.x, q.y - cs[1 - own]!.y)) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it('lays out a graph past FA2_FROM with ForceAtlas2 by default', () => {
    const { nodes, edges } = clusters(1, FA2_FROM + 10, 3);
    const r = runLayoutJob(layoutRequest(1, nodes, edges, {}), 'main');
    expect(r.engine).toBe('fa2');
    expect([...r.positions].every(Number.isFinite)).toBe(true);
  });
});
