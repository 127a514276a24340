/**
 * "New event here": writes an event note at the scrubber's session
 * (timeline-create-event, through the write-back), in a layer the GM picks
 * (the campaign layers). Participants and location are names with completion
 * (links are written for them); consequences are entered row by row
 * (ConsequencesEditor) and written as the frontmatter the timeline reads.
 */
import { useState } from 'react';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { ConsequencesEditor } from './ConsequencesEditor.js';
import { EntityInput } from './EntityInput.js';
import { draftProblem, toInput, type Draft } from './consequences.js';

export function NewEventForm({ layer, layers, session, onDone }: { layer: string; layers: string[]; session: number; onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [date, setDate] = useState('');
  const [inLayer, setInLayer] = useState(layer);
  const [participants, setParticipants] = useState<string[]>([]);
  const [who, setWho] = useState('');
  const [location, setLocation] = useState('');
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const statusField = useApp((s) => s.schemaView?.statusFields?.[0] ?? 'status');

  // the typed names (comma-separated also works) after the chips
  const withTyped = () => [...new Set([...participants, ...who.split(',').map((x) => x.trim()).filter(Boolean)])];
  const addWho = () => { setParticipants(withTyped()); setWho(''); };

  const submit = async () => {
    if (!title.trim()) { setError('a title is needed'); return; }
    const bad = drafts.map(draftProblem).findIndex((p) => p !== null);
    if (bad >= 0) { setError(`consequence ${bad + 1}: ${draftProblem(drafts[bad]!)}`); return; }
    const all = withTyped();
    setBusy(true);
    setError(null);
    try {
      const r = await api.call('timeline-create-event', {
        layer: inLayer, session, title: title.trim(),
        ...(date.trim() ? { date: date.trim() } : {}),
        ...(all.length ? { participants: all } : {}),
        ...(location.trim() ? { location: location.trim() } : {}),
        ...(drafts.length ? { consequences: drafts.map((d) => toInput(d, statusField)) } : {}),
      });
      onDone();
      await useApp.getState().loadTimeline(inLayer);
      await useApp.getState().select(r.id || r.path);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="tl-form" data-testid="timeline-event-form" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <div className="tl-form-row">
        <strong>New event · session {session}</strong>
        <input data-testid="timeline-event-title" placeholder="title" value={title} onChange={(e) => setTitle(e.target.value)} autoFocus />
        <input data-testid="timeline-event-date" placeholder="in-world date (1203-06-14)" value={date} onChange={(e) => setDate(e.target.value)} />
        <label>layer <select data-testid="timeline-event-layer" value={inLayer} onChange={(e) => setInLayer(e.target.value)}>
          {layers.map((l) => <option key={l} value={l}>{l}</option>)}
        </select></label>
      </div>
      <div className="tl-form-row">
        <span className="tl-form-label">participants</span>
        {participants.map((p) => (
          <span key={p} className="tl-chip" data-testid="timeline-event-participant">{p}
            <button type="button" aria-label={`remove ${p}`} onClick={() => setParticipants(participants.filter((x) => x !== p))}>×</button>
          </span>
        ))}
        <EntityInput value={who} onChange={setWho} onEnter={addWho} placeholder="add a participant (Enter)" testId="timeline-event-participants" />
        <span className="tl-form-label">location</span>
        <EntityInput value={location} onChange={setLocation} placeholder="location" testId="timeline-event-location" />
      </div>
      <div className="tl-form-row">
        <span className="tl-form-label">consequences</span>
        <ConsequencesEditor drafts={drafts} onChange={setDrafts} />
      </div>
      <div className="tl-form-row">
        <button type="submit" data-testid="timeline-event-create" disabled={busy}>Create</button>
        <button type="button" onClick={onDone}>Cancel</button>
        {error && <span className="tl-error" data-testid="timeline-event-error" role="alert">{error}</span>}
      </div>
    </form>
  );
}
