/**
 * The canvas toolbar: search-to-focus, neighbourhood depth, filters (type,
 * layer, tag, relationship type, links, placeholders), fit/zoom, connect mode,
 * new entity, undo/redo (the write-back history) and the shortcut help.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Res } from '../../../shared/contract.js';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { filterChoices, linksByDefault, relLabel, type CanvasFilters } from './elements.js';

export interface ToolbarProps {
  connectMode: boolean;
  /** an explicit re-layout can be undone (positions before it are kept) */
  canUndoLayout: boolean;
  onRelayout(): void; onUndoLayout(): void;
  onFit(): void; onZoom(f: number): void; onConnectMode(): void; onCreate(): void; onHelp(): void;
}

function FocusSearch() {
  const [text, setText] = useState('');
  const [hits, setHits] = useState<Res<'entity-suggest'>>([]);
  useEffect(() => {
    if (!text.trim()) { setHits([]); return; }
    let live = true;
    const t = setTimeout(() => {
      api.call('entity-suggest', { prefix: text.trim(), limit: 8, audience: useApp.getState().audience }).then((h) => { if (live) setHits(h); }).catch(() => undefined);
    }, 100);
    return () => { live = false; clearTimeout(t); };
  }, [text]);
  const go = (id: string) => {
    setText(''); setHits([]);
    void useApp.getState().focusOn(id);
    void useApp.getState().select(id);
  };
  return (
    <div className="canvas-focus-search">
      <input data-testid="canvas-focus-input" type="search" placeholder="Focus on…" value={text} aria-label="Focus the canvas on an entity"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && hits[0]) go(hits[0].entity.id);
          if (e.key === 'Escape') { setText(''); (e.target as HTMLInputElement).blur(); }
        }} />
      {hits.length > 0 && (
        <ul className="canvas-suggest" role="listbox">
          {hits.map((h) => (
            <li key={h.entity.id}><button type="button" data-testid="canvas-focus-hit" onClick={() => go(h.entity.id)}>
              {h.entity.name} <span className="canvas-popup-note">{h.entity.type ?? 'placeholder'}</span>
            </button></li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Checks({ name, all, chosen, label, onChange }: {
  name: keyof CanvasFilters; all: string[]; chosen: string[] | undefined; label?: (s: string) => string; onChange(v: string[]): void;
}) {
  const set = new Set(chosen ?? []);
  return (
    <fieldset className="canvas-filter-group" data-filter={name}>
      <legend>{name === 'relTypes' ? 'relationships' : name} {set.size ? `(${set.size})` : '(all)'}</legend>
      {all.map((v) => (
        <label key={v}><input type="checkbox" data-testid="canvas-filter" data-group={name} data-value={v} checked={set.has(v)}
          onChange={(e) => { const n = new Set(set); if (e.target.checked) n.add(v); else n.delete(v); onChange([...n]); }} />
          {label ? label(v) : v}</label>
      ))}
    </fieldset>
  );
}

function Filters() {
  const graph = useApp((s) => s.graph);
  const filters = useApp((s) => s.canvasFilters);
  const setFilters = useApp((s) => s.setCanvasFilters);
  const choices = useMemo(() => (graph ? filterChoices(graph) : null), [graph]);
  const active = ['types', 'layers', 'tags', 'relTypes'].filter((k) => (filters[k as 'types']?.length ?? 0) > 0).length
    + (graph && filters.showLinks !== undefined && filters.showLinks !== linksByDefault(graph) ? 1 : 0) + (filters.showPlaceholders === false ? 1 : 0);
  if (!choices) return null;
  return (
    <details className="canvas-filters" data-testid="canvas-filters">
      <summary>Filters{active ? ` (${active})` : ''}</summary>
      <div className="canvas-filters-body">
        <Checks name="types" all={choices.types} chosen={filters.types} onChange={(v) => setFilters({ types: v })} />
        <Checks name="layers" all={choices.layers} chosen={filters.layers} onChange={(v) => setFilters({ layers: v })} />
        <Checks name="relTypes" all={choices.relTypes} chosen={filters.relTypes} label={relLabel} onChange={(v) => setFilters({ relTypes: v })} />
        <Checks name="tags" all={choices.tags} chosen={filters.tags} onChange={(v) => setFilters({ tags: v })} />
        <label><input type="checkbox" data-testid="canvas-show-links" checked={filters.showLinks ?? (graph ? linksByDefault(graph) : true)} onChange={(e) => setFilters({ showLinks: e.target.checked })} /> body links</label>
        <label><input type="checkbox" checked={filters.showPlaceholders !== false} onChange={(e) => setFilters({ showPlaceholders: e.target.checked })} /> placeholders</label>
        <button type="button" onClick={() => setFilters({ types: [], layers: [], tags: [], relTypes: [], showLinks: undefined, showPlaceholders: true })}>Clear filters</button>
      </div>
    </details>
  );
}

export function Toolbar(p: ToolbarProps) {
  const focus = useApp((s) => s.canvasFocus);
  const rootName = useApp((s) => (focus ? s.graph?.nodes.find((n) => n.id === focus.root)?.name ?? focus.root : null));
  // the players' view edits nothing: no write buttons (the core refuses writes in that mode anyway)
  const readOnly = useApp((st) => st.audience === 'players');
  return (
    <div className="canvas-toolbar" data-testid="canvas-toolbar">
      <FocusSearch />
      {focus && (
        <span className="canvas-focus-chip" data-testid="canvas-focus" data-root={focus.root} data-depth={focus.depth}>
          {rootName} ±
          <select aria-label="hops" value={focus.depth} onChange={(e) => void useApp.getState().focusOn(focus.root, Number(e.target.value))}>
            {[1, 2, 3].map((d) => <option key={d} value={d}>{d}</option>)}
          </select>
          <button type="button" title="Show everything (Esc)" data-testid="canvas-focus-clear" onClick={() => useApp.getState().clearFocus()}>×</button>
        </span>
      )}
      <Filters />
      <span className="spacer" />
      {!readOnly && (<>
        <button type="button" title="Undo (Ctrl/⌘Z)" onClick={() => void useApp.getState().undo()}>↶</button>
        <button type="button" title="Redo (Shift+Ctrl/⌘Z)" onClick={() => void useApp.getState().redo()}>↷</button>
        <button type="button" title="Connect mode (c)" aria-pressed={p.connectMode} data-testid="canvas-connect-mode"
          className={p.connectMode ? 'on' : ''} onClick={p.onConnectMode}>Connect</button>
        <button type="button" title="New entity (n)" data-testid="canvas-create" onClick={p.onCreate}>+ New</button>
      </>)}
      <button type="button" title="Zoom in (+)" data-testid="canvas-zoom-in" onClick={() => p.onZoom(1.25)}>+</button>
      <button type="button" title="Zoom out (-)" data-testid="canvas-zoom-out" onClick={() => p.onZoom(0.8)}>−</button>
      <button type="button" title="Fit (f)" data-testid="canvas-fit" onClick={p.onFit}>Fit</button>
      <button type="button" title="Lay the map out again; pinned nodes stay (l)" data-testid="canvas-relayout" onClick={p.onRelayout}>Re-layout</button>
      {p.canUndoLayout && (
        <button type="button" title="Put every node back where it was before the re-layout" data-testid="canvas-relayout-undo" onClick={p.onUndoLayout}>Undo layout</button>
      )}
      <button type="button" title="Shortcuts (?)" data-testid="canvas-help-button" onClick={p.onHelp}>?</button>
    </div>
  );
}
