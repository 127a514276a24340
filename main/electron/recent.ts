/**
 * The recent-vaults list, persisted as JSON in the user data folder. Plain Node
 * (no Electron) so it is testable; an unreadable or malformed file is treated
 * as an empty list and rewritten on the next change, never a crash.
 */
import { existsSync, readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';

const FileZ = z.object({ version: z.literal(1), vaults: z.array(z.string()) });
export const RECENT_LIMIT = 10;

export class RecentVaults {
  constructor(private readonly file: string, private readonly limit = RECENT_LIMIT) {}

  /** Most recent first; vault folders that no longer exist are left out. */
  list(): string[] {
    return this.read().filter((dir) => existsSync(dir));
  }

  add(dir: string): string[] {
    const abs = resolve(dir);
    const next = [abs, ...this.read().filter((d) => d !== abs)].slice(0, this.limit);
    this.write(next);
    return next;
  }

  clear(): void {
    this.write([]);
  }

  private read(): string[] {
    try {
      return FileZ.parse(JSON.parse(readFileSync(this.file, 'utf8'))).vaults;
    } catch {
      return [];
    }
  }

  private write(vaults: string[]): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify({ version: 1, vaults }, null, 2) + '\n');
    renameSync(tmp, this.file);
  }
}
