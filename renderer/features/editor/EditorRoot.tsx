/**
 * Always mounted (App): the editor drawer, toasts, and the app-level undo/redo
 * keys. Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z and Ctrl+Y redo, through the
 * write-back history (edit-undo / edit-redo) — unless focus is in a text
 * field or the prose editor, whose own undo applies first.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { firstListsGate } from '../canvas/slice.js';
import { EntityEditor, loadProse } from './EntityEditor.js';
import { undoKey } from './keys.js';
import { errorText } from './slice.js';

export function EditorRoot() {
  const toasts = useApp((s) => s.toasts);
  const dismiss = useApp((s) => s.dismissToast);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const what = undoKey(e, e.target instanceof Element ? e.target : null);
      if (!what) return;
      e.preventDefault();
      void (what === 'undo' ? useApp.getState().undo() : useApp.getState().redo());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // the prose editor's chunk, fetched ahead of the first edit once the first load's lists are in (after a big
  // graph's first picture): opening the editor then waits for no fetch
  useEffect(() => { void firstListsGate().then(loadProse).catch(() => undefined); }, []);
  return (
    <>
      <EntityEditor />
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast ${t.kind}`} data-testid="toast" data-kind={t.kind} role={t.kind === 'error' ? 'alert' : 'status'}>
            <span>{t.text}</span>
            <button type="button" aria-label="dismiss" onClick={() => dismiss(t.id)}>×</button>
          </div>
        ))}
      </div>
    </>
  );
}

/**
 * The panel's "Edit" button (opens the editor drawer on the shown entity). For
 * a placeholder (a name only referenced) it offers to write its note: a type,
 * then edit-create (in the layer the name is referenced from), then the form.
 */
export function EditButton({ entityId, disabled }: { entityId: string; disabled?: boolean }) {
  const openEditor = useApp((s) => s.openEditor);
  const entity = useApp((s) => (s.entity?.id === entityId ? s.entity : null));
  const schemaView = useApp((s) => s.schemaView);
  const types = schemaView?.entityTypes.map((t) => t.name) ?? [];
  const toast = useApp((s) => s.toast);
  const [type, setType] = useState('');
  if (entity?.placeholder) {
    const t = type || types[0] || '';
    return (
      <span className="create-note" data-testid="create-note">
        <select aria-label="type of the new note" data-testid="create-note-type" value={t} onChange={(e) => setType(e.target.value)}>
          {types.map((x) => <option key={x} value={x}>{x}</option>)}
        </select>
        <button type="button" data-testid="create-note-submit" disabled={!t} onClick={() => void api.call('edit-create', { type: t, name: entity.name, layer: entity.layer })
          .then((r) => openEditor(r.id)).catch((e: unknown) => toast(errorText(e), 'error'))}>Create note</button>
      </span>
    );
  }
  return (
    <button type="button" className="edit-button" data-testid="edit-entity" disabled={disabled} onClick={() => void openEditor(entityId)}>
      Edit
    </button>
  );
}
