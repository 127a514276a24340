/**
 * The header's view switch: "GM view" / "Players' view", toggled by a click or the `v` key (not while typing).
 * In the players' view the header says so and the app is read-only.
 */
import { useEffect } from 'react';
import { useApp } from '../../store/index.js';

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

export function ViewSwitch() {
  const audience = useApp((s) => s.audience);
  const switching = useApp((s) => s.switching);
  const session = useApp((s) => s.timelineSession);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'v' || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      e.preventDefault();
      void useApp.getState().toggleAudience();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const players = audience === 'players';
  return (
    <button type="button" className={`view-switch${players ? ' players' : ''}`} data-testid="view-switch" aria-pressed={players} disabled={switching}
      title={players ? 'Back to the GM view: everything, editable (v)' : "Show the players' view: only what players may see, read-only (v)"}
      onClick={() => void useApp.getState().toggleAudience()}>
      {players ? `Players' view${session !== null ? ` · session ${session}` : ''}` : 'GM view'}
    </button>
  );
}
