/**
 * The vault watcher: one non-recursive `fs.watch` (inotify on Linux) per
 * watched folder, none per file, and no folder rescans. Each event names the
 * entry of the folder that changed, so a change costs one lstat at most:
 *
 * - a note path (created, written, deleted, renamed to or from, replaced by an
 *   atomic rename-over as vim/Obsidian/our own write-back do) is queued;
 * - a folder that appears (created, moved or renamed in) is watched with its
 *   subfolders, and every note found in it is queued;
 * - a watched folder that disappears (removed, moved or renamed out) stops
 *   being watched and the notes the model holds under it are queued (the
 *   engine's re-read finds them gone);
 * - dot-entries (.lorecraft, .git, our own `.xxx.lorecraft-tmp` files),
 *   node_modules, excluded folders (`isIgnoredDir`) and non-notes are ignored.
 *   Symbolic links to folders are not followed (as before: chokidar ran with
 *   followSymlinks off).
 *
 * Why not chokidar: it keeps one watcher per FILE and re-reads a folder with an
 * lstat of every entry on each event in it; in the 10k-note vault that is
 * thousands of lstats per change, queued in libuv's 4-thread pool, where the
 * engine's reads and every Kùzu statement then wait. Why not Node 20's
 * `fs.watch(dir, {recursive: true})` on Linux: it is built in JS on one watcher
 * per file and folder, stops seeing in-place writes to a file once it was
 * replaced by a rename, and cannot skip .git / .lorecraft.
 *
 * Batching: events are coalesced per path. A batch is handed over once no
 * event arrived for `quietMs` (this is also the write-finish guard: a writer
 * that truncates, then writes, produces an event per step, and a new event
 * restarts the wait), or `maxWaitMs` after its first event at the latest, so a
 * burst (a git checkout, a folder move) becomes one batch. Only one batch is
 * in flight at a time; events arriving meanwhile form the next batch.
 */
import { lstatSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { isSkippedDir } from './walk.js';

export interface WatcherOptions {
  root: string;
  isNote(rel: string): boolean;
  isIgnoredDir(rel: string): boolean;
  /** note paths the model holds under a folder (for a removed folder) */
  knownUnder(dir: string): string[];
  onBatch(paths: string[]): Promise<void>;
  /** quiet time (no event for any pending path) before a batch is handed over */
  quietMs: number;
  maxWaitMs: number;
}

interface Watched { w: FSWatcher; ino: number }

export class VaultWatcher {
  /** vault-relative folder ('' = the root) -> its watcher */
  private dirs = new Map<string, Watched>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private firstAt = 0;
  private inflight: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly o: WatcherOptions) {}

  async start(): Promise<void> {
    this.addTree('', false);
  }

  /** Watch `rel` and its subfolders; with `announce`, queue every note found (a folder that just appeared). */
  private addTree(rel: string, announce: boolean): void {
    if (this.closed) return;
    const abs = rel ? join(this.o.root, rel) : this.o.root;
    let ino: number;
    try {
      // the vault folder itself may be a symbolic link (followed); below it, links are not followed
      const st = rel ? lstatSync(abs) : statSync(abs);
      if (!st.isDirectory()) return;
      ino = st.ino;
    } catch { return; }
    const old = this.dirs.get(rel);
    if (old) {
      if (old.ino === ino) return;
      this.dropTree(rel, false);
    }
    const entry = { ino } as Watched;
    try {
      // events of a watcher that was replaced meanwhile (same name, other folder) are stale: dropped
      entry.w = watch(abs, { persistent: true }, (type, name) => {
        if (this.dirs.get(rel) === entry) this.onEvent(rel, type, name === null ? null : String(name));
      });
    } catch {
      return; // vanished meanwhile, or no watch left (inotify limit): the next sync catches up
    }
    // a folder removed under us reports an error on some platforms: forget it
    entry.w.on('error', () => { if (this.dirs.get(rel) === entry) this.dropTree(rel, true); });
    this.dirs.set(rel, entry);
    // listed after the watch is in place: an entry created meanwhile is seen at least once
    let entries;
    try { entries = readdirSync(abs, { withFileTypes: true }); } catch { return; }
    const found: string[] = [];
    for (const e of entries) {
      if (isSkippedDir(e.name)) continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!this.o.isIgnoredDir(child)) this.addTree(child, announce);
      } else if (announce && this.o.isNote(child)) {
        found.push(child);
      }
    }
    this.push(found);
  }

  /** Stop watching `rel` and everything under it; with `announce`, queue the notes the model holds there. */
  private dropTree(rel: string, announce: boolean): void {
    const prefix = rel + '/';
    for (const [d, x] of this.dirs) {
      if (d === rel || rel === '' || d.startsWith(prefix)) {
        x.w.close();
        this.dirs.delete(d);
      }
    }
    if (announce) this.push(this.o.knownUnder(rel));
  }

  private onEvent(dir: string, type: string, name: string | null): void {
    if (this.closed) return;
    if (name === null) {
      // the platform did not say which entry: re-list the folder
      this.rescan(dir);
      return;
    }
    if (isSkippedDir(name)) return;
    const rel = dir ? `${dir}/${name}` : name;
    const abs = join(this.o.root, rel);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (st?.isDirectory()) {
      if (this.o.isIgnoredDir(rel)) return;
      // created, moved in, or replaced: a folder removed and re-created at once may get its old inode
      // number back, so an entry created/removed/moved ('rename') is watched afresh; an attribute
      // change ('change') of a watched folder ends in addTree's same-inode no-op
      if (type === 'rename' && this.dirs.has(rel)) this.dropTree(rel, true);
      this.addTree(rel, true);
      return;
    }
    if (this.dirs.has(rel)) this.dropTree(rel, true); // a watched folder is gone (or is a file now)
    if (this.o.isNote(rel)) this.push([rel]);
  }

  /** Queue every note in `dir` and every note the model holds there; watch folders not yet watched. */
  private rescan(dir: string): void {
    const abs = dir ? join(this.o.root, dir) : this.o.root;
    const prefix = dir ? dir + '/' : '';
    const known = this.o.knownUnder(dir).filter((p) => !p.slice(prefix.length).includes('/'));
    this.push(known);
    let entries;
    try { entries = readdirSync(abs, { withFileTypes: true }); } catch { return; }
    const found: string[] = [];
    for (const e of entries) {
      if (isSkippedDir(e.name)) continue;
      const rel = prefix + e.name;
      if (e.isDirectory()) { if (!this.o.isIgnoredDir(rel) && !this.dirs.has(rel)) this.addTree(rel, true); }
      else if (this.o.isNote(rel)) found.push(rel);
    }
    this.push(found);
  }

  private push(paths: string[]): void {
    if (!paths.length || this.closed) return;
    if (this.pending.size === 0) this.firstAt = Date.now();
    for (const p of paths) this.pending.add(p);
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.o.quietMs, this.firstAt + this.o.maxWaitMs - Date.now()));
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

  /** folders being watched (vault-relative, '' = root), for tests and diagnostics */
  watchedDirs(): string[] { return [...this.dirs.keys()].sort(); }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    this.pending.clear();
    for (const x of this.dirs.values()) x.w.close();
    this.dirs.clear();
    await this.inflight;
  }
}
