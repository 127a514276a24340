/**
 * The force layout off the main thread: a module worker (built by Vite) that
 * runs each request and posts the positions back as a transferred
 * Float32Array. A big graph's ForceAtlas2 (layout-fa2.ts) is in this worker's
 * own small chunk; the headless Cytoscape + fcose of smaller graphs
 * (layout-job.ts) is loaded the first time one is asked for, so a big
 * graph's first layout does not wait for ~600 kB of script it does not run.
 * One job at a time; a newer request cancels an older one by terminating
 * this worker (layout-client.ts), since neither engine yields.
 */
import type { LayoutRequest, LayoutResult } from './layout-job.js';
import { runFa2 } from './layout-fa2.js';
import { layoutEngine } from './layout.js';

const scope = self as unknown as { onmessage: ((e: MessageEvent<LayoutRequest>) => void) | null; postMessage(m: unknown, transfer: Transferable[]): void };

const post = (r: LayoutResult) => { scope.postMessage(r, [r.positions.buffer]); };

scope.onmessage = (e) => {
  const req = e.data;
  // when the request got here: the time between the ask and this is the wait for the worker (its start, a busy thread)
  const receivedAtEpoch = performance.timeOrigin + performance.now();
  if (layoutEngine(req.ids.length) === 'fa2') { post({ ...runFa2(req, 'worker'), receivedAtEpoch }); return; }
  // a failed load is rethrown outside the promise, as the worker's error event: layout-client.ts then lays out
  // on the main thread
  import('./layout-job.js').then(({ runLayoutJob }) => { post({ ...runLayoutJob(req, 'worker'), receivedAtEpoch }); },
    (err: unknown) => { setTimeout(() => { throw err; }, 0); });
};
