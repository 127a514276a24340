/**
 * "New event here": a small form that writes an event note in the campaign
 * layer at the scrubber's session (timeline-create-event, through the
 * write-back). Participants and location are names (links are written for them).
 */
import { useState } from 'react';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';

const names = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

export function NewEventForm({ layer, session, onDone }: { layer: string; session: number; onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [date, setDate] = useState('');
  const [participants, setParticipants] = useState('');
  const [location, setLocation] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (!title.trim()) { setError('a title is needed'); return; }
    setBusy(true);
    setError(null);
    try {
      const r = await api.call('timeline-create-event', {
        layer, session, title: title.trim(),
        ...(date.trim() ? { date: date.trim() } : {}),
        ...(names(participants).length ? { participants: names(participants) } : {}),
        ...(location.trim() ? { location: location.trim() } : {}),
      });
      onDone();
      await useApp.getState().loadTimeline(layer);
      await useApp.getState().select(r.id || r.path);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="tl-form" data-testid="timeline-event-form" onSubmit={(e) => { e.preventDefault(); void submit(); }}>
      <strong>New event · session {session}</strong>
      <input data-testid="timeline-event-title" placeholder="title" value={title} onChange={(e) => setTitle(e.target.value)} autoFocus />
      <input data-testid="timeline-event-date" placeholder="in-world date (1203-06-14)" value={date} onChange={(e) => setDate(e.target.value)} />
      <input data-testid="timeline-event-participants" placeholder="participants, comma-separated" value={participants} onChange={(e) => setParticipants(e.target.value)} />
      <input data-testid="timeline-event-location" placeholder="location" value={location} onChange={(e) => setLocation(e.target.value)} />
      <button type="submit" data-testid="timeline-event-create" disabled={busy}>Create</button>
      <button type="button" onClick={onDone}>Cancel</button>
      {error && <span className="tl-error" data-testid="timeline-event-error" role="alert">{error}</span>}
    </form>
  );
}
