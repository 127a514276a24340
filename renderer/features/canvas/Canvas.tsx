/**
 * The graph canvas. Elements come from the pure `toElements` (elements.ts);
 * this component keeps one CanvasController (controller.ts) alive and feeds
 * it, wires the keyboard and the dialogs, and mirrors the graph as an
 * accessible list (`data-testid="canvas-list"`, each item with `data-id` and
 * `data-status`) that screen readers and e2e tests read.
 *
 * Test/bench hook: `window.__lorecraftCanvas` = { cy, controller, metrics, focus }.
 */
import type { Core as Cy } from 'cytoscape';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { errorText } from '../editor/slice.js';
import { CanvasController, type CanvasMetrics, type ControllerEvents } from './controller.js';
import { baseElements, type CanvasElements } from './elements.js';
import { indexElements, overlaid } from './overlaid.js';
import { useOverlaySteps } from './useOverlaySteps.js';
import { canvasAction, isEditable } from './keys.js';
import { ConnectMenu, CreateDialog, HelpDialog, type ConnectRequest } from './Popups.js';
import { EdgeHover, EdgePanel } from './EdgePanel.js';
import { LIST_SLICE, listShown } from './listSlice.js';
import { Toolbar } from './Toolbar.js';
import './canvas.css';

declare global {
  interface Window {
    __lorecraft?: { cy?: Cy };
    __lorecraftCanvas?: {
      /** the graph shown: the focused neighbourhood's (the focus layer) while focused, else the whole graph's */
      cy: Cy; controller: CanvasController; metrics: CanvasMetrics;
      /** the toolbar's focus action (bench: time to show a neighbourhood) */
      focus(nameOrId: string, depth?: number): Promise<void>;
      /** the root whose neighbourhood the focus layer shows, null when none (bench, tests) */
      focused?(): string | null;
    };
  }
}

/** The list mirror is skipped past this many nodes (the DOM would cost more than the canvas). */
const LIST_LIMIT = 3000;

/** How many of `total` list items to render now; a long list grows by LIST_SLICE per idle callback (listSlice.ts). */
function useListSlice(total: number): number {
  const [grown, setGrown] = useState(LIST_SLICE);
  const shown = listShown(total, grown);
  const done = shown >= total;
  useEffect(() => {
    if (done) return;
    const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };
    const grow = () => setGrown((g) => g + LIST_SLICE);
    if (w.requestIdleCallback && w.cancelIdleCallback) {
      const id = w.requestIdleCallback(grow, { timeout: 500 });
      return () => w.cancelIdleCallback!(id);
    }
    const id = setTimeout(grow, 16);
    return () => clearTimeout(id);
  }, [done, grown]);
  return shown;
}

const CanvasList = memo(function CanvasList({ els }: { els: CanvasElements }) {
  const skipped = els.nodes.length > LIST_LIMIT;
  // nothing to grow when the list is skipped (no idle re-renders while a big graph lays out)
  const shown = useListSlice(skipped ? 0 : els.nodes.length + els.edges.length);
  if (skipped) {
    return <p className="sr-only" data-testid="canvas-list-skipped">{els.nodes.length} entities: list omitted, use search.</p>;
  }
  return (
    <ul className="sr-only" data-testid="canvas-list" aria-label="Entities on the canvas">
      {els.nodes.slice(0, shown).map((n) => (
        <li key={n.data.id} data-id={n.data.id} data-type={n.data.type} data-status={n.data.status} data-classes={n.classes}>
          {n.data.label}{n.data.status !== 'normal' ? ` (${n.data.status}${n.data.note ? `: ${n.data.note}` : ''})` : ''}
        </li>
      ))}
      {els.edges.slice(0, Math.max(0, shown - els.nodes.length)).map((e) => (
        <li key={e.data.id} data-edge-id={e.data.id} data-source={e.data.source} data-target={e.data.target}
          data-type={e.data.type} data-status={e.data.status}>
          {e.data.source} {e.data.label || 'links to'} {e.data.target}
        </li>
      ))}
    </ul>
  );
});

function useWebgl(): boolean {
  return useMemo(() => {
    try { return new URLSearchParams(window.location.search).get('webgl') === '1' || localStorage.getItem('lorecraft.webgl') === '1'; }
    catch { return false; }
  }, []);
}

/** Keep the relationship menu inside the canvas (it opens beside the drop target). */
function clampAt(at: { x: number; y: number }, c: CanvasController): { x: number; y: number } {
  return { x: Math.max(4, Math.min(at.x + 12, c.cy.width() - 260)), y: Math.max(36, Math.min(at.y + 12, c.cy.height() - 160)) };
}

