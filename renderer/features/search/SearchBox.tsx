import { useEffect, useRef } from 'react';
import { useApp } from '../../store/index.js';
import { snippetParts } from './snippet.js';

/** Ctrl/⌘K focuses the search box from anywhere. */
function useFocusShortcut(ref: React.RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        ref.current?.focus();
        ref.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [ref]);
}

export function SearchBox() {
  const query = useApp((s) => s.query);
  const setQuery = useApp((s) => s.setQuery);
  const runSearch = useApp((s) => s.runSearch);
  const input = useRef<HTMLInputElement>(null);
  useFocusShortcut(input);

  useEffect(() => {
    if (!query.trim()) return;
    const t = setTimeout(() => void runSearch().catch((e: unknown) => useApp.getState().setError(String(e))), 120);
    return () => clearTimeout(t);
  }, [query, runSearch]);

  return (
    <div className="search">
      <input
        ref={input}
        data-testid="search-input"
        type="search"
        placeholder="Search (Ctrl+K)"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setQuery('');
          if (e.key === 'Enter') {
            const first = useApp.getState().hits[0];
            if (first) void useApp.getState().select(first.entity.id);
          }
        }}
      />
    </div>
  );
}

export function SearchResults() {
  const hits = useApp((s) => s.hits);
  const hitsFor = useApp((s) => s.hitsFor);
  const selectedId = useApp((s) => s.selectedId);
  const select = useApp((s) => s.select);
  return (
    <div className="search-results" data-testid="search-results">
      {hitsFor && hits.length === 0 && <div className="empty">No matches for “{hitsFor}”.</div>}
      {hits.map((h) => (
        <button
          key={h.entity.id}
          type="button"
          className={`hit${h.entity.id === selectedId ? ' selected' : ''}`}
          data-testid="search-hit"
          data-entity-id={h.entity.id}
          data-matched={h.matched}
          onClick={() => void select(h.entity.id)}
          onContextMenu={(ev) => { ev.preventDefault(); useApp.getState().openEntityMenu(h.entity.id, ev.clientX, ev.clientY); }}
        >
          <span className="hit-name">{h.entity.name}</span>
          <span className="type-chip">{h.entity.type ?? 'untyped'}</span>
          <span className="hit-snippet" data-testid="hit-snippet">
            {/* an alias hit's snippet is `Name («alias»)`: show the alias that matched as "aka …" */}
            {h.matched === 'alias' && h.alias !== undefined && h.snippet.startsWith(`${h.entity.name} (`) && h.snippet.endsWith(')')
              ? <>aka {snippetParts(h.snippet.slice(h.entity.name.length + 2, -1)).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</>
              : snippetParts(h.snippet).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
          </span>
        </button>
      ))}
    </div>
  );
}
