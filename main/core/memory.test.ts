/**
 * memory.ts: collectGarbage really collects (an object only a WeakRef holds is gone after it), its switch, and
 * releaseAfterOpen's two collections (the second a moment later, skipped once the core is gone).
 */
import { describe, expect, it } from 'vitest';
import { collectGarbage, gcAfterOpenEnabled, releaseAfterOpen, SECOND_GC_DELAY_MS } from './memory.js';

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
  it('collects now and once more SECOND_GC_DELAY_MS later, unless the core is gone by then', () => {
    const log: string[] = [];
    const timers: Array<{ fn: () => void; ms: number }> = [];
    let still = true;
    releaseAfterOpen(() => still, () => { log.push('gc'); }, (fn, ms) => { timers.push({ fn, ms }); });
    expect(log).toEqual(['gc']);
    expect(timers.map((t) => t.ms)).toEqual([SECOND_GC_DELAY_MS]);
    timers[0]!.fn();
    expect(log).toEqual(['gc', 'gc']);

    log.length = 0; timers.length = 0;
    releaseAfterOpen(() => still, () => { log.push('gc'); }, (fn, ms) => { timers.push({ fn, ms }); });
    still = false; // closed or replaced meanwhile
    timers[0]!.fn();
    expect(log).toEqual(['gc']);
  });
});
