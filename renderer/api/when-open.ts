/**
 * Run `fn` once the API's connection has left 'connecting' (open, or closed: the app then shows why), or after
 * `capMs`, whichever comes first; once. The web shell's first calls (the graph, its pins, the vault's status,
 * the schema) are queued before the socket opens and sent in its 'open' event; the app's first render (the
 * panes and two Cytoscape instances: 0.1-0.2 s of the main thread under load) used to run before that event,
 * so the shell began its answers only after it (issue 19 point 2). Electron's bridge is open at once.
 */
export function whenOpen(
  onConnection: (fn: (s: 'connecting' | 'open' | 'closed') => void) => () => void, capMs: number, fn: () => void,
): void {
  let done = false;
  let off: (() => void) | null = null;
  const timer = setTimeout(() => run(), capMs);
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    off?.();
    fn();
  };
  off = onConnection((s) => { if (s !== 'connecting') run(); });
  // onConnection reports the state at once: open already (Electron) ran fn before `off` was known
  if (done) off();
}
