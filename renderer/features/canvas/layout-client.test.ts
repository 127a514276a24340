import { describe, expect, it } from 'vitest';
import { LayoutRunner, type WorkerLike } from './layout-client.js';
import { layoutRequest, runLayoutJob, type LayoutRequest } from './layout-job.js';

/**
 * A stand-in for the browser's Worker (node has none): messages cross by
 * structuredClone with the transfer list, as postMessage does, and the job is
 * layout.worker.ts's own (runLayoutJob), answered on a later task.
 */
class ThreadWorker implements WorkerLike {
  onmessage: WorkerLike['onmessage'] = null;
  onerror: WorkerLike['onerror'] = null;
  terminated = false;
  received = 0;
  constructor(private readonly delayMs = 0, private readonly fail = false) {}
  postMessage(message: unknown, transfer: Transferable[]): void {
    const req = structuredClone(message, { transfer }) as LayoutRequest;
    this.received++;
    setTimeout(() => {
      if (this.terminated) return;
      if (this.fail) { this.onerror?.(new Event('error')); return; }
      const r = runLayoutJob(req, 'worker');
      const back = structuredClone(r, { transfer: [r.positions.buffer] });
      this.onmessage?.({ data: back } as MessageEvent);
    }, this.delayMs);
  }
  terminate(): void { this.terminated = true; }
}

/** a ring of `n` nodes plus a chord, all starting on a line */
function graph(n: number) {
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${i}`, x: i * 5, y: 0, size: 20 }));
  const edges = nodes.map((v, i) => ({ source: v.id, target: nodes[(i + 1) % n]!.id }));
  edges.push({ source: 'n0', target: `n${Math.floor(n / 2)}` });
  return { nodes, edges };
}

describe('layout worker protocol', () => {
  it('a request carries the graph as index pairs; an edge to an unknown node is left out', () => {
    const r = layoutRequest(7, [{ id: 'a', x: 1, y: 2, size: 10 }, { id: 'b', x: 3, y: 4, size: 30 }],
      [{ source: 'a', target: 'b' }, { source: 'b', target: 'gone' }], {});
    expect(r.ids).toEqual(['a', 'b']);
    expect([...r.edges]).toEqual([0, 1]);
    expect([...r.start]).toEqual([1, 2, 3, 4]);
    expect([...r.sizes]).toEqual([10, 30]);
  });

  it('positions come back in the order of the ids, pins exactly where they were left, the others spread out', async () => {
    const w = new ThreadWorker();
    const runner = new LayoutRunner(() => w);
    const { nodes, edges } = graph(30);
    const r = await runner.run(nodes, edges, { n3: { x: 500, y: -400 } });
    expect(r).not.toBeNull();
    expect(r!.where).toBe('worker');
    expect(r!.ids).toEqual(nodes.map((v) => v.id));
    expect(r!.positions).toBeInstanceOf(Float32Array);
    expect(r!.positions.length).toBe(60);
    expect([r!.positions[6], r!.positions[7]]).toEqual([500, -400]);
    const pts = new Set<string>();
    for (let i = 0; i < 30; i++) {
      expect(Number.isFinite(r!.positions[2 * i])).toBe(true);
      pts.add(`${Math.round(r!.positions[2 * i]!)},${Math.round(r!.positions[2 * i + 1]!)}`);
    }
    // laid out, not left on the starting line
    expect(pts.size).toBe(30);
    const ys = Array.from({ length: 30 }, (_, i) => r!.positions[2 * i + 1]!);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(50);
  });

  it('a newer request cancels the running one: the old resolves null and its worker is terminated', async () => {
    const made: ThreadWorker[] = [];
    const runner = new LayoutRunner(() => { const w = new ThreadWorker(30); made.push(w); return w; });
    const { nodes, edges } = graph(20);
    const first = runner.run(nodes, edges, {});
    const second = runner.run(nodes, edges, {});
    expect(await first).toBeNull();
    const r = await second;
    expect(r?.where).toBe('worker');
    expect(made).toHaveLength(2);
    expect(made[0]!.terminated).toBe(true);
    expect(runner.cancelled).toBe(1);
    // an idle worker is kept for the next request
    await runner.run(nodes, edges, {});
    expect(made).toHaveLength(2);
    expect(made[1]!.received).toBe(2);
  });

  it('without a worker, or when it fails to load, the layout runs on the main thread', async () => {
    const { nodes, edges } = graph(12);
    const none = await new LayoutRunner(() => null).run(nodes, edges, {});
    expect(none?.where).toBe('main');
    const failing = new ThreadWorker(0, true);
    const runner = new LayoutRunner(() => failing);
    const r = await runner.run(nodes, edges, {});
    expect(r?.where).toBe('main');
    expect(failing.terminated).toBe(true);
    expect(r?.positions.length).toBe(24);
    // the fallback lays out the same request (its arrays intact after the failed post)
    expect([...r!.positions].every(Number.isFinite)).toBe(true);
    expect(new Set(Array.from({ length: 12 }, (_, i) => `${r!.positions[2 * i]},${r!.positions[2 * i + 1]}`)).size).toBe(12);
  });
});
