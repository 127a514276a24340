import { countLabel } from './label.js';
import { progressLabel } from '../../../shared/progress.js';
import { useApp } from '../../store/index.js';

export function StatusBar() {
  const status = useApp((s) => s.status);
  const vault = useApp((s) => s.vault);
  const connection = useApp((s) => s.connection);
  const error = useApp((s) => s.error);
  // The panel's validated list (every rule) once loaded; the engine's model count until then.
  const loaded = useApp((s) => s.problemsLoaded);
  const validated = useApp((s) => s.problems.length);
  const problems = loaded ? validated : status?.problems ?? 0;
  const state = connection !== 'open' ? connection === 'closed' ? 'disconnected' : 'connecting' : status?.state ?? '…';
  return (
    <footer className="statusbar" data-testid="statusbar">
      <span className={`sync ${state}`} data-testid="status-sync">● {state}</span>
      {status?.progress && <span className="progress" data-testid="status-progress">{progressLabel(status.progress)}</span>}
      <span data-testid="status-entities">{status?.entities ?? 0} entities</span>
      <span>{status?.relationships ?? 0} relationships</span>
      <span className={problems ? 'problems has' : 'problems'} data-testid="status-problems">{countLabel(problems, 'problem')}</span>
      {status?.error && <span className="error" data-testid="status-error" title={status.error.message}>⚠ {status.error.message}</span>}
      {error && <span className="error" title={error}>⚠ {error}</span>}
      <span className="vault" title={vault?.vaultDir}>{vault ? `${vault.project} · ${vault.vaultDir}` : ''}</span>
    </footer>
  );
}
