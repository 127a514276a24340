// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeGraph } from '../../../shared/graph-compact.js';
import type { GraphSnapshot } from '../../../shared/types.js';

/** the shell's answers: a graph of `n` nodes, no pins, importance for none */
const answers = { n: 0 };
vi.mock('../../api/client.js', () => ({
  api: {
    call: vi.fn(async (channel: string) => {
      if (channel === 'graph-compact') {
        const g: GraphSnapshot = {
          nodes: Array.from({ length: answers.n }, (_, i) => ({ id: `e${i}`, name: `E ${i}`, type: 'npc', layer: 'main', path: null, placeholder: false, tags: [] })),
          edges: [],
        };
        return encodeGraph(g);
      }
      if (channel === 'canvas-positions-get') return { positions: {}, layout: {} };
      if (channel === 'canvas-importance') return { ranks: {} };
      throw new Error(`unexpected call ${channel}`);
    }),
    on: vi.fn(),
  },
}));

/** a fresh slice module (its gate is module state) and a minimal store around it */
async function fresh() {
  vi.resetModules();
  const mod = await import('./slice.js');
  let state: Record<string, unknown> = { audience: 'gm', vault: null, toast: () => undefined };
  const set = (p: Record<string, unknown> | ((s: Record<string, unknown>) => Record<string, unknown>)) => {
    state = { ...state, ...(typeof p === 'function' ? p(state) : p) };
  };
  const get = () => state;
  state = { ...state, ...mod.createGraphSlice(set as never, get as never, {} as never) };
  let open = false;
  void mod.firstListsGate().then(() => { open = true; });
  const settle = async () => { for (let i = 0; i < 5; i++) await Promise.resolve(); };
  return { mod, state: () => state as unknown as ReturnType<typeof mod.createGraphSlice>, isOpen: async () => { await settle(); return open; } };
}

describe('the first load\'s lists wait for a big graph\'s first picture (firstListsGate)', () => {
  beforeEach(() => { vi.useFakeTimers({ toFake: ['setTimeout'] }); });
  afterEach(() => { vi.useRealTimers(); });

  it('a big graph: closed until the canvas has placed and drawn its first picture, then open for good', async () => {
    answers.n = 1300;
    const { mod, state, isOpen } = await fresh();
    expect(await isOpen()).toBe(false);
    await state().loadGraph({ vaultDir: Promise.resolve('/v') });
    expect(state().graph?.nodes.length).toBe(1300);
    expect(await isOpen()).toBe(false);
    // placed (the importance request goes out) but not yet drawn: still closed
    state().canvasFirstPicture();
    expect(await isOpen()).toBe(false);
    state().canvasFirstPainted();
    expect(await isOpen()).toBe(true);
    let again = false;
    void mod.firstListsGate().then(() => { again = true; });
    await Promise.resolve();
    expect(again).toBe(true);
  });

  it('a graph under LISTS_AFTER_PICTURE_AT nodes: open as soon as it is in', async () => {
    answers.n = 50;
    const { mod, state, isOpen } = await fresh();
    expect(50).toBeLessThan(mod.LISTS_AFTER_PICTURE_AT);
    expect(await isOpen()).toBe(false);
    await state().loadGraph({ vaultDir: Promise.resolve('/v') });
    expect(await isOpen()).toBe(true);
  });

  it('a big graph the canvas never places: open after the cap; an error: open at once', async () => {
    answers.n = 1300;
    const a = await fresh();
    await a.state().loadGraph({ vaultDir: Promise.resolve('/v') });
    vi.advanceTimersByTime(9_000);
    expect(await a.isOpen()).toBe(false);
    vi.advanceTimersByTime(1_500);
    expect(await a.isOpen()).toBe(true);
    const b = await fresh();
    b.mod.releaseFirstLists();
    expect(await b.isOpen()).toBe(true);
  });
});
