/** Flags shared by `sync` and `query`: where the vault, database and config files are. */
import { CoreError } from '../../domain/errors.js';
import { openCore, type CoreHost, type OpenCoreOptions } from '../../core/index.js';
import type { CliIo } from '../io.js';
import { progressLine, type ProgressLine } from '../progress.js';

export const VAULT_FLAGS = ['vault', 'db', 'config', 'schema'];

export function coreOptions(flags: Record<string, string | boolean>): OpenCoreOptions {
  const s = (k: string) => (typeof flags[k] === 'string' ? (flags[k] as string) : undefined);
  const o: OpenCoreOptions = { vaultDir: s('vault') ?? '.' };
  if (s('db')) o.dbDir = s('db')!;
  if (s('config')) o.configPath = s('config')!;
  if (s('schema')) o.schemaPath = s('schema')!;
  return o;
}

/**
 * Opens the core, or prints why not and returns the exit code (1). On a terminal the open's progress is shown
 * on stderr (progress.ts): erased once the core is open, or, with `progress` handed in, when the caller ends it.
 */
export async function openOrFail(opts: OpenCoreOptions, io: CliIo, json: boolean, progress?: ProgressLine): Promise<CoreHost | number> {
  const line = progress ?? progressLine(io);
  try {
    return await openCore({ ...opts, ...(line.onProgress ? { onProgress: line.onProgress } : {}) });
  } catch (err) {
    line.end();
    reportError(err, io, json);
    return 1;
  } finally {
    if (!progress) line.end();
  }
}

export function reportError(err: unknown, io: CliIo, json: boolean): void {
  const code = err instanceof CoreError ? err.code : 'error';
  const message = err instanceof Error ? err.message : String(err);
  if (json) io.out(JSON.stringify({ error: { code, message } }));
  else io.err(`lorecraft: ${message}`);
}
