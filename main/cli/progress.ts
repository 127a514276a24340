/**
 * The open's progress on a terminal (issue 15): one stderr line rewritten in place, "reading 1,234 / 7,000
 * files", then "loading the graph…", "indexing search…", erased when the command goes on. Nothing at all
 * when stderr is not a TTY (CliIo.status is absent then).
 */
import type { Emit } from '../../shared/rpc.js';
import type { SyncProgress, SyncStatus } from '../../shared/types.js';
import { progressLabel } from '../../shared/progress.js';
import type { CliIo } from './io.js';

/** carriage return + erase the line */
const CLEAR = '\r\u001b[K';

export interface ProgressLine {
  /** for openCore's onProgress (undefined without a terminal: nothing to show) */
  onProgress?: (p: SyncProgress | null) => void;
  /** erase the line (idempotent); later progress is not shown */
  end(): void;
}

export function progressLine(io: CliIo): ProgressLine {
  const status = io.status?.bind(io);
  if (!status) return { end() { /* nothing shown */ } };
  let shown = '';
  let ended = false;
  const show = (text: string) => {
    if (ended || text === shown) return;
    status(CLEAR + text);
    shown = text;
  };
  return {
    onProgress: (p) => show(progressLabel(p)),
    end() {
      if (ended) return;
      if (shown) status(CLEAR);
      ended = true;
    },
  };
}

/**
 * A CoreSession's event sink (`lorecraft web`) that also shows the open's progress on the line: every
 * 'sync-status' push carries it (files read / total, then loading). Without a terminal: `emit` itself.
 */
export function withOpenProgress(line: ProgressLine, emit: Emit): Emit {
  const show = line.onProgress;
  if (!show) return emit;
  return ((event, payload) => {
    if (event === 'sync-status') show((payload as SyncStatus).progress ?? null);
    emit(event, payload);
  }) as Emit;
}
