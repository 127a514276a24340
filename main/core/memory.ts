/**
 * One full garbage collection (then a second: releaseAfterOpen), asked for by a long-lived shell once a vault's
 * open has finished its background work and the players' view's preparation (CoreSession). Why (mem15d, issue 15 point 6): a first open promotes ~60–75 MB of transient objects
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

/** How long after the first collection releaseAfterOpen() runs its second. */
export const SECOND_GC_DELAY_MS = 1000;

/**
 * What CoreSession does once an open's background work has ended: one full GC now and a second one a moment
 * later. The first frees what the open dropped, but the old-space pages it empties are swept concurrently
 * afterwards and V8 gives them back to the system only at its next collection; in an idle shell that never
 * comes (rss15e, 10k first open: 132 MB of old space committed for 98 MB used after the first; a second
 * collection at the settle point took RSS 374 -> 361 MB). The second is skipped when `still()` says the core
 * it was for is gone. `collect` and `later`: for tests.
 */
export function releaseAfterOpen(
  still: () => boolean = () => true,
  collect: () => unknown = collectGarbage,
  later: (fn: () => void, ms: number) => void = (fn, ms) => { setTimeout(fn, ms).unref?.(); },
): void {
  collect();
  later(() => { if (still()) collect(); }, SECOND_GC_DELAY_MS);
}
