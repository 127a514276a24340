/** memory.ts: collectGarbage really collects (an object only a WeakRef holds is gone after it), and its switch. */
import { describe, expect, it } from 'vitest';
import { collectGarbage, gcAfterOpenEnabled } from './memory.js';

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
