/**
 * The canvas's small dialogs: the relationship picker shown after a drag
 * (only what edit-allowed-relationships offers; choosing one calls edit-link),
 * the new-entity dialog (type, name -> edit-create, then the editor form),
 * and the shortcut help.
 */
import { useEffect, useState } from 'react';
import type { AllowedRel } from '../../../shared/contract-edit.js';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { errorText } from '../editor/slice.js';
import { SHORTCUTS } from './keys.js';

export interface ConnectRequest { fromId: string; toId: string; at: { x: number; y: number } }

const nameOf = (id: string) => useApp.getState().graph?.nodes.find((n) => n.id === id)?.name ?? id;

export function ConnectMenu({ req, onClose }: { req: ConnectRequest; onClose(): void }) {
  const [options, setOptions] = useState<AllowedRel[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    api.call('edit-allowed-relationships', { fromId: req.fromId, toId: req.toId })
      .then((o) => { if (live) setOptions(o); })
      .catch((e: unknown) => { useApp.getState().toast(errorText(e), 'error'); onClose(); });
    return () => { live = false; };
  }, [req.fromId, req.toId, onClose]);
  // a single-valued field that holds something else: ask first (replace / cancel)
  const [confirm, setConfirm] = useState<AllowedRel | null>(null);
  const choose = async (o: AllowedRel, replace = false) => {
    if (o.refused) return;
    if (o.replaces !== undefined && !replace) { setConfirm(o); return; }
    setBusy(true);
    try {
      const r = await api.call('edit-link', { from: o.from, rel: o.rel, to: o.to });
      // say what was written, where: the added lines of the diff
      const ch = r.changed[0];
      const wrote = ch ? ch.diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1).trim()).join(' ') : '';
      useApp.getState().toast(ch ? `${nameOf(req.fromId)} ${o.label.toLowerCase().replace(/_/g, ' ')} ${nameOf(req.toId)}: wrote ${wrote} in ${ch.path}` : 'already linked: nothing to write');
    } catch (e) {
      useApp.getState().toast(errorText(e), 'error');
    }
    onClose();
  };
  const usable = options?.filter((o) => !o.refused) ?? [];
  return (
    <div className="canvas-popup" data-testid="connect-menu" role="menu" style={{ left: req.at.x, top: req.at.y }}
      aria-label={`Relationship from ${nameOf(req.fromId)} to ${nameOf(req.toId)}`}>
      <div className="canvas-popup-title">{nameOf(req.fromId)} → {nameOf(req.toId)}</div>
      {options === null && <div className="canvas-popup-note">…</div>}
      {options?.length === 0 && <div className="canvas-popup-note" data-testid="connect-none">The schema allows no relationship between these two.</div>}
      {confirm ? (
        <div data-testid="connect-replace">
          <div className="canvas-popup-note">{confirm.field} on {nameOf(confirm.on === 'from' ? confirm.from : confirm.to)} holds one value, now {confirm.replaces}. Replace it?</div>
          <div className="canvas-popup-row">
            <button type="button" data-testid="connect-replace-confirm" disabled={busy} onClick={() => void choose(confirm, true)}>Replace</button>
            <button type="button" onClick={() => setConfirm(null)}>Cancel</button>
          </div>
        </div>
      ) : options?.map((o) => (
        <button key={`${o.from}|${o.rel}|${o.to}|${o.field}`} type="button" role="menuitem" disabled={busy || !!o.refused} data-testid="connect-option"
          data-rel={o.rel} data-relationship={o.relationship} data-refused={o.refused ? '1' : undefined} title={o.refused ?? ''} onClick={() => void choose(o)}>
          <b>{o.label}</b> <span className="canvas-popup-note">{o.field} on {nameOf(o.on === 'from' ? o.from : o.to)}{o.replaces !== undefined ? ` (replaces ${o.replaces})` : ''}</span>
          {o.refused && <span className="canvas-popup-error" data-testid="connect-refused">{o.refused}</span>}
        </button>
      ))}
      {options && options.length > 0 && usable.length === 0 && !confirm && (
        <div className="canvas-popup-error" data-testid="connect-none">Nothing can be written: the layers cannot see each other this way.</div>
      )}
      <button type="button" className="canvas-popup-cancel" onClick={onClose}>Cancel</button>
    </div>
  );
}

export function CreateDialog({ at, onCreated, onClose }: {
  at: { x: number; y: number }; onCreated(id: string): void; onClose(): void;
}) {
  // select the stored array (a fresh array per render would loop the store subscription)
  const entityTypes = useApp((s) => s.schemaView?.entityTypes);
  const types = (entityTypes ?? []).map((t) => t.name);
  const [type, setType] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const t = type || types[0];
    if (!t || !name.trim()) { setError('a type and a name are needed'); return; }
    try {
      const r = await api.call('edit-create', { type: t, name: name.trim() });
      onCreated(r.id);
      onClose();
      void useApp.getState().openEditor(r.id);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <form className="canvas-popup" data-testid="create-dialog" style={{ left: at.x, top: at.y }}
      onSubmit={(e) => { e.preventDefault(); void submit(); }}
      onKeyDown={(e) => { if (e.key === 'Escape') onClose(); }}>
      <div className="canvas-popup-title">New entity</div>
      <label>Type <select data-testid="create-type" value={type || types[0] || ''} onChange={(e) => setType(e.target.value)}>
        {types.map((t) => <option key={t} value={t}>{t}</option>)}
      </select></label>
      <label>Name <input data-testid="create-name" autoFocus value={name} onChange={(e) => setName(e.target.value)} /></label>
      {error && <div className="canvas-popup-error" role="alert">{error}</div>}
      <div className="canvas-popup-row">
        <button type="submit" data-testid="create-submit">Create</button>
        <button type="button" onClick={onClose}>Cancel</button>
      </div>
    </form>
  );
}

export function HelpDialog({ onClose }: { onClose(): void }) {
  return (
    <div className="canvas-popup canvas-help" data-testid="canvas-help" role="dialog" aria-label="Canvas shortcuts">
      <div className="canvas-popup-title">Canvas shortcuts</div>
      <table><tbody>
        {SHORTCUTS.map((s) => <tr key={s.keys}><td><kbd>{s.keys}</kbd></td><td>{s.text}</td></tr>)}
        <tr><td><kbd>Ctrl/⌘ Z</kbd></td><td>undo (Shift for redo) — canvas and form edits alike</td></tr>
        <tr><td>drag a node</td><td>pin it there (saved in .lorecraft/canvas.json)</td></tr>
        <tr><td>double-click</td><td>a node: edit it · empty canvas: new entity</td></tr>
      </tbody></table>
      <button type="button" onClick={onClose}>Close</button>
    </div>
  );
}
