/**
 * chokidar over the vault: ignoreInitial, awaitWriteFinish with a short
 * stability threshold, and batching. Events for a path are coalesced; a batch
 * is handed over after `debounceMs` of quiet, or `maxWaitMs` after its first
 * event at the latest, so a burst (a git checkout, a folder move) becomes one
 * batch. Only one batch is in flight at a time; events arriving meanwhile
 * form the next batch.
 */
import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { relPath, isSkippedDir } from './walk.js';

export interface WatcherOptions {
  root: string;
  isNote(rel: string): boolean;
  isIgnoredDir(rel: string): boolean;
  /** note paths the model holds under a folder (for a removed folder) */
  knownUnder(dir: string): string[];
  onBatch(paths: string[]): Promise<void>;
  debounceMs: number;
  maxWaitMs: number;
  stabilityMs: number;
}

export class VaultWatcher {
  private w: FSWatcher | null = null;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private firstAt = 0;
  private inflight: Promise<void> = Promise.resolve();

  constructor(private readonly o: WatcherOptions) {}

  async start(): Promise<void> {
    const root = this.o.root;
    const ignored = (abs: string, stats?: Stats): boolean => {
      const rel = relPath(root, abs);
      if (!rel || rel === '.') return false;
      const parts = rel.split('/');
      for (let i = 0; i < parts.length - 1; i++) if (isSkippedDir(parts[i]!)) return true;
      const last = parts[parts.length - 1]!;
      if (stats?.isDirectory()) return isSkippedDir(last) || this.o.isIgnoredDir(rel);
      if (stats?.isFile()) return !this.o.isNote(rel);
      return isSkippedDir(last) && !last.toLowerCase().endsWith('.md');
    };
    this.w = watch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      ignored,
      awaitWriteFinish: { stabilityThreshold: this.o.stabilityMs, pollInterval: Math.max(3, Math.floor(this.o.stabilityMs / 2)) },
    });
    const onFile = (abs: string) => {
      const rel = relPath(root, abs);
      if (this.o.isNote(rel)) this.push([rel]);
    };
    this.w.on('add', onFile).on('change', onFile).on('unlink', onFile);
    this.w.on('unlinkDir', (abs: string) => this.push(this.o.knownUnder(relPath(root, abs))));
    this.w.on('error', () => { /* a vanished folder mid-scan: the next event or sync catches up */ });
    await new Promise<void>((resolve) => this.w!.once('ready', () => resolve()));
  }

  private push(paths: string[]): void {
    if (!paths.length) return;
    if (this.pending.size === 0) this.firstAt = Date.now();
    for (const p of paths) this.pending.add(p);
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.o.debounceMs, this.firstAt + this.o.maxWaitMs - Date.now()));
    this.timer = setTimeout(() => { void this.flushNow(); }, wait);
  }

  /** Hand the pending batch over now; resolves when it (and any earlier batch) is applied. */
  flushNow(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (this.pending.size === 0) return this.inflight;
    const batch = [...this.pending];
    this.pending.clear();
    this.inflight = this.inflight.then(() => this.o.onBatch(batch)).catch(() => undefined);
    return this.inflight;
  }

  async close(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    this.pending.clear();
    if (this.w) { await this.w.close(); this.w = null; }
    await this.inflight;
  }
}
