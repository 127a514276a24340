/**
 * memory.ts: collectGarbage really collects (an object only a WeakRef holds is gone after it), its switch, and
 * releaseAfterOpen's collections (a second full one a moment later, then a young-generation one, each skipped once
 * the core is gone), that the young generation an idle process had grown is given back (memory-probe.ts), and that
 * the C heap's free pages are given back (trim-probe.ts).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  collectGarbage, collectYoung, GC_QUIET_MAX_MS, gcAfterOpenEnabled, releaseAfterOpen, SECOND_GC_DELAY_MS, trimNativeHeap, YOUNG_GC_DELAY_MS,
  YOUNG_GC_SERIES, YOUNG_GC_SERIES_GAP_MS,
} from './memory.js';

const here = dirname(fileURLToPath(import.meta.url));

describe('collectGarbage', () => {
  it('runs a full GC: an object reachable only through a WeakRef is collected', async () => {
    const make = (): WeakRef<object> => new WeakRef({ big: new Array(10_000).fill('x') });
    const ref = make();
    // a WeakRef's target is kept until the end of the job that made or read it
    await new Promise((r) => setImmediate(r));
    const ms = collectGarbage();
    expect(typeof ms).toBe('number');
    expect(ref.deref()).toBeUndefined();
  });

  it('is on unless LORECRAFT_GC_AFTER_OPEN turns it off', () => {
    expect(gcAfterOpenEnabled({})).toBe(true);
    expect(gcAfterOpenEnabled({ LORECRAFT_GC_AFTER_OPEN: '1' })).toBe(true);
    for (const v of ['0', 'false', 'off']) expect(gcAfterOpenEnabled({ LORECRAFT_GC_AFTER_OPEN: v })).toBe(false);
  });
});

describe('releaseAfterOpen', () => {
  /** A fake clock for releaseAfterOpen's `later`: runs what is due in time order, logging `what@ms`. */
  function clock(): { later: (fn: () => void, ms: number) => void; runUntil: (t: number) => void; now: () => number } {
    let now = 0;
    let seq = 0;
    const q: Array<{ at: number; seq: number; fn: () => void }> = [];
    return {
      later: (fn, ms) => { q.push({ at: now + ms, seq: seq++, fn }); },
      runUntil: (t) => {
        for (;;) {
          q.sort((x, y) => x.at - y.at || x.seq - y.seq);
          const next = q[0];
          if (!next || next.at > t) break;
          q.shift();
          now = next.at;
          next.fn();
        }
        now = t;
      },
      now: () => now,
    };
  }

  it('collects now and SECOND_GC_DELAY_MS later (that one memory-reducing), then the young generation YOUNG_GC_SERIES times and once more YOUNG_GC_DELAY_MS after the second, trimming the C heap after each stage, unless the core is gone by then', () => {
    const run = (still: () => boolean): { log: string[]; c: ReturnType<typeof clock> } => {
      const log: string[] = [];
      const c = clock();
      const at = (what: string) => () => { log.push(`${what}@${c.now()}`); };
      releaseAfterOpen(still, at('gc'), c.later, at('young'), at('trim'), undefined, at('compact'));
      return { log, c };
    };
    const second = SECOND_GC_DELAY_MS;
    const series = Array.from({ length: YOUNG_GC_SERIES }, (_, i) => `young@${second + (i + 1) * YOUNG_GC_SERIES_GAP_MS}`);
    const seriesEnd = second + YOUNG_GC_SERIES * YOUNG_GC_SERIES_GAP_MS;
    expect(seriesEnd).toBeLessThan(second + YOUNG_GC_DELAY_MS);

    let still = true;
    const all = run(() => still);
    expect(all.log).toEqual(['gc@0']);
    all.c.runUntil(60_000);
    expect(all.log).toEqual(['gc@0', `compact@${second}`, `trim@${second}`, ...series, `trim@${seriesEnd}`,
      `young@${second + YOUNG_GC_DELAY_MS}`, `trim@${second + YOUNG_GC_DELAY_MS}`]);

    // closed or replaced before the second
    const early = run(() => still);
    still = false;
    early.c.runUntil(60_000);
    expect(early.log).toEqual(['gc@0']);

    // gone during the series: nothing more, not the fallback either
    still = true;
    const mid = run(() => still);
    mid.c.runUntil(second + 3 * YOUNG_GC_SERIES_GAP_MS);
    still = false;
    mid.c.runUntil(60_000);
    expect(mid.log).toEqual(['gc@0', `compact@${second}`, `trim@${second}`, ...series.slice(0, 3)]);
  });

  it('waits with each full collection while the app is in use (busyFor), GC_QUIET_MAX_MS at most, and not for a core gone meanwhile', () => {
    const run = (busyUntil: () => number, still: () => boolean = () => true): { log: string[]; c: ReturnType<typeof clock> } => {
      const log: string[] = [];
      const c = clock();
      const at = (what: string) => () => { log.push(`${what}@${c.now()}`); };
      releaseAfterOpen(still, at('gc'), c.later, at('young'), at('trim'), () => Math.max(0, busyUntil() - c.now()), at('gc'));
      return { log, c };
    };
    const second = SECOND_GC_DELAY_MS;
    const gcs = (log: string[]) => log.filter((l) => l.startsWith('gc@'));

    // asked things until 700 ms after the release: the first waits until then, the second comes a second later
    const busy = run(() => 700);
    expect(busy.log).toEqual([]);
    busy.c.runUntil(60_000);
    expect(gcs(busy.log)).toEqual(['gc@700', `gc@${700 + second}`]);
    expect(busy.log).toContain(`young@${700 + second + YOUNG_GC_DELAY_MS}`);

    // a request keeps coming until 1,300 ms (each pushing the quiet point on): the second waits for it too
    let until = 0;
    const later = run(() => until);
    expect(later.log).toEqual(['gc@0']);
    later.c.runUntil(second - 1);
    until = second + 300;
    later.c.runUntil(60_000);
    expect(gcs(later.log)).toEqual(['gc@0', `gc@${second + 300}`]);

    // never quiet: each collection comes GC_QUIET_MAX_MS late, not never
    const never = run(() => Number.POSITIVE_INFINITY);
    never.c.runUntil(120_000);
    expect(gcs(never.log)).toEqual([`gc@${GC_QUIET_MAX_MS}`, `gc@${2 * GC_QUIET_MAX_MS + second}`]);

    // the core gone while the first waits: nothing at all
    let still = true;
    const gone = run(() => 700, () => still);
    gone.c.runUntil(300);
    still = false;
    gone.c.runUntil(60_000);
    expect(gone.log).toEqual([]);
  });

  it('collectGarbageCompacting gives back old-space pages a plain full collection leaves half empty (a process of its own)', () => {
    const r = spawnSync(process.execPath, [join(here, '..', '..', 'bin', 'run-ts.mjs'), join(here, 'compact-probe.ts')], {
      encoding: 'utf8', timeout: 120_000,
    });
    const m = /COMPACT (\d+) (\d+) (\d+) (\d+) (\S+)/.exec(r.stdout);
    expect(m, r.stderr).not.toBeNull();
    const [plain, afterPlain, afterCompacting, used] = [1, 2, 3, 4].map((i) => Number(m![i]) / 1048576) as [number, number, number, number];
    expect(m![5]).not.toBe('null');
    // every other object kept: a plain full collection moves none of them (its pages are ~50 % free) ...
    expect(plain - afterPlain).toBeLessThan(8);
    expect(afterPlain - used).toBeGreaterThan(25);
    // ... the memory-reducing one packs them and gives the emptied pages back
    expect(afterPlain - afterCompacting).toBeGreaterThanOrEqual(20);
    expect(afterCompacting - used).toBeLessThan(15);
  });

  it('collectYoung runs a young-generation collection', () => {
    expect(typeof collectYoung()).toBe('number');
  });

  it('gives back the young generation an idle process had grown (a process of its own, real timers)', () => {
    const r = spawnSync(process.execPath, [join(here, '..', '..', 'bin', 'run-ts.mjs'), join(here, 'memory-probe.ts')], {
      encoding: 'utf8', timeout: 120_000,
    });
    const m = /YOUNG (\d+) (\d+) (\d+)/.exec(r.stdout);
    expect(m, r.stderr).not.toBeNull();
    const [before, afterSeries, after] = [Number(m![1]), Number(m![2]), Number(m![3])];
    // grown to its maximum by the allocations (16 MB semi-spaces on 64-bit), back to a few MB after the release:
    // already once the series after the second full collection has run (not only after the 5 s fallback)
    expect(before).toBeGreaterThanOrEqual(16 * 1048576);
    expect(afterSeries).toBeLessThanOrEqual(4 * 1048576);
    expect(after).toBeLessThanOrEqual(4 * 1048576);
  });

  it('gives back the C heap\'s free pages (a process of its own: glibc on Linux)', () => {
    if (process.platform !== 'linux') {
      expect(trimNativeHeap()).toBeNull();
      return;
    }
    const r = spawnSync(process.execPath, [join(here, '..', '..', 'bin', 'run-ts.mjs'), join(here, 'trim-probe.ts')], {
      encoding: 'utf8', timeout: 120_000,
    });
    const m = /TRIM (\d+) (\d+) (\S+) 100/.exec(r.stdout);
    expect(m, r.stderr).not.toBeNull();
    const [before, after] = [Number(m![1]), Number(m![2])];
    expect(m![3]).not.toBe('null');
    // ~94 MB of the 100 MB of buffers were freed; glibc kept them resident until the trim
    expect(before - after).toBeGreaterThanOrEqual(40 * 1048576);
  });
});
