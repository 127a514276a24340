/**
 * The entity panel's "as of session N" section: the selected entity's values
 * at the scrubber's session, each changed one with its provenance
 * ("status: dead ← The Death of Captain Varo, session 5"). Hidden while the
 * scrubber is off.
 */
import { useMemo } from 'react';
import { useApp } from '../../store/index.js';
import { relationRows, stateRows, stopIndex, stopsOf } from './model.js';

export function TimelineState() {
  const st = useApp((s) => s.timelineState);
  // the state arrives after the step's frame: label it with the session it is of, never the newer one
  const session = useApp((s) => (s.timelineSession === null ? null : s.timelineStateAt ?? s.timelineSession));
  const t = useApp((s) => s.timeline);
  const selectedId = useApp((s) => s.selectedId);
  const graph = useApp((s) => s.graph);
  const relTypes = useApp((s) => s.schemaView?.relationshipTypes);
  const rows = useMemo(() => (st ? stateRows(st) : []), [st]);
  const rels = useMemo(() => {
    if (!st) return [];
    const names = new Map((graph?.nodes ?? []).map((n) => [n.id, n.name]));
    const symmetric = new Set((relTypes ?? []).filter((r) => r.symmetric).map((r) => r.name));
    return relationRows(st, (id) => names.get(id) ?? id.slice(id.indexOf('/') + 1), symmetric);
  }, [st, graph, relTypes]);
  if (session === null || !t || !st || st.id !== selectedId) return null;
  const stops = stopsOf(t);
  const label = stops[stopIndex(stops, session)]?.label ?? `session ${session}`;
  // as on the canvas: dead wins over destroyed (a slain NPC is dead, not a ruin)
  const status = st.dead ? 'dead' : st.lifecycle === 'exists' ? 'alive' : st.lifecycle;
  return (
    <section className="tl-state" data-testid="timeline-state" data-status={status} data-session={session}>
      <div className="tl-state-head">As of {label} <span className={`tl-status ${status}`} data-testid="timeline-state-status">{status === 'alive' ? 'exists' : status.replace(/-/g, ' ')}</span></div>
      <table className="props">
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className={r.changed ? 'changed' : ''} data-testid="timeline-state-prop" data-key={r.key}>
              <th>{r.key}</th>
              <td><span className="v">{r.value}</span>{r.source && <span className="prov" title={r.source}> {r.source}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rels.length > 0 && (
        <ul className="tl-rels" data-testid="timeline-state-relations">
          {rels.map((r) => (
            <li key={r.key} className={r.removed ? 'removed' : 'added'} data-testid="timeline-state-relation">
              {r.text}<span className="prov"> {r.source}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
