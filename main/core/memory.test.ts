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
import { collectGarbage, collectYoung, gcAfterOpenEnabled, releaseAfterOpen, SECOND_GC_DELAY_MS, trimNativeHeap, YOUNG_GC_DELAY_MS } from './memory.js';

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
  it('collects now, once more SECOND_GC_DELAY_MS later, then the young generation YOUNG_GC_DELAY_MS after that, trimming the C heap after each of those two, unless the core is gone by then', () => {
    const log: string[] = [];
    const timers: Array<{ fn: () => void; ms: number }> = [];
    let still = true;
    const run = (): void => {
      releaseAfterOpen(() => still, () => { log.push('gc'); }, (fn, ms) => { timers.push({ fn, ms }); }, () => { log.push('young'); },
        () => { log.push('trim'); });
    };
    run();
    expect(log).toEqual(['gc']);
    expect(timers.map((t) => t.ms)).toEqual([SECOND_GC_DELAY_MS]);
    timers[0]!.fn();
    expect(log).toEqual(['gc', 'gc', 'trim']);
    expect(timers.map((t) => t.ms)).toEqual([SECOND_GC_DELAY_MS, YOUNG_GC_DELAY_MS]);
    timers[1]!.fn();
    expect(log).toEqual(['gc', 'gc', 'trim', 'young', 'trim']);

    log.length = 0; timers.length = 0;
    run();
    still = false; // closed or replaced meanwhile
    timers[0]!.fn();
    expect(log).toEqual(['gc']);
    expect(timers).toHaveLength(1);

    log.length = 0; timers.length = 0; still = true;
    run();
    timers[0]!.fn();
    still = false; // gone after the second
    timers[1]!.fn();
    expect(log).toEqual(['gc', 'gc', 'trim']);
  });

  it('collectYoung runs a young-generation collection', () => {
    expect(typeof collectYoung()).toBe('number');
  });

  it('gives back the young generation an idle process had grown (a process of its own, real timers)', () => {
    const r = spawnSync(process.execPath, [join(here, '..', '..', 'bin', 'run-ts.mjs'), join(here, 'memory-probe.ts')], {
      encoding: 'utf8', timeout: 45_000,
    });
    const m = /YOUNG (\d+) (\d+)/.exec(r.stdout);
    expect(m, r.stderr).not.toBeNull();
    const [before, after] = [Number(m![1]), Number(m![2])];
    // grown to its maximum by the allocations (16 MB semi-spaces on 64-bit), back to a few MB after the release
    expect(before).toBeGreaterThanOrEqual(16 * 1048576);
    expect(after).toBeLessThanOrEqual(4 * 1048576);
  });

  it('gives back the C heap\'s free pages (a process of its own: glibc on Linux)', () => {
    if (process.platform !== 'linux') {
      expect(trimNativeHeap()).toBeNull();
      return;
    }
    const r = spawnSync(process.execPath, [join(here, '..', '..', 'bin', 'run-ts.mjs'), join(here, 'trim-probe.ts')], {
      encoding: 'utf8', timeout: 45_000,
    });
    const m = /TRIM (\d+) (\d+) (\S+) 100/.exec(r.stdout);
    expect(m, r.stderr).not.toBeNull();
    const [before, after] = [Number(m![1]), Number(m![2])];
    expect(m![3]).not.toBe('null');
    // ~94 MB of the 100 MB of buffers were freed; glibc kept them resident until the trim
    expect(before - after).toBeGreaterThanOrEqual(40 * 1048576);
  });
});
