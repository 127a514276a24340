/**
 * `Lorecraft --cli ARGS…` (the AppImage's `lorecraft` command and its Claude
 * Desktop entry): runs the packaged CLI with ARGS under this same executable in
 * Node mode (ELECTRON_RUN_AS_NODE=1), stdio passed through, and exits with its
 * code — no window. The AppImage's mount lives as long as this process does.
 */
import { spawn } from 'node:child_process';
import { packagedCliScript } from '../core/index.js';

/** The CLI arguments after `--cli`, or null when the app starts normally. */
export function cliArgs(argv: string[]): string[] | null {
  const i = argv.indexOf('--cli');
  return i >= 0 ? argv.slice(i + 1) : null;
}

export function runCliPassthrough(args: string[], exit: (code: number) => void): void {
  const child = spawn(process.execPath, [packagedCliScript(process.resourcesPath), ...args], {
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    windowsHide: true,
  });
  child.on('error', (err) => { process.stderr.write(`lorecraft: ${err.message}\n`); exit(1); });
  child.on('exit', (code, signal) => exit(signal ? 1 : code ?? 0));
}
