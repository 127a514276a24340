/**
 * Always mounted (App): the editor drawer, toasts, and the app-level undo/redo
 * keys. Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z and Ctrl+Y redo, through the
 * write-back history (edit-undo / edit-redo) — unless focus is in a text
 * field or the prose editor, whose own undo applies first.
 */
import { useEffect } from 'react';
import { useApp } from '../../store/index.js';
import { EntityEditor } from './EntityEditor.js';
import { undoKey } from './keys.js';

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

/** The panel's "Edit" button (opens the editor drawer on the shown entity). */
export function EditButton({ entityId, disabled }: { entityId: string; disabled?: boolean }) {
  const openEditor = useApp((s) => s.openEditor);
  return (
    <button type="button" className="edit-button" data-testid="edit-entity" disabled={disabled} onClick={() => void openEditor(entityId)}>
      Edit
    </button>
  );
}
