import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whenOpen } from './when-open.js';

type State = 'connecting' | 'open' | 'closed';
/** a connection whose listeners are told the state at once and on every change (as api/client.ts's onConnection) */
function connection(initial: State) {
  let state = initial;
  const fns = new Set<(s: State) => void>();
  return {
    on: (fn: (s: State) => void) => { fns.add(fn); fn(state); return () => void fns.delete(fn); },
    set: (s: State) => { state = s; for (const f of [...fns]) f(s); },
    listeners: () => fns.size,
  };
}

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

describe('whenOpen', () => {
  it('waits while connecting and runs once at the open, not again at the cap or a later close', () => {
    const c = connection('connecting');
    const fn = vi.fn();
    whenOpen(c.on, 250, fn);
    vi.advanceTimersByTime(100);
    expect(fn).not.toHaveBeenCalled();
    c.set('open');
    expect(fn).toHaveBeenCalledTimes(1);
    expect(c.listeners()).toBe(0);
    vi.advanceTimersByTime(1000);
    c.set('closed');
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('runs at the cap when the socket stays connecting', () => {
    const c = connection('connecting');
    const fn = vi.fn();
    whenOpen(c.on, 250, fn);
    vi.advanceTimersByTime(249);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    c.set('open');
    expect(fn).toHaveBeenCalledTimes(1);
    expect(c.listeners()).toBe(0);
  });

  it('runs at once when already open (Electron), and when the connection closes before opening', () => {
    const open = connection('open');
    const fn = vi.fn();
    whenOpen(open.on, 250, fn);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(open.listeners()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);

    const closing = connection('connecting');
    const gn = vi.fn();
    whenOpen(closing.on, 250, gn);
    closing.set('closed');
    expect(gn).toHaveBeenCalledTimes(1);
  });
});
