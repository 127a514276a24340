/**
 * "Connect Claude Desktop": the topbar button and its dialog. Read-only or
 * read-write; "Add to Claude Desktop" asks main to merge Lorecraft into Claude
 * Desktop's config file (backup first, other servers kept) and shows where it
 * wrote, the backup and the servers kept, or the error. Below, the snippets
 * for Claude Code and Cursor, to copy.
 */
import { useEffect, useState } from 'react';
import { useApp } from '../../store/index.js';
import { resultLines, resultSummary } from './model.js';
import './mcp.css';

export function ConnectClaudeButton() {
  const openMcp = useApp((s) => s.openMcp);
  return (
    <button type="button" className="topbar-button" data-testid="connect-claude" onClick={() => openMcp(true)}>
      Connect Claude Desktop
    </button>
  );
}

function Snippet({ title, text, testId, note }: { title: string; text: string; testId: string; note: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => setCopied(true), () => setCopied(false));
  };
  return (
    <section className="mcp-snippet">
      <div className="mcp-snippet-head">
        <h3>{title}</h3>
        <button type="button" onClick={copy} data-testid={`${testId}-copy`}>{copied ? 'Copied' : 'Copy'}</button>
      </div>
      <p className="mcp-note">{note}</p>
      <pre data-testid={testId} tabIndex={0}>{text}</pre>
    </section>
  );
}

export function ConnectDialog() {
  const open = useApp((s) => s.mcpOpen);
  const readWrite = useApp((s) => s.mcpReadWrite);
  const snippets = useApp((s) => s.mcpSnippets);
  const busy = useApp((s) => s.mcpBusy);
  const result = useApp((s) => s.mcpResult);
  const error = useApp((s) => s.mcpError);
  const { openMcp, setMcpReadWrite, connectClaude } = useApp.getState();

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') openMcp(false); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, openMcp]);

  if (!open) return null;
  return (
    <div className="mcp-backdrop" onClick={(e) => { if (e.target === e.currentTarget) openMcp(false); }}>
      <div className="mcp-dialog" role="dialog" aria-modal="true" aria-labelledby="mcp-title" data-testid="mcp-dialog">
        <header>
          <h2 id="mcp-title">Connect Claude Desktop</h2>
          <button type="button" aria-label="Close" data-testid="mcp-close" onClick={() => openMcp(false)}>✕</button>
        </header>

        <fieldset className="mcp-mode">
          <legend>What may the assistant do?</legend>
          <label>
            <input type="radio" name="mcp-mode" data-testid="mcp-readonly" checked={!readWrite} onChange={() => setMcpReadWrite(false)} />
            Read only — search, traverse, cite notes
          </label>
          <label>
            <input type="radio" name="mcp-mode" data-testid="mcp-readwrite" checked={readWrite} onChange={() => setMcpReadWrite(true)} />
            Read and write — it may also record new facts as notes (undoable)
          </label>
        </fieldset>

        <div className="mcp-add">
          <button type="button" className="primary" data-testid="mcp-add" disabled={busy} onClick={() => void connectClaude()}>
            {busy ? 'Adding…' : 'Add to Claude Desktop'}
          </button>
          {snippets && <span className="mcp-note">writes <code data-testid="mcp-config-path">{snippets.claudeDesktopConfigPath}</code></span>}
        </div>

        {result && (
          <div className="mcp-result" data-testid="mcp-result" data-action={result.action}>
            <p>{resultSummary(result, readWrite)}</p>
            <dl>
              {resultLines(result).map((l) => (
                <div key={l.key} data-testid={`mcp-result-${l.key}`}><dt>{l.label}</dt><dd>{l.value}</dd></div>
              ))}
            </dl>
          </div>
        )}
        {error && <p className="mcp-error" role="alert" data-testid="mcp-error">{error}</p>}

        <h3 className="mcp-others">Other clients</h3>
        {snippets ? (
          <>
            <Snippet title="Claude Code" testId="mcp-snippet-claude-code" text={snippets.snippets.claudeCode}
              note="Run in a terminal." />
            <Snippet title="Cursor" testId="mcp-snippet-cursor" text={snippets.snippets.cursor}
              note="Put in .cursor/mcp.json (this project) or ~/.cursor/mcp.json (everywhere)." />
          </>
        ) : !error && <p className="mcp-note">Loading…</p>}
      </div>
    </div>
  );
}
