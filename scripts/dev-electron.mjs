#!/usr/bin/env node
// `npm run dev`: the Vite dev server (renderer hot reload) + esbuild watching the
// Electron main and preload; Electron restarts when they are rebuilt.
// Needs the Electron binary: fetched on first use (scripts/electron-binary.mjs).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { context } from 'esbuild';
import { createServer } from 'vite';
import { electronBinary } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const electronPath = electronBinary(); // downloads it once; null + how to get it when impossible
if (!electronPath) process.exit(1);

const vite = await createServer({ configFile: join(root, 'vite.config.ts') });
await vite.listen();
const devUrl = vite.resolvedUrls?.local[0] ?? 'http://127.0.0.1:5173/';

let child = null;
let restarting = false;
function startElectron() {
  child = spawn(electronPath, ['.', ...process.argv.slice(2)], {
    cwd: root, stdio: 'inherit', env: { ...process.env, LORECRAFT_DEV_URL: devUrl },
  });
  child.on('exit', (code) => {
    if (restarting) return;
    void vite.close();
    process.exit(code ?? 0);
  });
}
function restartElectron() {
  if (!child) return startElectron();
  restarting = true;
  child.once('exit', () => { restarting = false; startElectron(); });
  child.kill('SIGTERM');
}

const restartPlugin = { name: 'restart-electron', setup(b) { b.onEnd((r) => { if (!r.errors.length) restartElectron(); }); } };
const common = {
  bundle: true, platform: 'node', target: 'node20', sourcemap: true, absWorkingDir: root, format: 'cjs',
  external: ['electron', 'kuzu', 'fsevents'],
  banner: { js: "const __lc_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__lc_import_meta_url', 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
};
const preload = await context({ ...common, entryPoints: ['preload/preload.ts'], outfile: 'dist/preload/preload.cjs' });
await preload.rebuild();
await preload.watch();
const main = await context({ ...common, entryPoints: ['main/electron/entry.ts'], outfile: 'dist/main/electron/main.cjs', plugins: [restartPlugin] });
await main.watch(); // first build starts Electron; later builds restart it
console.log(`dev-electron: renderer at ${devUrl} (hot reload); main and preload rebuild and restart Electron on change`);
