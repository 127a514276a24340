/**
 * The canvas's relationship UI (issue 18): hovering an edge shows its own
 * properties (the type's first declared one first), selecting one opens the
 * edge panel — a small form of the relationship type's declared properties plus
 * since / until — whose every change is one `edit-rel-set` / `edit-rel-unset`
 * (one item of one note, one undo step). Kept apart from the controller: it
 * only listens to the Cytoscape instance and reads the two ends' entity views.
 */
import type { Core as Cy, EdgeSingular, EventObject } from 'cytoscape';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { errorText } from '../editor/slice.js';
import { formValue, pickItem, hoverText, showValue, type CanvasEdge, type EdgeInfo, type RelTypeView } from './edge-info.js';

async function loadInfo(edge: CanvasEdge): Promise<EdgeInfo | null> {
  if (edge.type === 'LINKS_TO') return null;
  return pickItem(edge, await api.call('edit-rel-items', { from: edge.source, type: edge.type, to: edge.target }));
}

function relType(name: string): RelTypeView | undefined {
  return useApp.getState().schemaView?.relationshipTypes.find((r) => r.name === name);
}

/** The hovered edge's properties, in a tooltip beside the pointer. */
export function EdgeHover({ cy }: { cy: Cy | null }) {
  const [tip, setTip] = useState<{ x: number; y: number; text: string; key: string } | null>(null);
  // every refresh of the graph (an unchanged one too: graphSeq) may follow a write to a relationship's properties
  const graphSeq = useApp((s) => s.graphSeq);
  const cache = useRef(new Map<string, Promise<string>>());
  useEffect(() => { cache.current = new Map(); }, [graphSeq]);
  useEffect(() => {
    if (!cy) return;
    let current = '';
    const over = (e: EventObject) => {
      const d = (e.target as EdgeSingular).data() as CanvasEdge;
      if (!d.type || d.type === 'LINKS_TO') return;
      const key = `${d.source}|${d.type}|${d.target}`;
      current = key;
      const at = e.renderedPosition;
      let p = cache.current.get(key);
      if (!p) {
        p = loadInfo(d).then((i) => (i ? hoverText(i, relType(d.type)) : ''), () => '');
        cache.current.set(key, p);
      }
      void p.then((text) => { if (current === key && text) setTip({ x: at.x, y: at.y, text, key }); });
    };
    const out = () => { current = ''; setTip(null); };
    cy.on('mouseover', 'edge', over);
    cy.on('mouseout', 'edge', out);
    cy.on('pan zoom', out);
    return () => { cy.off('mouseover', 'edge', over); cy.off('mouseout', 'edge', out); cy.off('pan zoom', out); };
  }, [cy]);
  if (!tip) return null;
  return (
    <div className="canvas-edge-tip" data-testid="canvas-edge-tip" data-edge={tip.key} style={{ left: tip.x + 12, top: tip.y + 40 }}>{tip.text}</div>
  );
}

/** One field of the form: a select for an enum, a text/number input otherwise; committed on change / blur / Enter. */
function Field({ name, type, values, value, onCommit }: {
  name: string; type: string | undefined; values?: Array<string | number | boolean>; value: unknown; onCommit: (raw: string) => void;
}) {
  const shown = value === undefined || value === null ? '' : String(value);
  const [draft, setDraft] = useState(shown);
  useEffect(() => setDraft(shown), [shown]);
  if (values?.length) {
    return (
      <select data-testid="edge-prop" data-key={name} value={shown} onChange={(e) => onCommit(e.target.value)}>
        <option value="">—</option>
        {values.map((v) => <option key={String(v)} value={String(v)}>{String(v)}</option>)}
      </select>
    );
  }
  const commit = () => { if (draft !== shown) onCommit(draft); };
  return (
    <input data-testid="edge-prop" data-key={name} value={draft} inputMode={type === 'integer' || type === 'number' ? 'numeric' : undefined}
      placeholder={name === 'since' || name === 'until' ? 'session or event' : ''}
      onChange={(e) => setDraft(e.target.value)} onBlur={commit} onKeyDown={(e) => { if (e.key === 'Enter') commit(); }} />
  );
}

/** The selected edge: its name, its properties as a form, and "remove" (the old edge bar's action). */
export function EdgePanel({ edge, onRemove }: { edge: CanvasEdge; onRemove: () => void }) {
  const graphSeq = useApp((s) => s.graphSeq);
  const [info, setInfo] = useState<EdgeInfo | null | undefined>(undefined);
  const key = `${edge.source}|${edge.type}|${edge.target}`;
  useEffect(() => {
    let live = true;
    loadInfo(edge).then((i) => { if (live) setInfo(i); }, () => { if (live) setInfo(null); });
    return () => { live = false; };
    // the graph is refreshed after every write (graphSeq counts refreshes, an unchanged graph's too): read the item again
  }, [key, graphSeq]);

  const type = relType(edge.type);
  const fields: Array<{ name: string; type: string | undefined; values?: Array<string | number | boolean> }> = [
    ...(type?.properties ?? []).map((p) => ({ name: p.name, type: p.type, ...(p.values ? { values: p.values } : {}) })),
    { name: 'since', type: undefined }, { name: 'until', type: undefined },
  ];
  const commit = async (name: string, kind: string | undefined, raw: string) => {
    if (!info) return;
    const value = formValue(raw, kind);
    const args = { from: info.holder.id, rel: info.rel, to: info.other.id, key: name };
    try {
      if (value === null) await api.call('edit-rel-unset', args);
      else await api.call('edit-rel-set', { ...args, value });
    } catch (e) {
      useApp.getState().toast(errorText(e), 'error');
    }
  };
  return (
    <div className="canvas-edge-bar edge-panel" data-testid="canvas-edge-bar">
      <div className="edge-title" data-testid="edge-panel-title">
        {info ? <>{info.holder.name} <b>{info.rel.toLowerCase().replace(/_/g, ' ')}</b> {info.other.name}</> : <b>{edge.type.toLowerCase().replace(/_/g, ' ')}</b>}
      </div>
      {info && (
        <form className="edge-props" data-testid="edge-panel" data-path={info.path} onSubmit={(e) => e.preventDefault()}>
          {fields.map((f) => (
            <label key={f.name}>
              <span>{f.name}</span>
              <Field name={f.name} type={f.type} {...(f.values ? { values: f.values } : {})} value={f.values ? info.properties[f.name] : info.properties[f.name] === undefined ? undefined : showValue(info.properties[f.name])}
                onCommit={(raw) => void commit(f.name, f.type, raw)} />
            </label>
          ))}
          <span className="edge-where" title="the note that writes this relationship">in {info.path}</span>
        </form>
      )}
      {info === null && edge.type === 'LINKS_TO' && <span className="edge-where">a [[link]] in the prose</span>}
      <button type="button" data-testid="canvas-edge-delete" onClick={onRemove}>Remove relationship (Del)</button>
    </div>
  );
}
