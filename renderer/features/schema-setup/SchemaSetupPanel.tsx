/**
 * "Set up types": a banner when the vault's schema declares no types, and the
 * side panel it opens (not a modal: the world stays usable beside it). Per
 * proposed type: keep, name (rename; the same name as another = merge), folder
 * vs tag rule with the notes each would type; per resulting type: count,
 * examples and inferred properties; Accept writes the files (an existing
 * schema.yaml shows its diff first).
 */
import { useEffect, useState } from 'react';
import type { ProposedTypeView } from '../../../shared/contract-schema-setup.js';
import { useApp } from '../../store/index.js';
import { mergeTargets, nameError, sourceText } from './model.js';
import './schema-setup.css';

export function SchemaSetupBanner() {
  const vault = useApp((s) => s.vault);
  const dismissed = useApp((s) => s.setupDismissed);
  const open = useApp((s) => s.setupOpen);
  const done = useApp((s) => s.setupDone);
  const openSetup = useApp((s) => s.openSetup);
  const dismiss = useApp((s) => s.dismissSetup);
  if (done && vault?.hasSchema) return <div className="setup-banner done" role="status" data-testid="schema-setup-done">Schema set up: {done}. The world is typed.</div>;
  if (!vault || vault.hasSchema !== false || dismissed || open) return null;
  return (
    <div className="setup-banner" role="status" data-testid="schema-setup-banner">
      <span>This vault has no schema yet: every note is untyped. Lorecraft can propose types from its folders and tags.</span>
      <button type="button" data-testid="schema-setup-open" onClick={() => void openSetup()}>Set up types…</button>
      <button type="button" className="link" onClick={dismiss}>Not now</button>
    </div>
  );
}

function NameInput({ c }: { c: ProposedTypeView }) {
  const choice = useApp((s) => s.setupChoices[c.id]);
  const setChoice = useApp((s) => s.setChoice);
  const [name, setName] = useState(choice?.name ?? c.name);
  useEffect(() => setName(choice?.name ?? c.name), [choice?.name, c.name]);
  const err = nameError(name);
  const commit = () => { if (!err && name.trim() !== choice?.name) void setChoice(c.id, { name: name.trim() }); };
  return (
    <>
      <input className="setup-name" data-testid="setup-name" aria-label={`name of ${sourceText(c)}`} value={name} aria-invalid={err ? true : undefined}
        onChange={(e) => setName(e.target.value)} onBlur={commit}
        onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); commit(); } }} />
      {err && <div className="field-error" role="alert">{err}</div>}
    </>
  );
}

function CandidateRow({ c }: { c: ProposedTypeView }) {
  const choices = useApp((s) => s.setupChoices);
  const setChoice = useApp((s) => s.setChoice);
  const choice = choices[c.id];
  if (!choice) return null;
  const targets = mergeTargets(choices, c.id);
  const both = Boolean(c.folder && c.tag && !c.field);
  const n = (k: 'folder' | 'tag') => c.ruleCounts[k] ?? 0;
  return (
    <li className={`setup-cand${choice.keep ? '' : ' dropped'}`} data-testid="setup-candidate" data-id={c.id}>
      <label className="keep" title="keep this type">
        <input type="checkbox" data-testid="setup-keep" checked={choice.keep} onChange={(e) => void setChoice(c.id, { keep: e.target.checked })} />
      </label>
      <div className="setup-cand-main">
        <NameInput c={c} />
        <div className="source">{sourceText(c)}</div>
        {both && (
          <select data-testid="setup-rule" aria-label="rule" value={choice.rule ?? c.rule} onChange={(e) => void setChoice(c.id, { rule: e.target.value as 'folder' | 'tag' | 'both' })}>
            <option value="folder">by folder ({n('folder')} notes)</option>
            <option value="tag">by tag ({n('tag')} notes)</option>
            <option value="both">folder or tag</option>
          </select>
        )}
        {!both && <div className="source">{c.field ? c.ruleCounts.field : c.folder ? n('folder') : n('tag')} notes by this rule</div>}
        {targets.length > 0 && choice.keep && (
          <select data-testid="setup-merge" aria-label="merge into" value="" onChange={(e) => { if (e.target.value) void setChoice(c.id, { name: e.target.value }); }}>
            <option value="">merge into…</option>
            {targets.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        )}
      </div>
    </li>
  );
}

export function SchemaSetupPanel() {
  const open = useApp((s) => s.setupOpen);
  const view = useApp((s) => s.setupView);
  const busy = useApp((s) => s.setupBusy);
  const error = useApp((s) => s.setupError);
  const pending = useApp((s) => s.setupPending);
  const close = useApp((s) => s.closeSetup);
  const accept = useApp((s) => s.acceptSetup);
  if (!open) return null;
  return (
    <aside className="setup-panel" data-testid="schema-setup-panel" aria-label="set up types">
      <header>
        <h2>Set up types</h2>
        <button type="button" className="close" aria-label="close" onClick={close}>×</button>
      </header>
      {error && <div className="field-error" role="alert">{error}</div>}
      {!view ? <p>{busy ? 'Reading the vault…' : ''}</p> : (
        <>
          <p className="setup-summary" data-testid="setup-summary">
            {view.summary.notes} notes: {view.summary.notes - view.summary.untyped} typed, {view.summary.untyped} left untyped.
          </p>
          <h3>Proposed types</h3>
          <ul className="setup-cands">{view.candidates.map((c) => <CandidateRow key={c.id} c={c} />)}</ul>
          <h3>Result</h3>
          <ul className="setup-types">
            {view.types.map((t) => (
              <li key={t.name} data-testid="setup-type" data-type={t.name}>
                <div><strong>{t.name}</strong> <span className="count" data-testid="setup-type-count">{t.count}</span> notes</div>
                {t.examples.length > 0 && <div className="examples">e.g. {t.examples.join(', ')}</div>}
                {(t.properties.length > 0 || t.relations.length > 0) && (
                  <div className="props">
                    {t.properties.map((p) => <span key={p.name} className="prop" title={p.values ? p.values.join(', ') : undefined}>{p.name}: {p.type}{p.items ? ` of ${p.items}` : ''}</span>)}
                    {t.relations.map((r) => <span key={r.field} className="prop rel">{r.field} → {r.relationship}{r.target_type ? ` (${[r.target_type].flat().join(', ')})` : ''}</span>)}
                  </div>
                )}
              </li>
            ))}
          </ul>
          {pending.length > 0 ? (
            <div className="setup-diff" data-testid="setup-diff">
              {pending.map((f) => (
                <div key={f.file}>
                  <p>{f.file} exists. Review the change before it is replaced:</p>
                  <pre>{f.diff}</pre>
                </div>
              ))}
              <button type="button" data-testid="setup-confirm" disabled={busy} onClick={() => void accept(true)}>Replace {pending.map((f) => f.file).join(', ')}</button>
            </div>
          ) : (
            <footer>
              <span className="files">writes {view.files.filter((f) => f.status !== 'same').map((f) => f.file).join(' and ') || 'nothing (already up to date)'}</span>
              <button type="button" className="primary" data-testid="schema-setup-accept" disabled={busy} onClick={() => void accept(false)}>Accept</button>
            </footer>
          )}
        </>
      )}
    </aside>
  );
}
