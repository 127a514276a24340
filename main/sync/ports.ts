/**
 * What the sync engine is handed instead of picking it (as Foam's bootstrap is handed its data store
 * and watcher): how the vault's notes are listed and read (VaultFs), and how changes are watched
 * (WatcherFactory). openCore passes today's implementations unless told otherwise. The write side
 * (main/edit/safe-fs.ts: confined, atomic writes) stays on node:fs.
 */
import type { LayerMap } from '../model/layers.js';
import type { ParseOptions } from '../parse/parse.js';
import { type ReadOutcome, readNotes, readNotesSync } from './read.js';
import type { NoteCache } from './stat-cache.js';
import { walkVault, type WalkResult } from './walk.js';
import { VaultWatcher, type WatcherOptions } from './watcher.js';

export interface VaultFs {
  /** every note of the vault: [vault-relative path, absolute path] pairs, plus walk problems */
  walk(root: string, layers: LayerMap): Promise<WalkResult>;
  /** read + parse these notes (never throws for a file: a problem instead); onProgress: files done so far, now and then */
  read(files: Iterable<[string, string]>, opts: ParseOptions, cache?: NoteCache, onProgress?: (done: number) => void): Promise<ReadOutcome>;
  /** the same for a few files, on the event loop (an edit's or a watcher batch's re-read) */
  readSync(files: Iterable<[string, string]>, opts: ParseOptions): ReadOutcome;
}

/** Today's file system: the walk of walk.ts and the reads of read.ts. */
export const nodeVaultFs: VaultFs = {
  walk: walkVault,
  read: (files, opts, cache, onProgress) => readNotes(files, opts, undefined, cache, onProgress),
  readSync: readNotesSync,
};

/** A running watcher: hands batches of changed note paths to `onBatch` (WatcherOptions). */
export interface VaultWatcherLike {
  start(): Promise<void>;
  /** hand over what is pending now */
  flushNow(): Promise<void>;
  close(): Promise<void>;
}

export type WatcherFactory = (o: WatcherOptions) => VaultWatcherLike;

/** Today's watcher: one fs.watch per folder (watcher.ts). */
export const nodeWatcher: WatcherFactory = (o) => new VaultWatcher(o);

export type { WatcherOptions } from './watcher.js';
