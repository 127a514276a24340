/** Flags shared by `sync` and `query`: where the vault, database and config files are. */
import { CoreError } from '../../domain/errors.js';
import { openCore, type CoreHost, type OpenCoreOptions } from '../../core/index.js';
import type { CliIo } from '../io.js';

export const VAULT_FLAGS = ['vault', 'db', 'config', 'schema'];

export function coreOptions(flags: Record<string, string | boolean>): OpenCoreOptions {
  const s = (k: string) => (typeof flags[k] === 'string' ? (flags[k] as string) : undefined);
  const o: OpenCoreOptions = { vaultDir: s('vault') ?? '.' };
  if (s('db')) o.dbDir = s('db')!;
  if (s('config')) o.configPath = s('config')!;
  if (s('schema')) o.schemaPath = s('schema')!;
  return o;
}

/** Opens the core, or prints why not and returns the exit code (1). */
export async function openOrFail(opts: OpenCoreOptions, io: CliIo, json: boolean): Promise<CoreHost | number> {
  try {
    return await openCore(opts);
  } catch (err) {
    reportError(err, io, json);
    return 1;
  }
}

export function reportError(err: unknown, io: CliIo, json: boolean): void {
  const code = err instanceof CoreError ? err.code : 'error';
  const message = err instanceof Error ? err.message : String(err);
  if (json) io.out(JSON.stringify({ error: { code, message } }));
  else io.err(`lorecraft: ${message}`);
}
