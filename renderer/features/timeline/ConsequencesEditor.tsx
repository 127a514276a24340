/**
 * The consequences editor: one row per consequence — the entity (with
 * completion), then what happens to it (killed, destroyed, a property set to a
 * value, a relationship added or ended). Rows it cannot edit are kept as written.
 */
import { useMemo } from 'react';
import { useApp } from '../../store/index.js';
import { EntityInput } from './EntityInput.js';
import { KIND_LABEL, draftProblem, sentence, type Draft, type DraftKind } from './consequences.js';

export function ConsequencesEditor({ drafts, onChange }: { drafts: Draft[]; onChange(d: Draft[]): void }) {
  // select the stable schema view, derive outside the selector (a selector returning a new array re-renders forever)
  const schema = useApp((s) => s.schemaView);
  const rels = useMemo(() => schema?.relationshipTypes.map((r) => r.name) ?? [], [schema]);
  const statusFields = useMemo(() => schema?.statusFields ?? ['status'], [schema]);
  const put = (i: number, d: Partial<Draft>) => onChange(drafts.map((x, j) => (j === i ? { ...x, ...d } : x)));
  return (
    <div className="tl-cons" data-testid="consequences-editor">
      {drafts.map((d, i) => (
        <div key={i} className="tl-cons-row" data-testid="consequence-row">
          <EntityInput value={d.entity} onChange={(v) => put(i, { entity: v })} placeholder="entity" testId="consequence-entity" />
          {d.kind === 'raw' ? (
            <span className="tl-cons-raw" title="kept as written">{sentence(d.raw, statusFields).map((p) => ('link' in p ? '' : p.text)).join('')}</span>
          ) : (
            <select data-testid="consequence-kind" value={d.kind} onChange={(e) => put(i, { kind: e.target.value as DraftKind })}>
              {Object.entries(KIND_LABEL).map(([k, l]) => <option key={k} value={k}>{l}</option>)}
            </select>
          )}
          {d.kind === 'set' && (
            <>
              <input data-testid="consequence-property" placeholder="property" value={d.property ?? ''} onChange={(e) => put(i, { property: e.target.value })} />
              <input data-testid="consequence-value" placeholder="value" value={d.value ?? ''} onChange={(e) => put(i, { value: e.target.value })} />
            </>
          )}
          {(d.kind === 'rel-add' || d.kind === 'rel-remove') && (
            <>
              <select data-testid="consequence-relationship" value={d.relationship ?? ''} onChange={(e) => put(i, { relationship: e.target.value })}>
                <option value="">relationship…</option>
                {rels.map((r) => <option key={r} value={r}>{r.toLowerCase().replace(/_/g, ' ')}</option>)}
              </select>
              <EntityInput value={d.target ?? ''} onChange={(v) => put(i, { target: v })} placeholder="with" testId="consequence-target" />
            </>
          )}
          {draftProblem(d) && d.entity.trim() && <span className="tl-cons-missing">{draftProblem(d)}</span>}
          <button type="button" aria-label="remove this consequence" onClick={() => onChange(drafts.filter((_, j) => j !== i))}>×</button>
        </div>
      ))}
      <button type="button" data-testid="consequence-add" onClick={() => onChange([...drafts, { entity: '', kind: 'killed' }])}>+ consequence</button>
    </div>
  );
}
