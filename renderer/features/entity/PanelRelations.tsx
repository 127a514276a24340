import type { RelationView } from '../../../shared/types.js';
import { panelRelations, type RelationGroup } from './relations.js';

/** a relationship's own properties, short: "attitude: wary · until: Oldmere Rises" */
function propsText(p: Record<string, unknown> | undefined): string {
  if (!p) return '';
  return Object.entries(p).map(([k, v]) => `${k}: ${String(Array.isArray(v) ? v.join(', ') : v).replace(/\[\[([^\]|#]*)(?:[^\]]*)\]\]/g, '$1')}`).join(' · ');
}

function Groups({ groups, onOpen }: { groups: RelationGroup[]; onOpen: (id: string) => void }) {
  return (
    <>
      {groups.map(([label, rels]) => (
        <div key={label} className="rel-group" data-testid="relation-group" data-label={label}>
          <div className="rel-label">{label}</div>
          {rels.map((r) => (
            <button
              key={r.other.id}
              type="button"
              className={`rel${r.other.placeholder ? ' placeholder' : ''}`}
              data-testid="relation-item"
              data-entity-id={r.other.id}
              title={r.why.join('\n')}
              onClick={() => onOpen(r.other.id)}
            >
              {r.other.name}
              {r.properties && <span className="rel-props" data-testid="relation-props"> ({propsText(r.properties)})</span>}
            </button>
          ))}
        </div>
      ))}
    </>
  );
}

/** The panel's relationships: typed ones once, body links in their own section, collapsed (relations.ts). */
export function PanelRelations({ rels, onOpen }: { rels: RelationView[]; onOpen: (id: string) => void }) {
  const { typed, links, linkCount } = panelRelations(rels);
  return (
    <div className="relations" data-testid="entity-relations">
      <Groups groups={typed} onOpen={onOpen} />
      {linkCount > 0 && (
        <details className="body-links" data-testid="entity-body-links">
          <summary>Body links ({linkCount})</summary>
          <Groups groups={links} onOpen={onOpen} />
        </details>
      )}
    </div>
  );
}
