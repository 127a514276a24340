/**
 * Push events from main -> store actions. The store refetches what is shown,
 * so a file changed on disk appears without a reload.
 */
import { api, onConnection } from './api/client.js';
import { useApp } from './store/index.js';
import { firstListsGate } from './features/canvas/slice.js';

export function startLive(): () => void {
  const s = () => useApp.getState();
  const offs = [
    onConnection((c) => s().setConnection(c)),
    // during a big graph's first load, after its laid-out picture is painted (firstListsGate): the opening's sync ends with a
    // vault-changed whose refetches (graph, entity list, problems; MBs at 5k entities) landed between the first layout's
    // answer and its placement (issue 19 point 2). Open for good after that, and at once for a small graph.
    api.on('vault-changed', () => void firstListsGate().then(() => { void s().refresh(); void s().loadProblems(); })),
    api.on('sync-status', (status) => s().setStatus(status)),
    api.on('export-open', () => s().setExportOpen(true)),
    api.on('vault-opened', () => { s().clearSelection(); void s().loadAll(); void s().loadProblems(); }),
  ];
  void api.call('app-ready', {}).catch(() => undefined);
  return () => { for (const off of offs) off(); };
}
