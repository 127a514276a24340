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
import { Session } from 'node:inspector';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type GcFn = (options?: { type: 'minor' | 'major' }) => void;
let gc: GcFn | null | undefined;

/** Whether the environment turned the collection after an open off (LORECRAFT_GC_AFTER_OPEN=0). */
export function gcAfterOpenEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.LORECRAFT_GC_AFTER_OPEN;
  return !(v === '0' || v === 'false' || v === 'off');
}

function exposedGc(): GcFn | null {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const fn = runInNewContext('gc') as unknown;
      gc = typeof fn === 'function' ? (fn as GcFn) : null;
    } catch {
      gc = null;
    }
  }
  return gc;
}

/** Run one full, synchronous garbage collection; its duration in ms, or null when this runtime offers none. */
export function collectGarbage(): number | null {
  const run = exposedGc();
  if (!run) return null;
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

/**
 * Run one young-generation collection (a scavenge: a few ms when the young generation is nearly empty); its
 * duration in ms, or null when this runtime offers none. At the end of any collection V8 shrinks the young
 * generation back to its initial size, and gives the emptied semi-space pages back, when the process has
 * allocated less than ~1 KB/ms over the last 5 s (Heap::ReduceNewSpaceSize); nothing else reachable from
 * JavaScript does it (neither a full GC nor --max-semi-space-size set at run time: measured, rss15f).
 */
export function collectYoung(): number | null {
  const run = exposedGc();
  if (!run) return null;
  const t0 = performance.now();
  run({ type: 'minor' });
  return performance.now() - t0;
}

/**
 * One memory-reducing full collection, as V8 runs it on its own ~8 s after an idle process's last full one (its
 * memory reducer) or on a low-memory notification: the inspector protocol's `HeapProfiler.collectGarbage`, posted
 * on an in-process session (node:inspector; no debugger, no port, no flag), which calls the isolate's
 * LowMemoryNotification. Unlike a plain full collection, it moves the live objects off the old-space pages that are
 * more than ~20 % free and gives those pages back (a plain one evacuates only pages V8 judges nearly empty, at most
 * 4 MB of live objects a collection: a page half full stays as it is). Why (rss15k, issue 15 point 6): a first
 * open leaves ~7-23 MB of old space in pages whose live objects (the parsed notes, the model) sit between the open's
 * dead ones; the memory reducer took them back only after the bench's reading (10 s later: 252 against 262 MB).
 * Its duration in ms; falls back to collectGarbage() where there is no inspector (a runtime built without it).
 */
export function collectGarbageCompacting(): Promise<number | null> {
  let session: Session;
  try {
    session = new Session();
    session.connect();
  } catch {
    return Promise.resolve(collectGarbage());
  }
  const t0 = performance.now();
  return new Promise((done) => {
    // answered asynchronously (V8 runs the collection as a task); the session is let go on the next turn: a
    // disconnect from within the answer's callback left the process unable to exit (measured, Node 20)
    session.post('HeapProfiler.collectGarbage', (err) => {
      const ms = performance.now() - t0;
      setImmediate(() => { session.disconnect(); done(err ? collectGarbage() : ms); });
    });
  });
}

type TrimFn = (pad: number) => number;
let trim: TrimFn | null | undefined;

/**
 * glibc's malloc_trim, reached through koffi (a Node-API FFI, prebuilt per platform), or null where there is none
 * (not Linux with glibc, koffi missing). Loaded when first asked for, never at start.
 */
function mallocTrim(): TrimFn | null {
  if (trim === undefined) {
    trim = null;
    if (process.platform === 'linux') {
      try {
        // a require('koffi') call (esbuild names it require2): what the package check (scripts/dist-check.mjs) reads as loading it
        const require = createRequire(import.meta.url);
        const koffi = require('koffi') as {
          load(name: string): { func(decl: string): (...a: unknown[]) => unknown };
        };
        const fn = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
        trim = (pad) => Number(fn(pad));
      } catch {
        trim = null; // musl, no koffi for this platform: nothing to trim with
      }
    }
  }
  return trim;
}

/**
 * Give the C heap's free pages back to the system (glibc's malloc_trim(0)); its duration in ms, or null where
 * this runtime offers no way to. Why (rss15g, issue 15 point 6): glibc gives back a free page in the middle of a
 * heap only when asked. After an open the web shell holds ~50 MB of such pages at 10k: the main thread's heap
 * (freed buffers of the open between live chunks), the arena of the libuv thread that opened the empty database
 * before the load process took it (a closed Kùzu database leaves its ~60 MB arena free but resident), the other
 * worker threads' arenas.
 */
export function trimNativeHeap(): number | null {
  const run = mallocTrim();
  if (!run) return null;
  const t0 = performance.now();
  run(0);
  return performance.now() - t0;
}

/**
 * releaseAfterOpen()'s full collections wait until no request came for this long (CoreSession's `busyFor`), and
 * at most GC_QUIET_MAX_MS in all: an idle shell (nothing asked, as the RSS bench's) collects exactly when it did.
 */
export const GC_QUIET_MS = 500;
export const GC_QUIET_MAX_MS = 10_000;

/** How long after the first collection releaseAfterOpen() runs its second. */
export const SECOND_GC_DELAY_MS = 1000;

/**
 * How long after the second collection releaseAfterOpen() runs a young-generation one: more than V8's 5 s window
 * of allocation throughput (GCTracer's kThroughputTimeFrameMs), so that an idle process's collection is seen
 * as idle and the young generation shrinks.
 */
export const YOUNG_GC_DELAY_MS = 5500;

/**
 * How many young-generation collections releaseAfterOpen() runs right after its second full one, and how far
 * apart. V8 judges the allocation throughput from its last 10 allocation samples (GCTracer's ring buffer: one per
 * collection), summed back over at most 5 s: after ten collections in an idle process, none of the open's heavy
 * samples is left and the young generation shrinks at once (rss15g, standalone: 32 MB grown, still 32 after 5
 * scavenges 100 ms apart, 1 MB after 10; the same 50 ms apart). Each costs 1–3 ms on an empty young generation.
 */
export const YOUNG_GC_SERIES = 12;
export const YOUNG_GC_SERIES_GAP_MS = 50;

/**
 * What CoreSession does once an open's background work has ended: one full GC now and a second one a moment
 * later. The first frees what the open dropped, but the old-space pages it empties are swept concurrently
 * afterwards and V8 gives them back to the system only at its next collection; in an idle shell that never
 * comes (rss15e, 10k first open: 132 MB of old space committed for 98 MB used after the first; a second
 * collection at the settle point took RSS 374 -> 361 MB). Neither gives back the young generation: the open
 * grew it to its maximum (two 16 MB semi-spaces, resident), and V8 shrinks it only at a collection that finds
 * the process idle (rss15f). So YOUNG_GC_SERIES young-generation collections follow the second, which make V8
 * see the process as idle ~0.6 s later instead of after 5 s (rss15g); one more YOUNG_GC_DELAY_MS after the
 * second stays as the fallback for a V8 that judges otherwise (rss15f, 10k: ~30 MB of RSS in both opens; if
 * the user is working by then, V8 keeps the young generation and each scavenge costs a few ms). The C heap is
 * trimmed after the second full collection, after the series and after the last (trimNativeHeap). Each later
 * step is skipped when `still()` says the core it was for is gone. Each full collection first waits while the
 * app is in use (`busyFor`, GC_QUIET_MS). `collect`, `later`, `collectYoungGen` and `trimNative`: for tests.
 */
export function releaseAfterOpen(
  still: () => boolean = () => true,
  collect: () => unknown = collectGarbage,
  later: (fn: () => void, ms: number) => void = (fn, ms) => { setTimeout(fn, ms).unref?.(); },
  collectYoungGen: () => unknown = collectYoung,
  trimNative: () => unknown = trimNativeHeap,
  busyFor: () => number = () => 0,
  collectLast: () => unknown = collectGarbageCompacting,
): void {
  // a full collection waits while the app is in use (`busyFor`: ms until it has been quiet GC_QUIET_MS), at most
  // GC_QUIET_MAX_MS: at 10k it holds the event loop ~0.1 s on a quiet machine (0.3 s at load), and one that comes
  // during a request holds its answer: the players' view's first switch right after opening (switch17j)
  const whenQuiet = (fn: () => void, waited = 0): void => {
    const wait = Math.min(Math.ceil(busyFor()), GC_QUIET_MAX_MS - waited);
    if (!(wait > 0)) { fn(); return; }
    later(() => { if (still()) whenQuiet(fn, waited + wait); }, wait);
  };
  whenQuiet(() => { collect(); later(() => { if (still()) whenQuiet(second); }, SECOND_GC_DELAY_MS); });
  // the second is memory-reducing (collectGarbageCompacting): the first has freed what the open dropped, the
  // second moves the live objects off the pages it left partly empty; the steps after it wait for it
  function second(): void {
    const done = collectLast();
    if (done instanceof Promise) void done.catch(() => undefined).then(() => { if (still()) afterSecond(); });
    else afterSecond();
  }
  function afterSecond(): void {
    trimNative();
    let left = YOUNG_GC_SERIES;
    const step = (): void => {
      if (!still()) return;
      collectYoungGen();
      if (--left > 0) later(step, YOUNG_GC_SERIES_GAP_MS);
      else trimNative();
    };
    later(step, YOUNG_GC_SERIES_GAP_MS);
    later(() => { if (still()) { collectYoungGen(); trimNative(); } }, YOUNG_GC_DELAY_MS);
  }
}
