/**
 * How this install starts its own CLI, for entries that other programs launch
 * (Claude Desktop's MCP entry, `lorecraft connect claude --print`). Three cases,
 * told apart by where this module's code lives (pure: the caller hands the facts):
 * - packaged app: the code is inside `<resources>/app.asar` (or `.unpacked`). The
 *   CLI is `<resources>/app.asar.unpacked/dist/main/cli.mjs`, run by the app's own
 *   executable in Node mode (`ELECTRON_RUN_AS_NODE=1`), the way VS Code ships its
 *   CLI: no window, no separate Node install.
 * - AppImage (Linux, `$APPIMAGE` set): the mount point changes at every launch, so
 *   the entry runs the stable `$APPIMAGE` with `--cli …`, which the app's main
 *   passes to the packaged CLI (main/electron/cli-passthrough.ts).
 * - a checkout: the running Node (or Electron in Node mode) and bin/lorecraft.mjs.
 */
import { existsSync } from 'node:fs';
import { dirname, join, posix, win32 } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface LaunchCommand {
  command: string;
  args: string[];
  /** variables the launcher must set (Claude Desktop: the entry's `env`) */
  env?: Record<string, string>;
}

export type InstallKind = 'packaged' | 'appimage' | 'checkout';

export interface InstallFacts {
  /** the file of the running code (this module, or the bundle it is in) */
  modulePath: string;
  execPath: string;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** process.versions.electron: Electron in a checkout needs Node mode too */
  electron?: string;
  exists?: (p: string) => boolean;
}

export interface Install {
  kind: InstallKind;
  /** how to run `lorecraft ARGS…` */
  cli(args: string[]): LaunchCommand;
  /** the CLI script the command runs (packaged/checkout), for checks and docs */
  script: string | null;
}

/** The path of the packaged CLI below an app's resources folder. */
export function packagedCliScript(resourcesDir: string, platform: NodeJS.Platform = process.platform): string {
  return (platform === 'win32' ? win32 : posix).join(resourcesDir, 'app.asar.unpacked', 'dist', 'main', 'cli.mjs');
}

export function detectInstall(facts: InstallFacts): Install {
  const exists = facts.exists ?? existsSync;
  const m = /^(.*)[\\/]app\.asar(?:\.unpacked)?[\\/]/.exec(facts.modulePath);
  if (m) {
    const resources = m[1]!;
    const appImage = facts.platform === 'linux' ? facts.env.APPIMAGE : undefined;
    if (appImage) return { kind: 'appimage', script: null, cli: (args) => ({ command: appImage, args: ['--cli', ...args] }) };
    const script = packagedCliScript(resources, facts.platform);
    return { kind: 'packaged', script, cli: (args) => ({ command: facts.execPath, args: [script, ...args], env: { ELECTRON_RUN_AS_NODE: '1' } }) };
  }
  // a checkout: the nearest folder above the code holding bin/lorecraft.mjs (sources:
  // main/install/; bundles: dist/main/, dist/main/electron/); else the bundle itself
  let script = facts.modulePath;
  for (let dir = dirname(facts.modulePath), i = 0; i < 4; i++, dir = dirname(dir)) {
    const bin = join(dir, 'bin', 'lorecraft.mjs');
    if (exists(bin)) { script = bin; break; }
  }
  const env = facts.electron ? { ELECTRON_RUN_AS_NODE: '1' } : undefined;
  return { kind: 'checkout', script, cli: (args) => ({ command: facts.execPath, args: [script, ...args], ...(env ? { env } : {}) }) };
}

/** This process's install. */
export function currentInstall(): Install {
  return detectInstall({
    modulePath: fileURLToPath(import.meta.url),
    execPath: process.execPath,
    platform: process.platform,
    env: process.env,
    electron: process.versions.electron,
  });
}
