#!/usr/bin/env node
// The Electron binary, fetched on first use. `npm ci` does not download it
// (package.json allowScripts denies electron's install script, and electron is an
// optional dependency, so an install on an offline machine never rolls back);
// `npm start` and `npm run dev` call electronBinary(), which runs electron's own
// installer once and, when that fails, explains how to get the binary in one
// paragraph instead of a stack trace.
//   node scripts/electron-binary.mjs [ARGS...]   ensure the binary, then run Electron with ARGS
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

export const HOW_TO_GET_ELECTRON = [
  'Lorecraft: the Electron binary is not installed and could not be downloaded',
  '(npm ci never downloads it, so an install without network still succeeds; the web shell,',
  'the CLI, MCP and the tests need no Electron). To get it: run `npm start` again with network',
  'access; where GitHub is blocked, point ELECTRON_MIRROR at a mirror (e.g. https://npmmirror.com/mirrors/electron/,',
  'with ELECTRON_CUSTOM_DIR if its folders are not named after the version); or unzip',
  'electron-v<version>-<os>-<arch>.zip (fetched anywhere) into a folder and set ELECTRON_OVERRIDE_DIST_PATH',
  'to it; or use `npm run web`, the same app in your browser.',
].join(' ');

/** The path of the Electron executable, downloading it once; null (and the paragraph on stderr) when impossible. */
export function electronBinary() {
  const tryPath = () => {
    try { return require('electron'); } catch { return null; }
  };
  let path = tryPath();
  if (path && existsSync(path)) return path;
  let pkgDir;
  try { pkgDir = dirname(require.resolve('electron/package.json')); } catch {
    console.error(HOW_TO_GET_ELECTRON.replace('is not installed and could not be downloaded', 'package is not installed (npm ci dropped the optional dependency)'));
    return null;
  }
  console.error('Lorecraft: downloading the Electron binary (once)…');
  const r = spawnSync(process.execPath, [join(pkgDir, 'install.js')], { cwd: pkgDir, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  path = tryPath();
  if (r.status === 0 && path && existsSync(path)) return path;
  const why = (r.stderr || '').split('\n').find((l) => /Error|ENOTFOUND|ECONN|ETIMEDOUT/.test(l))?.trim();
  console.error(`${HOW_TO_GET_ELECTRON}${why ? ` (The download said: ${why})` : ''}`);
  return null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const bin = electronBinary();
  if (!bin) process.exit(1);
  const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit', cwd: join(dirname(fileURLToPath(import.meta.url)), '..') });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : code ?? 0));
}
