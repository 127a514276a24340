import type { PropertyValue } from '../../../shared/types.js';
import { useApp } from '../../store/index.js';
import { RenderedProse } from './RenderedProse.js';
import { PanelRelations } from './PanelRelations.js';
import { TimelineState } from '../timeline/TimelineState.js';
import { ConsequencesPanel } from '../timeline/ConsequencesPanel.js';
import { EditButton } from '../editor/EditorRoot.js';

function formatValue(v: PropertyValue | unknown): string {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.map(formatValue).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function EntityPanel() {
  const entity = useApp((s) => s.entity);
  const missing = useApp((s) => s.missing);
  const gone = useApp((s) => s.gone);
  const problems = useApp((s) => s.problems);
  const openProblem = useApp((s) => s.openProblem);
  const select = useApp((s) => s.select);
  const askDelete = useApp((s) => s.askDelete);
  const players = useApp((s) => s.audience === 'players');

  if (!entity) {
    return (
      <section className="panel empty" data-testid="entity-panel">
        {gone ? <p data-testid="entity-gone">“{gone}” is gone: its note was deleted or renamed outside Lorecraft.</p>
          : missing ? <p>No note named “{missing}” yet.</p> : <p>Select an entity in the list, the search or the canvas.</p>}
      </section>
    );
  }

  // an event's consequences read as sentences below the table (ConsequencesPanel), not as JSON in it
  // a note whose frontmatter could not be read: say so, with the line, instead of only "untyped"
  const yamlErrors = entity.path ? problems.filter((p) => p.file === entity.path && p.code.startsWith('yaml')) : [];
  const cons = Array.isArray(entity.properties.consequences) ? entity.properties.consequences : null;
  const props = Object.entries(entity.properties).filter(([k]) => !(k === 'consequences' && cons));
  return (
    <section className="panel" data-testid="entity-panel" data-entity-id={entity.id}>
      <header>
        <h2 data-testid="entity-name">{entity.name}</h2>
        <div className="meta">
          <span className="type-chip" data-testid="entity-type">{entity.type ?? 'untyped'}</span>
          <span className="layer">{entity.layer}</span>
          {entity.placeholder && <span className="warn">placeholder: no note yet</span>}
          {!players && <EditButton entityId={entity.id} disabled={entity.placeholder} />}
          {!entity.placeholder && !players && (
            <button type="button" className="delete-entity" data-testid="entity-delete" title="move the note to the trash" onClick={() => void askDelete(entity.id)}>Delete…</button>
          )}
        </div>
        {entity.aliases.length > 0 && <div className="aliases">aka {entity.aliases.join(', ')}</div>}
        {entity.path && <div className="path" data-testid="entity-path" title="source file">{entity.path}</div>}
      </header>

      {yamlErrors.length > 0 && (
        <div className="yaml-error" data-testid="entity-yaml-error" role="alert">
          <b>The frontmatter of this note could not be read</b>, so its type and fields are ignored:
          <ul>{yamlErrors.map((p, i) => (
            <li key={i}>{p.line !== undefined && <button type="button" className="yaml-line" onClick={() => void openProblem(p)}>line {p.line}</button>} {p.message}</li>
          ))}</ul>
        </div>
      )}

      {(props.length > 0 || entity.tags.length > 0) && (
        <table className="props" data-testid="entity-properties">
          <tbody>
            {props.map(([k, v]) => (
              <tr key={k} data-testid="entity-property" data-key={k}><th>{k}</th><td>{formatValue(v)}</td></tr>
            ))}
            {entity.tags.length > 0 && <tr><th>tags</th><td data-testid="entity-tags">{entity.tags.map((t) => `#${t}`).join(' ')}</td></tr>}
          </tbody>
        </table>
      )}

      {cons && <ConsequencesPanel key={entity.id + (entity.hash ?? '')} entityId={entity.id} value={cons} />}

      <TimelineState />

      {entity.relations.length > 0 && <PanelRelations rels={entity.relations} onOpen={(id) => void select(id)} />}

      <RenderedProse body={entity.body} name={entity.name} onOpen={(id) => void select(id)} />
    </section>
  );
}
