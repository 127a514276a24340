/**
 * Push events from main -> store actions. The store refetches what is shown,
 * so a file changed on disk appears without a reload.
 */
import { api, onConnection } from './api/client.js';
import { useApp } from './store/index.js';

export function startLive(): () => void {
  const s = () => useApp.getState();
  const offs = [
    onConnection((c) => s().setConnection(c)),
    api.on('vault-changed', () => void s().refresh()),
    api.on('vault-changed', () => void s().loadProblems()),
    api.on('sync-status', (status) => s().setStatus(status)),
    api.on('export-open', () => s().setExportOpen(true)),
    api.on('vault-opened', () => { s().clearSelection(); void s().loadAll(); void s().loadProblems(); }),
  ];
  void api.call('app-ready', {}).catch(() => undefined);
  return () => { for (const off of offs) off(); };
}
