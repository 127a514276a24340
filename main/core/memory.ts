/**
 * One full garbage collection, asked for by a long-lived shell once a vault's open has finished its background
 * work (CoreSession). Why (mem15d, issue 15 point 6): a first open promotes ~60–75 MB of transient objects
 * (the notes' bodies, the bulk load's JSON, the search index's tokens) into V8's old space while the graph loads;
 * once the open is done nothing allocates, so no GC comes to take them back and the web shell (or the Electron
 * main process) keeps them resident until the user's later work happens to trigger one. Collecting once, when
 * the process has nothing else to do, gives that memory back then. A pause of one full GC (~20–100 ms at 10k).
 *
 * Node has no GC call without --expose-gc, which a shell cannot pass to itself once started; the flag set at
 * run time exposes `gc` to contexts created afterwards (one, here). LORECRAFT_GC_AFTER_OPEN=0 turns it off.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

/** Whether the environment turned the collection after an open off (LORECRAFT_GC_AFTER_OPEN=0). */
export function gcAfterOpenEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.LORECRAFT_GC_AFTER_OPEN;
  return !(v === '0' || v === 'false' || v === 'off');
}

/** Run one full, synchronous garbage collection; its duration in ms, or null when this runtime offers none. */
export function collectGarbage(): number | null {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const fn = runInNewContext('gc') as unknown;
      gc = typeof fn === 'function' ? (fn as () => void) : null;
    } catch {
      gc = null;
    }
  }
  if (!gc) return null;
  const t0 = performance.now();
  gc();
  return performance.now() - t0;
}
