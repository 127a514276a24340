/**
 * A write transaction over vault files: conflict check of every file first,
 * then atomic writes (each announced to the sync engine with expectWrite), then
 * one applyPaths so the graph holds the change before the caller resumes.
 * Undo history stores every file's bytes before and after.
 */
import { createTwoFilesPatch } from 'diff';
import type { ChangeEvent } from '../../shared/types.js';
import type { SyncEngine } from '../sync/types.js';
import { CoreError } from '../domain/errors.js';
import { atomicWrite, readVaultFile, removeInVault, sha256 } from './safe-fs.js';

/** One file's content before and after a command (null: did not / does not exist). */
export interface FileChange { path: string; before: string | null; after: string | null }

export interface Changed { path: string; diff: string }

export interface EditResult {
  changed: Changed[];
  event: ChangeEvent;
}

export interface HistoryEntry {
  id: number;
  /** what the command did, for menus: "set status on Captain Varo" */
  label: string;
  origin: 'app' | 'mcp';
  at: string;
  files: FileChange[];
}

export function unifiedDiff(c: FileChange): string {
  return createTwoFilesPatch(c.before === null ? '/dev/null' : `a/${c.path}`, c.after === null ? '/dev/null' : `b/${c.path}`, c.before ?? '', c.after ?? '', undefined, undefined, { context: 3 });
}

/**
 * Refuse unless every file on disk still holds `expect` (its hash, or absence
 * for null). `why` explains the refusal in words ("changed since the graph read it").
 */
export async function checkFiles(vaultDir: string, files: Array<{ path: string; expect: string | null; mine: string | null }>, why: string): Promise<void> {
  for (const f of files) {
    const cur = await readVaultFile(vaultDir, f.path);
    const actual = cur?.hash ?? null;
    if (actual === f.expect) continue;
    const state = f.expect === null ? 'now exists' : actual === null ? 'was deleted' : 'changed';
    throw new CoreError('conflict', `${f.path} ${state} ${why}`, {
      path: f.path, expected: f.expect, actual, mine: f.mine, theirs: cur?.text ?? null,
    });
  }
}

/** Write (or delete) every file, then bring the graph up to date. Files must be checked first. */
export async function writeFiles(vaultDir: string, engine: SyncEngine, files: FileChange[], origin: 'app' | 'mcp'): Promise<EditResult> {
  const real = files.filter((f) => f.before !== f.after);
  // creations and modifications first, removals last: a rename never leaves the
  // vault without the note
  const order = [...real.filter((f) => f.after !== null), ...real.filter((f) => f.after === null)];
  const done: FileChange[] = [];
  try {
    for (const f of order) {
      await put(vaultDir, engine, f.path, f.after);
      done.push(f);
    }
  } catch (err) {
    // a write failed midway (disk full, permissions): put back what was written, best effort
    for (const f of done.reverse()) await put(vaultDir, engine, f.path, f.before).catch(() => undefined);
    if (done.length) await engine.applyPaths(done.map((f) => f.path), origin).catch(() => undefined);
    throw err;
  }
  const event = await engine.applyPaths(real.map((f) => f.path), origin);
  return { changed: real.map((f) => ({ path: f.path, diff: unifiedDiff(f) })), event };
}

async function put(vaultDir: string, engine: SyncEngine, path: string, text: string | null): Promise<void> {
  if (text !== null) {
    engine.expectWrite(path, sha256(Buffer.from(text, 'utf8')));
    await atomicWrite(vaultDir, path, text);
  } else {
    await removeInVault(vaultDir, path);
  }
}

/**
 * The net change of a sequence of file changes: per path, the bytes before the first and after the
 * last (in first-touched order); paths that end as they began are dropped.
 */
export function mergeChanges(files: FileChange[]): FileChange[] {
  const net = new Map<string, FileChange>();
  for (const f of files) {
    const prev = net.get(f.path);
    net.set(f.path, { path: f.path, before: prev ? prev.before : f.before, after: f.after });
  }
  return [...net.values()].filter((f) => f.before !== f.after);
}

/** Bounded undo/redo stacks. A new command clears redo. */
export class History {
  private done: HistoryEntry[] = [];
  private undone: HistoryEntry[] = [];
  private next = 1;
  constructor(private readonly limit = 200) {}

  push(label: string, origin: 'app' | 'mcp', files: FileChange[]): HistoryEntry {
    const e: HistoryEntry = { id: this.next++, label, origin, at: new Date().toISOString(), files };
    this.done.push(e);
    if (this.done.length > this.limit) this.done.shift();
    this.undone = [];
    return e;
  }
  peekUndo(): HistoryEntry | undefined { return this.done[this.done.length - 1]; }
  peekRedo(): HistoryEntry | undefined { return this.undone[this.undone.length - 1]; }
  markUndone(): void { const e = this.done.pop(); if (e) this.undone.push(e); }
  markRedone(): void { const e = this.undone.pop(); if (e) this.done.push(e); }
  list(): { undo: Array<Omit<HistoryEntry, 'files'> & { paths: string[] }>; redo: Array<Omit<HistoryEntry, 'files'> & { paths: string[] }> } {
    const view = (e: HistoryEntry) => ({ id: e.id, label: e.label, origin: e.origin, at: e.at, paths: e.files.map((f) => f.path) });
    return { undo: this.done.map(view).reverse(), redo: this.undone.map(view).reverse() };
  }
}

export function hashOf(text: string | null): string | null {
  return text === null ? null : sha256(Buffer.from(text, 'utf8'));
}
