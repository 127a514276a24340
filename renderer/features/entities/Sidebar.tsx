import { useMemo, useState } from 'react';
import { useApp } from '../../store/index.js';
import { SearchBox, SearchResults } from '../search/SearchBox.js';
import { groupByType } from './group.js';
import { SchemaSetupBanner } from '../schema-setup/SchemaSetupPanel.js';

/** Groups with more entries than this start collapsed (big vaults stay responsive). */
const OPEN_LIMIT = 60;

export function Sidebar() {
  const entities = useApp((s) => s.entities);
  const schemaView = useApp((s) => s.schemaView);
  const query = useApp((s) => s.query);
  const selectedId = useApp((s) => s.selectedId);
  const vault = useApp((s) => s.vault);
  const select = useApp((s) => s.select);
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const groups = useMemo(
    () => groupByType(entities.filter((e) => !e.placeholder), schemaView?.entityTypes.map((t) => t.name)),
    [entities, schemaView],
  );
  const canonical = useMemo(() => new Set(vault?.layers.filter((l) => l.canonical).map((l) => l.name)), [vault]);
  const colour = (type: string) => schemaView?.entityTypes.find((t) => t.name === type)?.color ?? '#888';

  return (
    <aside className="sidebar" data-testid="sidebar">
      <SchemaSetupBanner />
      <SearchBox />
      {query.trim() ? <SearchResults /> : (
        <nav className="groups">
          {groups.map((g) => {
            const open = toggled[g.type] ?? g.items.length <= OPEN_LIMIT;
            return (
              <section key={g.type} className="group" data-testid="entity-group" data-type={g.type}>
                <button type="button" className="group-head" onClick={() => setToggled({ ...toggled, [g.type]: !open })}>
                  <span className="twisty">{open ? '▾' : '▸'}</span>
                  <span className="dot" style={{ background: colour(g.type) }} />
                  <span className="group-name">{g.type}</span>
                  <span className="count">{g.items.length}</span>
                </button>
                {open && g.items.map((e) => (
                  <button
                    key={e.id}
                    type="button"
                    className={`item${e.id === selectedId ? ' selected' : ''}`}
                    data-testid="entity-item"
                    data-entity-id={e.id}
                    title={e.path ?? e.id}
                    onClick={() => void select(e.id)}
                    onContextMenu={(ev) => { ev.preventDefault(); useApp.getState().openEntityMenu(e.id, ev.clientX, ev.clientY); }}
                  >
                    <span className="item-name">{e.name}</span>
                    {!canonical.has(e.layer) && <span className="layer">{e.layer}</span>}
                  </button>
                ))}
              </section>
            );
          })}
        </nav>
      )}
      {!!vault?.vaultFiles?.length && (
        <div className="vault-files" data-testid="vault-files" title="repository files at the vault root: not entities (lorecraft.yaml vault_files)">
          Vault files: {vault.vaultFiles.join(', ')}
        </div>
      )}
    </aside>
  );
}
