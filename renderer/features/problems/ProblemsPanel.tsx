/**
 * The Problems panel: a drawer above the status bar listing the vault's
 * problems grouped by file (line, severity, code, message, fix hint). Live:
 * the list is refetched on every vault-changed push (renderer/live.ts).
 * Clicking a problem opens its entity in the entity panel with the field
 * highlighted and scrolled into view (FieldFocus).
 */
import { useEffect, useMemo, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { Problem, Severity } from '../../../shared/types.js';
import { useApp } from '../../store/index.js';
import { countBySeverity, fieldSelectors, groupProblems } from './group.js';
import './problems.css';

const ICON: Record<Severity, string> = { error: '✖', warning: '⚠', info: 'ℹ' };
const SEVERITIES: Severity[] = ['error', 'warning', 'info'];
const PAGE = 400;

/** Highlights the clicked problem's field in the entity panel (a style rule, so re-renders keep it). */
function FieldFocus() {
  const focus = useApp((s) => s.problemFocus);
  const shownId = useApp((s) => s.entity?.id ?? null);
  const field = focus?.problem.field;
  const selectors = useMemo(() => (field ? fieldSelectors(field) : []), [field]);
  useEffect(() => {
    if (!selectors.length) return;
    const raf = requestAnimationFrame(() => {
      const el = document.querySelector(selectors.join(', '));
      el?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    });
    return () => cancelAnimationFrame(raf);
  }, [selectors, shownId, focus?.seq]);
  if (!selectors.length) return null;
  return <style data-testid="problem-field-focus">{`${selectors.join(',\n')} { outline: 2px solid #d08a00; background: #fff4cf; }`}</style>;
}

function Row({ p, active, onOpen }: { p: Problem; active: boolean; onOpen: (p: Problem) => void }) {
  return (
    <li>
      <button
        type="button"
        className={`problem ${p.severity}${active ? ' active' : ''}`}
        data-testid="problem-item"
        data-code={p.code}
        data-severity={p.severity}
        data-line={p.line ?? ''}
        data-field={p.field ?? ''}
        onClick={() => onOpen(p)}
        title={p.hint ? `fix: ${p.hint}` : undefined}
      >
        <span className="where">{p.line ?? '–'}{p.field ? `:${p.field}` : ''}</span>
        <span className="sev" aria-label={p.severity}>{ICON[p.severity]}</span>
        <span className="code">{p.code}</span>
        <span className="msg">{p.message}</span>
        {p.hint && <span className="hint">fix: {p.hint}</span>}
      </button>
    </li>
  );
}

const HEIGHT_KEY = 'lorecraft.problemsHeight';

export function ProblemsPanel() {
  const problems = useApp((s) => s.problems);
  const open = useApp((s) => s.problemsOpen);
  const show = useApp((s) => s.problemSeverities);
  const focus = useApp((s) => s.problemFocus);
  const error = useApp((s) => s.problemsError);
  const toggle = useApp((s) => s.toggleProblems);
  const toggleSeverity = useApp((s) => s.toggleProblemSeverity);
  const openProblem = useApp((s) => s.openProblem);
  const load = useApp((s) => s.loadProblems);
  const [budget, setBudget] = useState(PAGE);
  // resizable: drag the top edge; the height is kept (localStorage) for the next time
  const [height, setHeight] = useState<number | null>(() => {
    const v = Number(localStorage.getItem(HEIGHT_KEY));
    return Number.isFinite(v) && v > 0 ? v : null;
  });
  const startResize = (e: ReactPointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const startY = e.clientY;
    const startH = (e.currentTarget.parentElement as HTMLElement).getBoundingClientRect().height;
    const move = (m: PointerEvent) => {
      const h = Math.round(Math.min(window.innerHeight * 0.8, Math.max(72, startH + startY - m.clientY)));
      setHeight(h);
      window.dispatchEvent(new Event('resize'));
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      setHeight((h) => { if (h) localStorage.setItem(HEIGHT_KEY, String(h)); return h; });
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };

  useEffect(() => { void load(); }, [load]);
  const counts = useMemo(() => countBySeverity(problems), [problems]);
  const groups = useMemo(() => (open ? groupProblems(problems, show, budget) : []), [problems, show, budget, open]);
  const hidden = groups.reduce((n, g) => n + g.hidden, 0);

  return (
    <section className={`problems-drawer${open ? ' open' : ''}`} data-testid="problems-panel" style={open && height ? { height } : undefined}>
      {open && <div className="problems-resize" data-testid="problems-resize" role="separator" aria-orientation="horizontal" aria-label="resize the problems panel" onPointerDown={startResize} />}
      <FieldFocus />
      <header>
        <button type="button" className="toggle" data-testid="problems-toggle" onClick={() => toggle()}>
          {open ? '▾' : '▸'} Problems
        </button>
        {SEVERITIES.map((s) => (
          <button
            key={s}
            type="button"
            className={`sev-filter ${s}${show[s] ? ' on' : ''}`}
            data-testid={`problems-count-${s}`}
            aria-pressed={show[s]}
            title={`${show[s] ? 'hide' : 'show'} ${s}s`}
            onClick={() => { toggleSeverity(s); toggle(true); }}
          >
            {ICON[s]} {counts[s]}
          </button>
        ))}
        {error && <span className="load-error" title={error}>could not load problems</span>}
      </header>
      {open && (
        <div className="problems-list" data-testid="problems-list">
          {groups.length === 0 && <p className="none">{problems.length ? 'No problems of the shown severities.' : 'No problems.'}</p>}
          {groups.map((g) => (
            <div key={g.file || '(vault)'} className="problem-file" data-testid="problem-file" data-file={g.file}>
              <div className="file-head">
                <span className="file">{g.file || '(vault: lorecraft.yaml / schema.yaml)'}</span>
                <span className="file-counts">
                  {SEVERITIES.filter((s) => g.counts[s]).map((s) => `${ICON[s]} ${g.counts[s]}`).join('  ')}
                </span>
              </div>
              <ul>
                {g.problems.map((p, i) => (
                  <Row key={`${p.code}:${p.line ?? ''}:${p.field ?? ''}:${i}`} p={p} active={focus?.problem === p} onOpen={(x) => void openProblem(x)} />
                ))}
              </ul>
            </div>
          ))}
          {hidden > 0 && (
            <button type="button" className="more" data-testid="problems-more" onClick={() => setBudget((b) => b + PAGE * 5)}>
              Show {Math.min(hidden, PAGE * 5)} more of {hidden}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
