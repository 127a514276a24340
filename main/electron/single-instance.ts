/**
 * One app instance per user: a second launch hands the first its `--vault` (made
 * absolute where it was launched) as the single-instance lock's data; the first
 * focuses its window and opens that vault unless it is the one already open.
 */
import { resolve } from 'node:path';

export interface LaunchData { vault: string | null }

export function launchData(vaultArg: string | undefined, cwd: string = process.cwd()): LaunchData {
  return { vault: vaultArg ? resolve(cwd, vaultArg) : null };
}

/** The vault the running instance should open for a second launch, or null: focus only. */
export function vaultToOpen(data: unknown, openVault: string | null): string | null {
  const vault = (data as Partial<LaunchData> | undefined)?.vault;
  if (typeof vault !== 'string' || vault === '') return null;
  return openVault !== null && resolve(openVault) === resolve(vault) ? null : vault;
}
