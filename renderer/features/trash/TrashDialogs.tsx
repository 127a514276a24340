/**
 * Always mounted (App): the delete confirmation (lists the notes whose links
 * the delete leaves dangling), the entity context menu and the trash dialog.
 */
import { useEffect } from 'react';
import { useApp } from '../../store/index.js';
import './trash.css';

export function TrashButton() {
  const openTrash = useApp((s) => s.openTrash);
  return <button type="button" className="trash-open" data-testid="trash-open" onClick={() => void openTrash()}>Trash</button>;
}

function DeleteConfirm() {
  const ask = useApp((s) => s.deleteAsk);
  const confirm = useApp((s) => s.confirmDelete);
  const cancel = useApp((s) => s.cancelDelete);
  if (!ask) return null;
  return (
    <div className="trash-backdrop" onClick={(e) => { if (e.target === e.currentTarget) cancel(); }}>
      <div className="trash-dialog" role="dialog" aria-modal="true" aria-labelledby="delete-title" data-testid="delete-dialog"
        onKeyDown={(e) => { if (e.key === 'Escape') cancel(); }}>
        <h3 id="delete-title">Delete {ask.name}?</h3>
        <p><code>{ask.path}</code> moves to the vault&apos;s trash (<code>.lorecraft/trash</code>); Ctrl+Z brings it back.</p>
        {ask.referrers.length > 0 ? (
          <>
            <p>{ask.referrers.length} {ask.referrers.length === 1 ? 'note links' : 'notes link'} to it; {ask.referrers.length === 1 ? 'its link' : 'their links'} will point at nothing:</p>
            <ul className="trash-referrers" data-testid="delete-referrers">
              {ask.referrers.map((r) => <li key={r.path} title={r.path}>{r.name}</li>)}
            </ul>
          </>
        ) : <p>No other note links to it.</p>}
        <div className="trash-actions">
          <button type="button" onClick={cancel}>Cancel</button>
          {/* autoFocus: Enter confirms, Esc cancels */}
          <button type="button" className="danger" data-testid="delete-confirm" autoFocus onClick={() => void confirm()}>Delete</button>
        </div>
      </div>
    </div>
  );
}

function EntityMenu() {
  const menu = useApp((s) => s.entityMenu);
  const close = useApp((s) => s.closeEntityMenu);
  useEffect(() => {
    if (!menu) return;
    const off = (e: Event) => { if (!(e.target instanceof Element && e.target.closest('.entity-menu'))) close(); };
    const esc = (e: KeyboardEvent) => { if (e.key === 'Escape') close(); };
    window.addEventListener('mousedown', off);
    window.addEventListener('keydown', esc);
    return () => { window.removeEventListener('mousedown', off); window.removeEventListener('keydown', esc); };
  }, [menu, close]);
  if (!menu) return null;
  const s = useApp.getState();
  return (
    <div className="entity-menu" role="menu" data-testid="entity-menu" style={{ left: menu.x, top: menu.y }}>
      <button type="button" role="menuitem" onClick={() => { close(); void s.select(menu.id); }}>Show</button>
      <button type="button" role="menuitem" onClick={() => { close(); void s.openEditor(menu.id); }}>Edit</button>
      <button type="button" role="menuitem" className="danger" data-testid="entity-menu-delete" onClick={() => void s.askDelete(menu.id)}>Delete…</button>
    </div>
  );
}

function TrashList() {
  const items = useApp((s) => s.trashItems);
  const close = useApp((s) => s.closeTrash);
  const restore = useApp((s) => s.restoreFromTrash);
  if (!items) return null;
  return (
    <div className="trash-backdrop" onClick={(e) => { if (e.target === e.currentTarget) close(); }}>
      <div className="trash-dialog" role="dialog" aria-modal="true" aria-labelledby="trash-title" data-testid="trash-dialog"
        onKeyDown={(e) => { if (e.key === 'Escape') close(); }}>
        <h3 id="trash-title">Trash</h3>
        {items.length === 0 ? <p>The trash is empty.</p> : (
          <ul className="trash-items">
            {items.map((t) => (
              <li key={t.trashPath} data-testid="trash-item" data-path={t.path}>
                <span className="trash-path" title={t.trashPath}>{t.path}</span>
                <span className="trash-when">{new Date(t.deletedAt).toLocaleString()}</span>
                <button type="button" data-testid="trash-restore" onClick={() => void restore(t.trashPath)}>Restore</button>
              </li>
            ))}
          </ul>
        )}
        <div className="trash-actions"><button type="button" autoFocus onClick={close}>Close</button></div>
      </div>
    </div>
  );
}

export function TrashDialogs() {
  return <><DeleteConfirm /><EntityMenu /><TrashList /></>;
}
