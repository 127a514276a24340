/**
 * The entity panel's consequences of an event note, as sentences with the
 * entities as links ("Captain Varo is killed (status: dead)"), and editable:
 * "Edit" opens the consequences editor; Save writes the `consequences` field
 * through edit-set (one undo step).
 */
import { useMemo, useState } from 'react';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { errorText } from '../editor/slice.js';
import { ConsequencesEditor } from './ConsequencesEditor.js';
import { draftProblem, fromInput, sentence, toInput, type Draft } from './consequences.js';

export function ConsequencesPanel({ entityId, value }: { entityId: string; value: unknown }) {
  const schema = useApp((s) => s.schemaView);
  const statusFields = useMemo(() => schema?.statusFields ?? ['status'], [schema]);
  const select = useApp((s) => s.select);
  const [drafts, setDrafts] = useState<Draft[] | null>(null);
  const list = Array.isArray(value) ? value : [];
  const save = async () => {
    if (!drafts) return;
    const bad = drafts.map(draftProblem).find((p) => p !== null);
    if (bad) { useApp.getState().toast(`consequence: ${bad}`, 'error'); return; }
    try {
      await api.call('edit-set', { nameOrId: entityId, field: 'consequences', value: drafts.map((d) => toInput(d, statusFields[0] ?? 'status')) });
      setDrafts(null);
    } catch (e) {
      useApp.getState().toast(errorText(e), 'error');
    }
  };
  return (
    <div className="consequences" data-testid="entity-consequences">
      <div className="rel-label">consequences
        {!drafts && <button type="button" className="cons-edit" data-testid="consequences-edit" onClick={() => setDrafts(list.map((c) => fromInput(c, statusFields)))}>edit</button>}
      </div>
      {drafts ? (
        <>
          <ConsequencesEditor drafts={drafts} onChange={setDrafts} />
          <div className="cons-actions">
            <button type="button" data-testid="consequences-save" onClick={() => void save()}>Save</button>
            <button type="button" onClick={() => setDrafts(null)}>Cancel</button>
          </div>
        </>
      ) : (
        <ul>
          {list.map((c, i) => (
            <li key={i} data-testid="consequence">
              {sentence(c, statusFields).map((p, j) => ('link' in p
                ? <a key={j} href="#" className="wikilink" onClick={(e) => { e.preventDefault(); void select(p.link); }}>{p.link}</a>
                : <span key={j}>{p.text}</span>))}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
