// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';

/** the push handlers live.ts subscribes, by event */
const handlers = new Map<string, Array<(p?: unknown) => void>>();
vi.mock('./api/client.js', () => ({
  api: {
    on: vi.fn((ev: string, fn: (p?: unknown) => void) => { handlers.set(ev, [...handlers.get(ev) ?? [], fn]); return () => undefined; }),
    call: vi.fn(async () => ({})),
  },
  onConnection: vi.fn(() => () => undefined),
}));
const store = { refresh: vi.fn(async () => undefined), loadProblems: vi.fn(async () => undefined), setConnection: vi.fn(), setStatus: vi.fn() };
vi.mock('./store/index.js', () => ({ useApp: { getState: () => store } }));
/** the first load's gate (canvas/slice.ts firstListsGate), opened by the test */
let openGate: () => void = () => undefined;
const gate = new Promise<void>((ok) => { openGate = ok; });
vi.mock('./features/canvas/slice.js', () => ({ firstListsGate: () => gate }));

describe('live: the opening\'s vault-changed refetches wait for a big graph\'s first painted picture', () => {
  it('refresh and problems are refetched once the gate opens, not before; after it at once', async () => {
    const { startLive } = await import('./live.js');
    startLive();
    const fire = () => { for (const fn of handlers.get('vault-changed') ?? []) fn({}); };
    fire();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(store.refresh).not.toHaveBeenCalled();
    expect(store.loadProblems).not.toHaveBeenCalled();
    openGate();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(store.refresh).toHaveBeenCalledTimes(1);
    expect(store.loadProblems).toHaveBeenCalledTimes(1);
    // open for good: the next push refetches in the next microtasks
    fire();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(store.refresh).toHaveBeenCalledTimes(2);
    expect(store.loadProblems).toHaveBeenCalledTimes(2);
  });
});
