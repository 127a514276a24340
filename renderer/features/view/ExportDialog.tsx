/**
 * Export… (header button, and Electron's File > Export…): `lorecraft export` of the open vault through the core
 * (`export-run`): format, audience, layer, session, focus and depth, and the destination typed as an absolute
 * path (a folder for the site, a file otherwise; outside the vault).
 */
import { useState } from 'react';
import type { AudienceName } from '../../../shared/contract-view.js';
import { EXPORT_FORMAT_NAMES } from '../../../shared/export-formats.js';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';

export function ExportButton() {
  return <button type="button" className="export-open" data-testid="export-open" title="Export the world: players' wiki, lorebook, JSON, diagrams (Ctrl+E in the desktop app)" onClick={() => useApp.getState().setExportOpen(true)}>Export…</button>;
}

type Format = (typeof EXPORT_FORMAT_NAMES)[number];

export function ExportDialog() {
  const open = useApp((s) => s.exportOpen);
  if (!open) return null;
  return <ExportForm />;
}

function ExportForm() {
  const s = useApp.getState;
  const layers = useApp((st) => st.vault?.layers ?? []);
  const [format, setFormat] = useState<Format>('site');
  const [audience, setAudience] = useState<AudienceName>('players');
  const [layer, setLayer] = useState<string>(s().timelineLayer ?? layers.find((l) => !l.canonical)?.name ?? layers[0]?.name ?? '');
  const [session, setSession] = useState<string>(s().timelineSession !== null ? String(s().timelineSession) : '');
  const [focus, setFocus] = useState('');
  const [depth, setDepth] = useState('2');
  const [out, setOut] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => s().setExportOpen(false);
  const diagram = format === 'mermaid' || format === 'dot';
  const run = async () => {
    setBusy(true); setError(null); setResult(null);
    try {
      const n = session.trim() === '' ? null : Number(session);
      if (n !== null && (!Number.isInteger(n) || n < 0)) throw new Error('session: a whole number ≥ 0, or empty for after every event');
      const r = await api.call('export-run', {
        format, audience, out: out.trim(), session: n, ...(layer ? { layer } : {}),
        ...(diagram && focus.trim() ? { focus: focus.trim(), depth: Math.max(1, Number(depth) || 1) } : {}),
      });
      setResult(`Exported ${r.entities} entities (${r.audience}, ${r.layer}${r.session !== null ? `, session ${r.session}` : ''}): ${r.written.length === 1 ? r.written[0] : `${r.written.length} files in ${r.out}`}`);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="trash-backdrop" onClick={(e) => { if (e.target === e.currentTarget) close(); }}>
      <form className="export-dialog" role="dialog" aria-label="Export" data-testid="export-dialog" onSubmit={(e) => { e.preventDefault(); void run(); }}>
        <h3>Export the world</h3>
        <label>Format <select data-testid="export-format" value={format} onChange={(e) => setFormat(e.target.value as Format)}>
          {EXPORT_FORMAT_NAMES.map((f) => <option key={f} value={f}>{f}</option>)}
        </select></label>
        <label>For <select data-testid="export-audience" value={audience} onChange={(e) => setAudience(e.target.value as AudienceName)}>
          <option value="players">the players</option><option value="gm">the GM (everything)</option>
        </select></label>
        <label>Layer <select data-testid="export-layer" value={layer} onChange={(e) => setLayer(e.target.value)}>
          {layers.map((l) => <option key={l.name} value={l.name}>{l.name}</option>)}
        </select></label>
        <label>Session <input data-testid="export-session" inputMode="numeric" placeholder="after every event" value={session} onChange={(e) => setSession(e.target.value)} /></label>
        {diagram && <>
          <label>Focus <input data-testid="export-focus" placeholder="an entity (optional)" value={focus} onChange={(e) => setFocus(e.target.value)} /></label>
          <label>Depth <input data-testid="export-depth" inputMode="numeric" value={depth} onChange={(e) => setDepth(e.target.value)} /></label>
        </>}
        <label>Destination <input data-testid="export-out" placeholder={format === 'site' ? '/home/me/players-wiki (a folder)' : `/home/me/world.${format === 'lorebook' ? 'json' : format === 'mermaid' ? 'mmd' : format}`} value={out} onChange={(e) => setOut(e.target.value)} /></label>
        {error && <p className="export-error" role="alert" data-testid="export-error">{error}</p>}
        {result && <p className="export-result" data-testid="export-result">{result}</p>}
        <div className="trash-actions">
          <button type="button" onClick={close}>Close</button>
          <button type="submit" data-testid="export-run" disabled={busy || !out.trim()}>{busy ? 'Exporting…' : 'Export'}</button>
        </div>
      </form>
    </div>
  );
}