export function Canvas() {
  const graph = useApp((s) => s.graph);
  const styles = useApp((s) => s.schemaView?.entityTypes);
  const relTypes = useApp((s) => s.schemaView?.relationshipTypes);
  const selectedId = useApp((s) => s.selectedId);
  const filters = useApp((s) => s.canvasFilters);
  const focus = useApp((s) => s.canvasFocus);
  // a scrubber step reaches the canvas outside React (useOverlaySteps); a focus's hops follow the overlay, so then it re-renders
  const focusOverlay = useApp((s) => (s.canvasFocus ? s.canvasOverlay : null));
  const pins = useApp((s) => s.canvasPins);
  const rank = useApp((s) => s.canvasRank);
  const host = useRef<HTMLDivElement>(null);
  const emphasisHost = useRef<HTMLDivElement>(null);
  const focusWrap = useRef<HTMLDivElement>(null);
  const focusHost = useRef<HTMLDivElement>(null);
  const focusEmphasisHost = useRef<HTMLDivElement>(null);
  const ctl = useRef<CanvasController | null>(null);
  /**
   * The focused neighbourhood is shown by a second, small controller on its own
   * canvas laid over the big one (opaque: the big graph is neither restyled nor
   * redrawn). Focusing costs O(the neighbourhood) on the canvas, not O(graph).
   */
  const focusCtl = useRef<CanvasController | null>(null);
  /** the root the focus layer shows (null: hidden) */
  const focusShown = useRef<string | null>(null);
  /** the controller the GM sees and acts on */
  const cur = useCallback(() => (focusShown.current ? focusCtl.current : ctl.current), []);
  const webgl = useWebgl();
  const [connect, setConnect] = useState<ConnectRequest | null>(null);
  const [create, setCreate] = useState<{ x: number; y: number } | null>(null);
  const [help, setHelp] = useState(false);
  const [connectMode, setConnectMode] = useState(false);
  const [edge, setEdge] = useState<{ source: string; target: string; type: string } | null>(null);
  const [canUndoLayout, setCanUndoLayout] = useState(false);
  const [cyLive, setCyLive] = useState<Cy | null>(null);
  const [focusCyLive, setFocusCyLive] = useState<Cy | null>(null);

  const pinnedSet = useMemo(() => new Set(Object.keys(pins)), [pins]);
  // the overlay-free elements (elements.ts); the timeline overlay is laid on them by the controller (overlaid.ts)
  // the whole graph (the big canvas): a focus does not change it
  const els = useMemo(
    () => (graph ? baseElements(graph, { styles, relTypes, selectedId, filters, pinned: pinnedSet, rank }) : null),
    [graph, styles, relTypes, selectedId, filters, pinnedSet, rank],
  );
  const ix = useMemo(() => (graph && els ? indexElements(els, graph, { relTypes, filters, selectedId }) : null), [els]); // graph, relTypes, filters and selectedId are in els's deps
  // the focused neighbourhood (the focus layer)
  const focusEls = useMemo(
    () => (graph && focus ? baseElements(graph, { styles, relTypes, selectedId, filters, focus, overlay: focusOverlay, pinned: pinnedSet, rank }) : null),
    [graph, styles, relTypes, selectedId, filters, focus, focusOverlay, pinnedSet, rank],
  );
  const focusIx = useMemo(() => (graph && focusEls ? indexElements(focusEls, graph, { relTypes, filters, selectedId }) : null), [focusEls]);
  const shownEls = focusEls ?? els;
  const listOverlay = useOverlaySteps(ctl);
  // the first picture (laid out or saved) is placed: the list mirror and the importance request wait for it
  const [pictured, setPictured] = useState(false);
  // the list mirror (thousands of <li> on a big vault) renders after the canvas has its first picture, not before
  const shownIx = pictured ? focusIx ?? ix : null;
  const listEls = useDeferredValue(useMemo(() => (shownIx ? overlaid(shownIx, listOverlay) : null), [shownIx, listOverlay]));

  useEffect(() => {
    // what a gesture on either canvas (the big graph, the focus layer) asks of the app; `self` is that canvas
    const events = (self: () => CanvasController): Omit<ControllerEvents, 'laidOut'> => ({
      select: (id) => void useApp.getState().select(id),
      open: (id) => void useApp.getState().openEditor(id),
      // the players' view is read-only: no new entity, no drag-to-connect
      createAt: (at) => { if (!useApp.getState().readOnly()) setCreate(at); },
      connect: (fromId, toId, at) => { if (!useApp.getState().readOnly()) setConnect({ fromId, toId, at: clampAt(at, self()) }); },
      pin: (changes) => void useApp.getState().setPins(changes),
      edgeSelected: setEdge,
      menu: (id, at) => useApp.getState().openEntityMenu(id, at.x, at.y),
    });
    const c = new CanvasController(host.current!, {
      ...events((): CanvasController => c),
      laidOut: (positions, replace) => { void useApp.getState().saveLayout(positions, replace); setCanUndoLayout(c.canUndoRelayout); },
      firstPicture: () => { setPictured(true); useApp.getState().canvasFirstPicture(); },
      firstPainted: () => { useApp.getState().canvasFirstPainted(); },
    }, { webgl, emphasis: emphasisHost.current! });
    const f = new CanvasController(focusHost.current!, {
      ...events((): CanvasController => f),
      // a layout of the neighbourhood (l): those nodes move on the big graph too, the rest of the saved picture stays
      laidOut: (positions) => {
        c.cy.batch(() => { for (const [id, p] of Object.entries(positions)) c.cy.getElementById(id).position(p); });
        void useApp.getState().saveLayout(positions, false);
      },
    }, { webgl, layer: true, emphasis: focusEmphasisHost.current! });
    ctl.current = c;
    focusCtl.current = f;
    setCyLive(c.cy);
    setFocusCyLive(f.cy);
    c.prepareSteps(useApp.getState().canvasSteps);
    window.__lorecraft = { ...window.__lorecraft, cy: c.cy };
    window.__lorecraftCanvas = {
      get cy() { return (focusShown.current ? f : c).cy; },
      get controller() { return focusShown.current ? f : c; },
      metrics: c.metrics,
      focus: (id, d) => useApp.getState().focusOn(id, d),
      focused: () => focusShown.current,
    };
    return () => { c.destroy(); f.destroy(); ctl.current = null; focusCtl.current = null; focusShown.current = null; setCyLive(null); setFocusCyLive(null); };
  }, [webgl]);

  useEffect(() => {
    if (!ctl.current || !ix) return;
    const s = useApp.getState();
    ctl.current.show(ix, s.canvasOverlay, s.canvasPins, s.canvasLayout);
  }, [ix]);

  // the focus layer: shown over the big canvas with the neighbourhood at the big graph's positions, fitted to it
  const fitted = useRef<string>('');
  useEffect(() => {
    const f = focusCtl.current, c = ctl.current, wrap = focusWrap.current;
    if (!f || !c || !wrap) return;
    if (!focusIx || !focus) {
      wrap.style.display = 'none';
      focusShown.current = null;
      fitted.current = '';
      c.setCovered(false);
      return;
    }
    const s = useApp.getState();
    const at: Record<string, { x: number; y: number }> = {};
    for (const n of focusIx.els.nodes) {
      const b = c.cy.getElementById(n.data.id);
      const p = b.nonempty() ? b.position() : s.canvasLayout[n.data.id];
      if (p) at[n.data.id] = { x: p.x, y: p.y };
    }
    if (wrap.style.display === 'none') { wrap.style.display = ''; f.cy.resize(); }
    f.show(focusIx, s.canvasOverlay, s.canvasPins, at);
    // nodes kept from an earlier focus go where the big graph has them now
    f.cy.batch(() => { for (const [id, p] of Object.entries(at)) { const n = f.cy.getElementById(id); if (n.nonempty() && !n.grabbed()) n.position(p); } });
    const key = `${focus.root}|${focus.depth}`;
    if (fitted.current !== key) { fitted.current = key; f.fit(); }
    focusShown.current = focus.root;
    // the layer is opaque: the big graph draws nothing until it is hidden again
    c.setCovered(true);
  }, [focusIx]); // focus is in focusIx's deps

  /** the selection the shown canvas last brought into view ('focus|id' or 'graph|id') */
  const revealed = useRef<string>('');
  useEffect(() => {
    // both canvases follow the selection; the one shown brings it into view once per selection (and per canvas: the
    // focus layer, the whole graph), when its node is there. A later graph of the same selection (a file changed,
    // the importance ranks arrived) does not move the camera the GM may have moved since.
    ctl.current?.emphasise(selectedId);
    focusCtl.current?.emphasise(focusIx ? selectedId : null);
    const key = selectedId ? `${focusIx ? 'focus' : 'graph'}|${selectedId}` : '';
    if (!key) revealed.current = '';
    else if (revealed.current !== key && cur()?.reveal(selectedId!)) revealed.current = key;
  }, [selectedId, ix, focusIx, cur]);
  useEffect(() => { ctl.current?.setDrawMode(connectMode); focusCtl.current?.setDrawMode(connectMode); }, [connectMode]);

  const closeConnect = useCallback(() => setConnect(null), []);
  const deleteEdge = useCallback(async () => {
    if (useApp.getState().readOnly()) return;
    const e = cur()?.selectedEdge() ?? edge;
    if (!e) return;
    if (e.type === 'LINKS_TO') { useApp.getState().toast('a body [[link]]: remove it in the prose', 'error'); return; }
    try {
      await api.call('edit-unlink', { from: e.source, rel: e.type, to: e.target });
      setEdge(null);
    } catch (err) {
      useApp.getState().toast(errorText(err), 'error');
    }
  }, [edge, cur]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = canvasAction(e, isEditable(e.target));
      const c = cur();
      if (!action || !c) return;
      const s = useApp.getState();
      // the editor drawer owns the keyboard while open
      if (s.editorId) return;
      switch (action) {
        case 'fit': c.fit(); break;
        case 'zoom-in': c.zoomBy(1.25); break;
        case 'zoom-out': c.zoomBy(0.8); break;
        case 'clear':
          setConnect(null); setCreate(null); setHelp(false); setConnectMode(false);
          ctl.current?.cy.edges(':selected').unselect();
          focusCtl.current?.cy.edges(':selected').unselect();
          s.clearFocus();
          break;
        case 'focus': if (s.selectedId) void s.focusOn(s.selectedId); break;
        case 'depth-1': case 'depth-2': case 'depth-3':
          if (s.canvasFocus) void s.focusOn(s.canvasFocus.root, Number(action.slice(-1)));
          break;
        case 'connect-mode': setConnectMode((m) => !m); break;
        case 'delete':
          e.preventDefault();
          // a selected relationship first; otherwise the selected entity (with a confirmation)
          if (c.selectedEdge()) void deleteEdge();
          else if (s.selectedId && !s.deleteAsk && !s.entity?.placeholder) void s.askDelete(s.selectedId);
          break;
        case 'unpin': if (s.selectedId && s.canvasPins[s.selectedId]) void s.setPins({ [s.selectedId]: null }); break;
        case 'create': e.preventDefault(); if (!useApp.getState().readOnly()) setCreate({ x: c.cy.width() / 2 - 100, y: 60 }); break;
        case 'relayout': void c.relayout(); break;
        case 'help': setHelp((h) => !h); break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [deleteEdge, cur]);

  const onCreated = (id: string) => {
    const c = cur();
    if (!c || !create) return;
    // pin the new entity where the GM double-clicked
    const pan = c.cy.pan(), z = c.cy.zoom();
    void useApp.getState().setPins({ [id]: { x: (create.x - pan.x) / z, y: (create.y - pan.y) / z } });
  };

  return (
    <div className="canvas-wrap">
      <Toolbar connectMode={connectMode} canUndoLayout={canUndoLayout}
        onRelayout={() => void cur()?.relayout()}
        onUndoLayout={() => { ctl.current?.undoRelayout(); setCanUndoLayout(!!ctl.current?.canUndoRelayout); }} onFit={() => cur()?.fit()} onZoom={(f) => cur()?.zoomBy(f)}
        onConnectMode={() => setConnectMode((m) => !m)} onHelp={() => setHelp((h) => !h)}
        onCreate={() => { if (!useApp.getState().readOnly()) setCreate({ x: (ctl.current?.cy.width() ?? 400) / 2 - 100, y: 60 }); }} />
      {/* Cytoscape's containers are children: the attributes below change without Cytoscape
          taking them for a resize of its container (a full redraw of the big graph each time) */}
      <div
        className="canvas"
        data-testid="canvas"
        data-node-count={shownEls?.nodes.length ?? 0}
        data-edge-count={(listEls ?? shownEls)?.edges.length ?? 0}
        data-focus={focus?.root ?? ''}
        data-emphasis={selectedId ?? ''}
        data-connect-mode={connectMode ? '1' : '0'}
        data-selected-edge={edge ? `${edge.source}|${edge.type}|${edge.target}` : ''}
      >
        <div className="canvas-cy" ref={host} />
        <div className="canvas-emphasis" ref={emphasisHost} />
        <div className="canvas-focus-layer" ref={focusWrap} style={{ display: 'none' }} data-testid="canvas-focus-layer">
          <div className="canvas-cy" ref={focusHost} />
          <div className="canvas-emphasis" ref={focusEmphasisHost} />
        </div>
      </div>
      {edge && <EdgePanel edge={edge} onRemove={() => void deleteEdge()} />}
      <EdgeHover cy={focus ? focusCyLive : cyLive} />
      {connect && <ConnectMenu req={connect} onClose={closeConnect} />}
      {create && <CreateDialog at={create} onCreated={onCreated} onClose={() => setCreate(null)} />}
      {help && <HelpDialog onClose={() => setHelp(false)} />}
      {listEls && <CanvasList els={listEls} />}
    </div>
  );
}
