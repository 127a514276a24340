/**
 * Posts force layouts to the layout worker (layout.worker.ts) and hands the
 * positions back. One layout at a time: a newer request cancels an older one
 * (its promise resolves null) by terminating the busy worker, since fcose
 * never yields; the next request starts a fresh one. Where no worker can be
 * started (no Worker, a failed load), the same job runs on the main thread.
 */
import type { Positions } from '../../../shared/contract-canvas.js';
import { layoutRequest, runLayoutJob, type LayoutResult } from './layout-job.js';

/** What the runner needs of a Worker (the browser's, or a test's stand-in). */
export interface WorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  terminate(): void;
  onmessage: ((e: MessageEvent<LayoutResult>) => void) | null;
  onerror: ((e: Event) => void) | null;
}

/** The browser's module worker, or null where none can be made. */
export function browserWorker(): WorkerLike | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module', name: 'lorecraft-layout' }) as unknown as WorkerLike;
  } catch (e) {
    console.warn('layout worker not available; laying out on the main thread', e);
    return null;
  }
}

/** A layout's result with the node ids its positions follow, and when it reached this thread (performance.now()). */
export type LaidOut = LayoutResult & { ids: readonly string[]; receivedAt?: number };

export class LayoutRunner {
  private worker: WorkerLike | null = null;
  /** the worker could not be used: every job runs here */
  private inline = false;
  private pending: { id: number; done(r: LaidOut | null): void } | null = null;
  private nextId = 1;
  /** requests cancelled by a newer one (tests, bench) */
  cancelled = 0;

  constructor(private readonly make: () => WorkerLike | null = browserWorker) {}

  /** Lay out `nodes` (their current positions are the start); null when a newer request cancelled this one. */
  run(nodes: Array<{ id: string; x: number; y: number; size: number }>, edges: Array<{ source: string; target: string }>,
    pins: Positions): Promise<LaidOut | null> {
    this.cancel();
    const req = layoutRequest(this.nextId++, nodes, edges, pins);
    return new Promise<LaidOut | null>((resolve) => {
      this.pending = { id: req.id, done: resolve };
      const local = () => setTimeout(() => {
        if (this.pending?.id !== req.id) return;
        this.pending = null;
        resolve({ ...runLayoutJob(req, 'main'), ids: req.ids, receivedAt: performance.now() });
      }, 0);
      this.warm();
      const w = this.worker;
      if (this.inline || !w) { local(); return; }
      w.onmessage = (e) => {
        if (this.pending?.id !== e.data.id) return;
        this.pending = null;
        resolve({ ...e.data, ids: req.ids, receivedAt: performance.now() });
      };
      w.onerror = (e) => {
        // the worker script did not load or threw: this and every later layout run here
        console.warn('layout worker failed; laying out on the main thread', (e as ErrorEvent).message ?? e);
        this.drop();
        this.inline = true;
        if (this.pending?.id === req.id) local();
      };
      // copied, not transferred (a few hundred kB at 10k nodes): a failed worker's job then runs here from the same request
      w.postMessage(req, []);
    });
  }

  /** Start the worker ahead of the first layout (its module loads while the graph is fetched). */
  warm(): void {
    if (this.inline || this.worker) return;
    try { this.worker = this.make(); } catch { this.worker = null; }
    if (!this.worker) this.inline = true;
  }

  /** Cancel the running layout (its promise resolves null); the busy worker is terminated. */
  cancel(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.cancelled++;
    this.drop();
    p.done(null);
  }

  private drop(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  destroy(): void {
    this.cancel();
    this.drop();
  }
}
