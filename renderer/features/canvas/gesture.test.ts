import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Core as Cy } from 'cytoscape';
import { GestureHold, TEXTURE_MAX_MAGNIFY, TEXTURE_REBUILD_MS, textureUsable, type TextureView } from './gesture.js';

describe('textureUsable', () => {
  // a 1000 x 800 canvas, pixel ratio 1, texture drawn at zoom 1, pan 0: it covers model [0,1000] x [0,800]
  const tex: TextureView = { zoom: 1, pan: { x: 0, y: 0 }, width: 1000, height: 800 };
  it('serves the view it was drawn at, and small pans and zooms out of it', () => {
    expect(textureUsable(tex, 1, 1, { x: 0, y: 0 }, 1000, 800)).toBe(true);
    expect(textureUsable(tex, 1, 1, { x: -100, y: 50 }, 1000, 800)).toBe(true);
    // zoomed out 1.2x about the centre: the view is 1200 x 960 model units, the texture covers 1000 x 800 of it (69 %)
    expect(textureUsable(tex, 1, 1 / 1.2, { x: 83, y: 67 }, 1000, 800)).toBe(true);
  });
  it('is rebuilt when the view has moved mostly off it, or is zoomed out or in too far', () => {
    expect(textureUsable(tex, 1, 1, { x: -600, y: 0 }, 1000, 800)).toBe(false);
    expect(textureUsable(tex, 1, 1, { x: 0, y: 900 }, 1000, 800)).toBe(false);
    expect(textureUsable(tex, 1, 0.6, { x: 200, y: 160 }, 1000, 800)).toBe(false);
    expect(textureUsable(tex, 1, TEXTURE_MAX_MAGNIFY * 1.01, { x: -500, y: -400 }, 1000, 800)).toBe(false);
    expect(textureUsable(tex, 1, TEXTURE_MAX_MAGNIFY * 0.99, { x: -500, y: -400 }, 1000, 800)).toBe(true);
  });
  it('reads the texture size in canvas pixels (pixel ratio 2: the same model area)', () => {
    const hi: TextureView = { zoom: 1, pan: { x: 0, y: 0 }, width: 2000, height: 1600 };
    expect(textureUsable(hi, 2, 1, { x: 0, y: 0 }, 1000, 800)).toBe(true);
    expect(textureUsable(hi, 2, 1, { x: -600, y: 0 }, 1000, 800)).toBe(false);
  });
});

/** a stand-in for Cytoscape's canvas renderer and core: what the hold reads and calls */
function fake() {
  const handlers: Array<() => void> = [];
  const view = { zoom: 1, pan: { x: 0, y: 0 } };
  const calls: string[] = [];
  const r = {
    data: { wheelZooming: false } as { wheelZooming?: boolean },
    hoverData: { dragging: false },
    textureOnViewport: true,
    pixelRatio: 1,
    textureCache: null as null | { viewport: TextureView },
    render(o?: { forcedContext?: unknown }) {
      // as Cytoscape: a texture frame while a gesture moves the view (building the texture once), else a full frame
      const texture = !o?.forcedContext && (r.data.wheelZooming || r.hoverData.dragging);
      if (texture) {
        if (!r.textureCache) { r.textureCache = { viewport: { zoom: view.zoom, pan: { ...view.pan }, width: 1000, height: 800 } }; calls.push('build'); }
        calls.push('blit');
      } else { r.textureCache = null; calls.push('full'); }
    },
    notify(name: string, _eles?: unknown) { calls.push(`notify:${name}`); },
    redrawHint() { /* */ },
    redraw() { r.render(); },
  };
  const cy = {
    on(_: string, fn: () => void) { handlers.push(fn); },
    off() { handlers.length = 0; },
    zoom: () => view.zoom, pan: () => view.pan, width: () => 1000, height: () => 800, destroyed: () => false,
  } as unknown as Cy;
  /** a user (or program) moves the view: Cytoscape's viewport event, then its frame */
  const move = (dx: number, dz = 1) => {
    view.pan.x += dx; view.zoom *= dz;
    for (const h of handlers) h();
    r.render();
  };
  return { r, cy, calls, move, view };
}

