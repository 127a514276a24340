/**
 * `<dbDir>/lock`: one process holds a vault's database. The file holds JSON
 * `{ pid, started, ...extra }` (the MCP bridge adds its endpoint). A lock whose
 * pid is no longer alive is stale and taken over.
 */
import { openSync, closeSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CoreError } from './api.js';

export interface LockInfo { pid: number; started?: string; [k: string]: unknown }

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(dbDir: string): LockInfo | null {
  try {
    const t = readFileSync(join(dbDir, 'lock'), 'utf8').trim();
    if (/^\d+$/.test(t)) return { pid: Number(t) };
    const j = JSON.parse(t) as LockInfo;
    return typeof j.pid === 'number' ? j : null;
  } catch { return null; }
}

export class VaultLock {
  private constructor(readonly file: string, private info: LockInfo) {}

  static acquire(dbDir: string): VaultLock {
    const file = join(dbDir, 'lock');
    const info: LockInfo = { pid: process.pid, started: new Date().toISOString() };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(file, 'wx');
        writeSync(fd, JSON.stringify(info) + '\n');
        closeSync(fd);
        return new VaultLock(file, info);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const held = readLock(dbDir);
      if (held && alive(held.pid)) {
        throw new CoreError('vault-locked',
          `the vault database ${dbDir} is in use by process ${held.pid}${held.pid === process.pid ? ' (this process)' : ''}; close it first`,
          { pid: held.pid, lockFile: file });
      }
      // stale (dead pid) or unreadable: take it over
      try { unlinkSync(file); } catch { /* raced with another taker */ }
    }
    throw new CoreError('vault-locked', `could not take the lock ${file}`, { lockFile: file });
  }

  /** Add fields to the lock (e.g. the MCP bridge endpoint). */
  update(extra: Record<string, unknown>): void {
    this.info = { ...this.info, ...extra, pid: process.pid };
    writeFileSync(this.file, JSON.stringify(this.info) + '\n');
  }

  release(): void {
    const held = readLock(join(this.file, '..'));
    if (held && held.pid !== process.pid) return;
    try { unlinkSync(this.file); } catch { /* already gone */ }
  }
}
