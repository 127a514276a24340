/**
 * The force layout off the main thread: a module worker (built by Vite) that
 * runs layout-job.ts's headless Cytoscape + fcose on each request and posts
 * the positions back as a transferred Float32Array. One job at a time; a
 * newer request cancels an older one by terminating this worker
 * (layout-client.ts), since fcose never yields.
 */
import { runLayoutJob, type LayoutRequest } from './layout-job.js';

const scope = self as unknown as { onmessage: ((e: MessageEvent<LayoutRequest>) => void) | null; postMessage(m: unknown, transfer: Transferable[]): void };

scope.onmessage = (e) => {
  const r = runLayoutJob(e.data, 'worker');
  scope.postMessage(r, [r.positions.buffer]);
};