describe('GestureHold', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('keeps the bitmap across a drag, a wheel and a drag, then draws one full frame when the view is still', () => {
    const f = fake();
    const settled = vi.fn();
    const hold = new GestureHold(f.cy, f.r, { idleMs: 250, onSettle: settled });
    // drag
    f.r.hoverData.dragging = true;
    f.move(10); f.move(10);
    f.r.hoverData.dragging = false;
    f.r.redraw(); // Cytoscape's redraw at mouseup
    // wheel: Cytoscape sets its flag, and clears it 150 ms after the last step, with a redraw
    f.r.data.wheelZooming = true;
    f.move(0, 1.1); f.move(0, 1.1);
    vi.advanceTimersByTime(150);
    f.r.data.wheelZooming = false;
    f.r.redraw();
    f.r.hoverData.dragging = true;
    f.move(-10);
    f.r.hoverData.dragging = false;
    f.r.redraw();
    expect(f.calls.filter((c) => c === 'full')).toEqual([]);
    expect(f.calls.filter((c) => c === 'build')).toHaveLength(1);
    expect(settled).not.toHaveBeenCalled();
    vi.advanceTimersByTime(249);
    expect(f.calls.filter((c) => c === 'full')).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(settled).toHaveBeenCalledTimes(1);
    expect(f.calls.at(-1)).toBe('full');
    expect(hold.stats).toEqual({ settled: 1, interrupted: 0, rebuilt: 0 });
    expect(f.r.data.wheelZooming).toBe(false);
  });

  it('a change of elements during the hold is drawn at once (the hold ends)', () => {
    const f = fake();
    const hold = new GestureHold(f.cy, f.r, { idleMs: 250 });
    f.r.data.wheelZooming = true;
    f.move(0, 1.1);
    f.r.data.wheelZooming = false;
    f.r.notify('style');
    expect(hold.held).toBe(false);
    expect(f.calls.at(-2)).toBe('full');
    expect(hold.stats.interrupted).toBe(1);
  });

  it('an ignored element (the connect handle) does not end it; the view does not either', () => {
    const f = fake();
    const hold = new GestureHold(f.cy, f.r, { idleMs: 250, ignore: (id) => id === 'h' });
    f.r.data.wheelZooming = true;
    f.move(0, 1.1);
    f.r.notify('add', [{ id: () => 'h' }] as never);
    f.r.notify('viewport');
    expect(hold.held).toBe(true);
    f.r.notify('add', [{ id: () => 'h' }, { id: () => 'n1' }] as never);
    expect(hold.held).toBe(false);
  });

  it('pressing an element (its :active state on and off) does not end it; a style change after does', () => {
    const f = fake();
    const hold = new GestureHold(f.cy, f.r, { idleMs: 250 });
    f.r.data.wheelZooming = true;
    f.move(0, 1.1);
    const edge = { _private: { active: true }, id: () => 'e1' };
    f.r.notify('style', [edge] as never);
    expect(hold.held).toBe(true);
    edge._private.active = false;
    f.r.notify('style', [edge] as never);
    expect(hold.held).toBe(true);
    // the same element restyled while not pressed: a real change
    f.r.notify('style', [edge] as never);
    expect(hold.held).toBe(false);
    expect(hold.stats.interrupted).toBe(1);
  });

  it('a programmatic view change (fit, zoom buttons) starts no hold', () => {
    const f = fake();
    const hold = new GestureHold(f.cy, f.r, { idleMs: 250 });
    f.move(50, 1.5);
    expect(hold.held).toBe(false);
    expect(f.calls).toEqual(['full']);
  });

  it('rebuilds the bitmap when the view has left it', () => {
    const f = fake();
    const hold = new GestureHold(f.cy, f.r, { idleMs: 250 });
    f.r.hoverData.dragging = true;
    f.move(-100);
    f.move(-800);
    expect(f.calls.filter((c) => c === 'build')).toHaveLength(2);
    expect(hold.stats.rebuilt).toBe(1);
    // not again within TEXTURE_REBUILD_MS, even off the bitmap; after it, yes
    f.move(-900);
    expect(hold.stats.rebuilt).toBe(1);
    vi.advanceTimersByTime(TEXTURE_REBUILD_MS);
    f.move(-900);
    expect(hold.stats.rebuilt).toBe(2);
  });
});
