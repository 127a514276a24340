/**
 * The words for an open's progress (SyncProgress), one spelling for the app's status bar and the CLI's
 * TTY line: "reading 1,234 / 7,000 files", "loading the graph…", "indexing search…".
 */
import type { SyncProgress } from './types.js';

const num = (n: number) => n.toLocaleString('en-US');

export function progressLabel(p: SyncProgress | null | undefined): string {
  if (!p) return '';
  switch (p.phase) {
    case 'reading': return p.total === undefined ? 'reading files…' : `reading ${num(p.done ?? 0)} / ${num(p.total)} files`;
    case 'loading': return 'loading the graph…';
    case 'indexing': return 'indexing search…';
  }
}
