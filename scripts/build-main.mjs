#!/usr/bin/env node
// Bundles the Node side with esbuild:
//   main/electron/entry.ts -> dist/main/electron/main.cjs (Electron main, CJS; entry.ts: --cli or main.ts)
//   preload/preload.ts    -> dist/preload/preload.cjs     (sandboxed preload, CJS)
//   main/cli/index.ts     -> dist/main/cli.mjs            (the `lorecraft` CLI, ESM; bin/lorecraft.mjs prefers it)
//   main/store/kuzu/load-child.ts -> dist/main/kuzu-load-child.mjs (the graph's load process, forked by both)
// kuzu (native addon) and electron stay external.
// Usage: node scripts/build-main.mjs [--watch] [--no-cli] [--outdir DIR (default dist; tests build elsewhere)]
import { build, context } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');
const withCli = !process.argv.includes('--no-cli');
const outIdx = process.argv.indexOf('--outdir');
const out = outIdx > 0 ? process.argv[outIdx + 1] : join(root, 'dist');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'info',
  absWorkingDir: root,
  external: ['electron', 'kuzu', 'koffi', 'fsevents'],
};

// CJS has no import.meta: give it the bundle's own URL and folder.
const cjsImportMeta = {
  banner: { js: "const __lc_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__lc_import_meta_url', 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
};

const targets = [
  { ...common, ...cjsImportMeta, entryPoints: ['main/electron/entry.ts'], outfile: join(out, 'main/electron/main.cjs'), format: 'cjs' },
  { ...common, ...cjsImportMeta, entryPoints: ['preload/preload.ts'], outfile: join(out, 'preload/preload.cjs'), format: 'cjs' },
];
// the graph's bulk load runs in a process of its own (main/store/kuzu/load-process.ts), started from this file
targets.push({
  ...common, entryPoints: ['main/store/kuzu/load-child.ts'], outfile: join(out, 'main/kuzu-load-child.mjs'), format: 'esm',
  banner: { js: "import { createRequire as __lc_createRequire } from 'node:module'; const require = __lc_createRequire(import.meta.url);" },
});
if (withCli) {
  targets.push({
    ...common, entryPoints: ['main/cli/index.ts'], outfile: join(out, 'main/cli.mjs'), format: 'esm',
    // bundled CJS dependencies call require(): give the ESM bundle one
    banner: { js: "import { createRequire as __lc_createRequire } from 'node:module'; const require = __lc_createRequire(import.meta.url);" },
  });
}

if (watch) {
  for (const t of targets) await (await context(t)).watch();
  console.log('build-main: watching');
} else {
  await Promise.all(targets.map((t) => build(t)));
}
