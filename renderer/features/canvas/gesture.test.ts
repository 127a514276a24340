import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Core as Cy } from 'cytoscape';
import { AHEAD_DELAY_MS, GestureHold, PRESS_DRAW_MS, TEXTURE_MAX_MAGNIFY, TEXTURE_REBUILD_MS, textureUsable, VIEW_HOLD_MAX_SCALE, VIEW_HOLD_MIN_COVER, type TextureView } from './gesture.js';

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
  const view = { zoom: 1, pan: { x: 0, y: 0 }, animated: false };
  const calls: string[] = [];
  const ctx = { setTransform() { /* */ }, clearRect() { /* */ } } as unknown as CanvasRenderingContext2D;
  const r = {
    data: { wheelZooming: false, bufferCanvases: [{}], bufferContexts: [ctx], canvasNeedsRedraw: [false, false, false] } as {
      wheelZooming?: boolean; bufferCanvases: unknown[]; bufferContexts: CanvasRenderingContext2D[]; canvasNeedsRedraw: boolean[] },
    SELECT_BOX: 0, DRAG: 1, NODE: 2,
    TEXTURE_BUFFER: 0, textureMult: 2, canvasWidth: 1000, canvasHeight: 800, getPixelRatio: () => 1,
    hoverData: { dragging: false },
    textureOnViewport: true,
    pixelRatio: 1,
    textureCache: null as null | { viewport: TextureView },
    render(o?: { forcedContext?: unknown; drawOnlyNodeLayer?: boolean }) {
      // a forced draw of the node layer (a bitmap built ahead): edges hidden if the renderer thinks the view moves
      if (o?.forcedContext) { calls.push(`forced:${o.drawOnlyNodeLayer ? 'nodes' : 'all'}:${r.data.wheelZooming ? 'no-edges' : 'edges'}`); return; }
      // as Cytoscape: a texture frame while a gesture moves the view (building the texture once), else a full frame
      const texture = !o?.forcedContext && (r.data.wheelZooming || r.hoverData.dragging);
      if (texture) {
        if (!r.textureCache) { r.textureCache = { viewport: { zoom: view.zoom, pan: { ...view.pan }, width: 1000, height: 800 } }; calls.push('build'); }
        calls.push('blit');
      } else { r.textureCache = null; calls.push(r.data.canvasNeedsRedraw[2] || r.data.canvasNeedsRedraw[1] ? 'full' : 'select'); }
      r.data.canvasNeedsRedraw.fill(false);
    },
    notify(name: string, _eles?: unknown) { calls.push(`notify:${name}`); },
    redrawHint() { /* */ },
    /** a redraw of everything (Cytoscape's 'eles' hint) */
    redraw() { r.data.canvasNeedsRedraw[2] = true; r.render(); },
  };
  const cy = {
    on(_: string, fn: () => void) { handlers.push(fn); },
    off() { handlers.length = 0; },
    zoom: () => view.zoom, pan: () => view.pan, width: () => 1000, height: () => 800, destroyed: () => false, animated: () => view.animated,
    mutableElements: () => ({ boundingBox: () => ({ x1: 0, y1: 0, x2: 1, y2: 1 }) }),
  } as unknown as Cy;
  /** a user (or program) moves the view: Cytoscape's viewport event, then its frame */
  const move = (dx: number, dz = 1) => {
    view.pan.x += dx; view.zoom *= dz;
    for (const h of handlers) h();
    r.data.canvasNeedsRedraw[2] = true;
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
    expect(hold.stats).toMatchObject({ settled: 1, interrupted: 0, rebuilt: 0, ahead: 0 });
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

  it('a press on an edge outside a hold is drawn PRESS_DRAW_MS later, or never if a pan or the release comes first', () => {
    const f = fake();
    const hold = new GestureHold(f.cy, f.r, { idleMs: 250 });
    const edge = { _private: { active: true }, id: () => 'e1', isEdge: () => true };
    const notified = () => f.calls.filter((c) => c === 'notify:style').length;
    // pressed (its style, then its bounds when next computed: the overlay's padding), then a pan starts (Cytoscape
    // unactivates it): nothing drawn for the press
    f.r.notify('style', [edge] as never);
    f.r.notify('bounds', [edge] as never);
    expect(notified()).toBe(0);
    f.r.hoverData.dragging = true;
    f.move(10);
    edge._private.active = false;
    f.r.notify('style', [edge] as never);
    f.r.notify('bounds', [edge] as never);
    f.r.hoverData.dragging = false;
    vi.advanceTimersByTime(1000);
    expect(f.calls.filter((c) => c === 'full')).toEqual(['full']); // the hold's one full frame
    expect(hold.stats).toMatchObject({ pressDeferred: 1, pressDrawn: 0, settled: 1, interrupted: 0 });
    expect(f.calls.filter((c) => c === 'notify:bounds')).toHaveLength(1); // the release's, during the hold (no frame of its own there)
    // pressed again during a hold (the next drag of a gesture): neither its bounds nor its style end the hold
    f.r.hoverData.dragging = true;
    f.move(10);
    f.r.hoverData.dragging = false;
    edge._private.active = true;
    f.r.notify('style', [edge] as never);
    f.r.notify('bounds', [edge] as never);
    edge._private.active = false;
    f.r.notify('style', [edge] as never);
    f.r.notify('bounds', [edge] as never);
    expect(hold.held).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(hold.stats).toMatchObject({ settled: 2, interrupted: 0 });
    const base = f.calls.filter((c) => c === 'notify:style').length;
    // pressed and released within PRESS_DRAW_MS (a click): nothing drawn for it either
    edge._private.active = true;
    f.r.notify('style', [edge] as never);
    vi.advanceTimersByTime(PRESS_DRAW_MS - 1);
    edge._private.active = false;
    f.r.notify('style', [edge] as never);
    vi.advanceTimersByTime(1000);
    expect(notified() - base).toBe(0); // nothing drawn for the click
    // pressed and held still: drawn after PRESS_DRAW_MS
    edge._private.active = true;
    f.r.notify('style', [edge] as never);
    vi.advanceTimersByTime(PRESS_DRAW_MS - 1);
    expect(notified() - base).toBe(0);
    vi.advanceTimersByTime(1);
    expect(notified() - base).toBe(1);
    expect(hold.stats.pressDrawn).toBe(1);
    // its release: drawn likewise (the overlay goes away)
    edge._private.active = false;
    f.r.notify('style', [edge] as never);
    vi.advanceTimersByTime(PRESS_DRAW_MS);
    expect(notified() - base).toBe(2);
    // another change meanwhile is drawn at once, with the press state as it is: no second frame for the press
    edge._private.active = true;
    f.r.notify('style', [edge] as never);
    f.r.notify('style', [{ _private: {}, id: () => 'n1', isEdge: () => false }] as never);
    expect(notified() - base).toBe(3);
    vi.advanceTimersByTime(1000);
    expect(notified() - base).toBe(3);
    // a node's press is not deferred (a press on a node grabs it and draws anyway)
    const node = { _private: { active: true }, id: () => 'n2', isEdge: () => false };
    f.r.notify('style', [node] as never);
    expect(notified() - base).toBe(4);
  });

  it('an element\'s bounds computed while a frame draws it ask for no second frame (when quietDrawBounds says so)', () => {
    for (const quiet of [true, false]) {
      const f = fake();
      const hints: string[] = [];
      const frames: string[] = [];
      const r = f.r as unknown as { redrawHint(g: string, on: boolean): void };
      r.redrawHint = (g: string) => { hints.push(g); };
      const render = f.r.render;
      // Cytoscape computes a stale bounding box while drawing the element, and announces it (emitAndNotify('bounds'))
      f.r.render = (o) => { frames.push('frame'); f.r.notify('bounds', [{ id: () => 'n1', isEdge: () => false }]); render(o); };
      f.r.redraw = () => { frames.push('redraw-asked'); };
      // as Cytoscape's notify: the redraw hints and a redraw, through the renderer's (wrapped) methods
      f.r.notify = (name: string) => { f.calls.push(`notify:${name}`); r.redrawHint('eles', true); f.r.redraw(); };
      const hold = new GestureHold(f.cy, f.r, { idleMs: 250, quietDrawBounds: () => quiet });
      f.r.render();
      expect(frames).toEqual(quiet ? ['frame'] : ['frame', 'redraw-asked']);
      expect(hints).toEqual(quiet ? [] : ['eles']);
      expect(hold.stats.boundsInDraw).toBe(quiet ? 1 : 0);
      // the renderer still hears of it (the scrub cache notes changes there), only without a frame asked for
      expect(f.calls.filter((c) => c === 'notify:bounds')).toHaveLength(1);
      // outside a frame, a bounds change asks for one as before
      f.r.notify('bounds', [{ id: () => 'n1', isEdge: () => false }]);
      expect(frames.at(-1)).toBe('redraw-asked');
      // and during a hold, a bounds change raised by a frame (a texture build) does not end it
      f.r.data.wheelZooming = true;
      f.move(0, 1.1);
      expect(hold.held).toBe(quiet);
      f.r.data.wheelZooming = false;
    }
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

  describe('a gesture\'s first bitmap copied from the element layer on screen (copyShown)', () => {
    /** the fake with an on-screen element layer (a canvas whose copies are recorded) */
    const withLayer = () => {
      const f = fake();
      const copies: unknown[] = [];
      const made: Array<{ width: number; height: number }> = [];
      const doc = {
        createElement: () => {
          const c = { width: 0, height: 0, getContext: () => ({ setTransform() { /* */ }, clearRect() { /* */ }, drawImage(src: unknown) { copies.push(src); } }) };
          made.push(c);
          return c;
        },
      };
      const layer = { width: 1000, height: 800, ownerDocument: doc };
      (f.r.data as { contexts?: unknown[] }).contexts = [undefined, undefined, { canvas: layer }];
      return { ...f, copies, made, layer };
    };

    it('a gesture right after a full frame starts from a copy of the layer at the view it was drawn at: no build', () => {
      const f = withLayer();
      const hold = new GestureHold(f.cy, f.r, { idleMs: 250, copyShown: () => true });
      f.r.redraw();
      f.calls.length = 0;
      f.r.hoverData.dragging = true;
      f.move(10); f.move(10);
      expect(f.calls).toEqual(['blit', 'blit']);
      expect(hold.stats.copied).toBe(1);
      expect(f.copies).toEqual([f.layer]);
      expect(f.made).toHaveLength(1);
      expect(f.r.textureCache?.viewport).toMatchObject({ zoom: 1, pan: { x: 0, y: 0 }, width: 1000, height: 800 });
      // the next gesture after a full frame: the same copy canvas, copied again
      f.r.hoverData.dragging = false;
      vi.advanceTimersByTime(250);
      f.r.hoverData.dragging = true;
      f.move(10);
      expect(hold.stats.copied).toBe(2);
      expect(f.made).toHaveLength(1);
      expect(f.r.textureCache?.viewport).toMatchObject({ pan: { x: 20, y: 0 } });
    });

    it('not after an element changed, another redraw was asked for, or a gesture frame painted over the layer; not when off', () => {
      for (const spoil of ['notify', 'hint', 'gesture', 'off'] as const) {
        const f = withLayer();
        const hold = new GestureHold(f.cy, f.r, { idleMs: 250, copyShown: () => spoil !== 'off' });
        f.r.redraw();
        if (spoil === 'notify') (f.r as unknown as { notify(n: string, e: unknown): void }).notify("style", [{ isEdge: () => false, id: () => "n1", _private: {} }]);
        if (spoil === 'hint') (f.r as unknown as { redrawHint(g: string, on: boolean): void }).redrawHint('eles', true);
        if (spoil === 'gesture') { f.r.data.wheelZooming = true; f.move(5); f.r.data.wheelZooming = false; vi.advanceTimersByTime(100); f.r.textureCache = null; }
        f.calls.length = 0;
        f.r.hoverData.dragging = true;
        f.move(10);
        // (the gesture frame before was itself copied; the layer then shows the bitmap, not the elements: no second copy)
        expect([spoil, hold.stats.copied]).toEqual([spoil, spoil === 'gesture' ? 1 : 0]);
        expect(f.calls).toContain('build');
      }
    });

    it('a view the program sets (holdView) is drawn from the copy at once, its full frame once the view has been still', () => {
      const f = withLayer();
      const settle = vi.fn();
      const hold = new GestureHold(f.cy, f.r, { idleMs: 250, copyShown: () => true, holdView: () => true, onSettle: settle });
      f.r.redraw();
      f.calls.length = 0;
      // a zoom in by 1.2 about the corner: the copy covers the whole new view
      f.move(0, 1.2);
      expect(hold.held).toBe(true);
      expect(f.calls).toEqual(['blit']);
      expect(hold.stats).toMatchObject({ viewHeld: 1, copied: 1 });
      expect(f.r.textureCache?.viewport).toMatchObject({ zoom: 1, pan: { x: 0, y: 0 } });
      // a user's drag right after it: the same hold, the same copy, still no full frame
      vi.advanceTimersByTime(200);
      f.r.hoverData.dragging = true;
      f.move(10); f.move(10);
      f.r.hoverData.dragging = false;
      expect(f.calls).toEqual(['blit', 'blit', 'blit']);
      vi.advanceTimersByTime(249);
      expect(settle).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      // still: the label pick (onSettle) and one full frame
      expect(settle).toHaveBeenCalledTimes(1);
      expect(f.calls).toEqual(['blit', 'blit', 'blit', 'full']);
      expect(hold.stats).toMatchObject({ settled: 1, viewHeld: 1, copied: 1 });
    });

    it('a view the program sets is drawn whole when the copy would not serve it, the layer is stale, an animation runs, or when off', () => {
      const cases: Array<[string, (f: ReturnType<typeof withLayer>) => void, number, boolean]> = [
        // [what, before the view change, zoom factor, holdView]
        ['magnified past VIEW_HOLD_MAX_SCALE', () => {}, VIEW_HOLD_MAX_SCALE * 1.05, true],
        ['shrunk past VIEW_HOLD_MAX_SCALE', () => {}, 1 / (VIEW_HOLD_MAX_SCALE * 1.05), true],
        // zoomed out 1.1x about the corner: the copy covers 1 / 1.21 = 83 % of the new view
        ['covering less than VIEW_HOLD_MIN_COVER', () => {}, 1 / 1.1, true],
        ['an element changed since the full frame', (f) => { (f.r as unknown as { notify(n: string, e: unknown): void }).notify('style', [{ isEdge: () => false, id: () => 'n1', _private: {} }]); }, 1.2, true],
        ['an animation', (f) => { f.view.animated = true; }, 1.2, true],
        ['off', () => {}, 1.2, false],
      ];
      for (const [what, before, z, on] of cases) {
        const f = withLayer();
        const hold = new GestureHold(f.cy, f.r, { idleMs: 250, copyShown: () => true, holdView: () => on });
        f.r.redraw();
        before(f);
        f.calls.length = 0;
        f.move(0, z);
        expect([what, hold.held, hold.stats.viewHeld, f.calls]).toEqual([what, false, 0, ['full']]);
      }
      // (the cover bound itself: 1 / 1.05 about the corner covers 91 %, held)
      const f = withLayer();
      const hold = new GestureHold(f.cy, f.r, { idleMs: 250, copyShown: () => true, holdView: () => true });
      f.r.redraw();
      f.move(0, 1 / 1.05);
      expect(hold.held).toBe(true);
      expect(VIEW_HOLD_MIN_COVER).toBeLessThan(1 / 1.05 ** 2);
    });

    it('a change of the view alone (a fit, a zoom button) keeps it: its own full frame is then the one copied', () => {
      const f = withLayer();
      const hold = new GestureHold(f.cy, f.r, { idleMs: 250, copyShown: () => true });
      f.r.redraw();
      f.move(0, 1.5);
      f.r.hoverData.dragging = true;
      f.move(10);
      expect(hold.stats.copied).toBe(1);
      expect(f.r.textureCache?.viewport).toMatchObject({ zoom: 1.5 });
    });
  });

  describe('the next gesture\'s bitmap built ahead', () => {
    beforeEach(() => {
      vi.stubGlobal('requestIdleCallback', (cb: () => void) => setTimeout(cb, 1) as unknown as number);
      vi.stubGlobal('cancelIdleCallback', (id: number) => clearTimeout(id));
    });
    afterEach(() => { vi.unstubAllGlobals(); });

    it('is built once the page is idle after a full frame (node layer, edges hidden), and the gesture starts from it', () => {
      const f = fake();
      const hold = new GestureHold(f.cy, f.r, { idleMs: 250, ahead: () => true });
      f.r.redraw();
      vi.advanceTimersByTime(AHEAD_DELAY_MS - 1);
      expect(hold.stats.ahead).toBe(0);
      vi.advanceTimersByTime(1);
      expect(hold.stats.ahead).toBe(0);
      // then the idle callback
      vi.advanceTimersByTime(1);
      expect(hold.stats.ahead).toBe(1);
      expect(f.calls.at(-1)).toBe('forced:nodes:no-edges');
      expect(f.r.textureCache?.viewport).toMatchObject({ zoom: 1, pan: { x: 0, y: 0 }, width: 1000, height: 800 });
      expect(f.r.data.wheelZooming).toBe(false);
      // the drag: its frames only blit
      f.calls.length = 0;
      f.r.hoverData.dragging = true;
      f.move(10); f.move(10);
      expect(f.calls).toEqual(['blit', 'blit']);
      expect(hold.stats.aheadUsed).toBe(1);
    });

    it('a frame of the select layer only (the press\'s background circle) keeps it; a frame of the node layer drops it', () => {
      const f = fake();
      const hold = new GestureHold(f.cy, f.r, { idleMs: 250, ahead: () => true });
      f.r.redraw();
      vi.advanceTimersByTime(AHEAD_DELAY_MS + 1);
      const tex = f.r.textureCache;
      expect(tex).not.toBeNull();
      f.r.data.canvasNeedsRedraw[0] = true;
      f.r.render();
      expect(f.calls.at(-1)).toBe('select');
      expect(f.r.textureCache).toBe(tex);
      f.calls.length = 0;
      f.r.hoverData.dragging = true;
      f.move(10);
      expect(f.calls).toEqual(['blit']);
      expect(hold.stats.aheadUsed).toBe(1);
      f.r.hoverData.dragging = false;
      // a later one (after the hold's full frame), dropped by a full frame
      vi.advanceTimersByTime(250);
      expect(f.calls.at(-1)).toBe('full');
      vi.advanceTimersByTime(AHEAD_DELAY_MS + 1);
      expect(hold.stats.ahead).toBe(2);
      f.r.redraw();
      expect(f.r.textureCache).toBeNull();
    });

    it('a frame before the build postpones it; a change of nodes drops a built one, of edges or the view does not; off when ahead() says no', () => {
      const f = fake();
      let on = true;
      const hold = new GestureHold(f.cy, f.r, { idleMs: 250, ahead: () => on });
      f.r.redraw();
      vi.advanceTimersByTime(AHEAD_DELAY_MS - 50);
      f.r.redraw();
      vi.advanceTimersByTime(AHEAD_DELAY_MS - 50);
      expect(hold.stats.ahead).toBe(0);
      vi.advanceTimersByTime(51);
      expect(hold.stats.ahead).toBe(1);
      const edge = { isEdge: () => true, id: () => 'e' }, node = { isEdge: () => false, id: () => 'n' };
      f.r.notify('style', [edge]);
      f.r.notify('viewport');
      expect(f.r.textureCache).not.toBeNull();
      f.r.notify('position', [node]);
      expect(f.r.textureCache).toBeNull();
      expect(hold.stats.aheadDropped).toBe(1);
      // the next full frame would schedule another; not while ahead() is false
      on = false;
      f.r.redraw();
      vi.advanceTimersByTime(AHEAD_DELAY_MS + 10);
      expect(hold.stats.ahead).toBe(1);
      expect(f.r.textureCache).toBeNull();
    });
  });
});
