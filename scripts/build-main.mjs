#!/usr/bin/env node
// Bundles the Node side with esbuild:
//   main/electron/entry.ts -> dist/main/electron/main.cjs (Electron main, CJS; entry.ts: --cli or main.ts)
//   preload/preload.ts    -> dist/preload/preload.cjs     (sandboxed preload, CJS)
//   main/cli/index.ts     -> dist/main/cli.mjs            (the `lorecraft` CLI, ESM; bin/lorecraft.mjs prefers it)
//   main/store/kuzu/load-child.ts -> dist/main/kuzu-load-child.mjs (the graph's load process, forked by both)
// kuzu (native addon) and electron stay external.
// Usage: node scripts/build-main.mjs [--watch] [--no-cli] [--outdir DIR (default dist; tests build elsewhere)]
import { build, context } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');
const withCli = !process.argv.includes('--no-cli');
const outIdx = process.argv.indexOf('--outdir');
const out = outIdx > 0 ? process.argv[outIdx + 1] : join(root, 'dist');

/**
 * V8 keeps a script's source as a one-byte string only when every character of it is Latin-1 (U+0000–U+00FF): one
 * character past U+00FF anywhere makes the whole bundle's source two-byte, twice its size, in every process that runs
 * it (rss15g: the CLI bundle, ~3 MB of text, held as a 5.9 MB string by the web shell). esbuild escapes strings and
 * identifiers itself (charset 'ascii', its default), not comments and regex literals (ours, markdown-it's, tr46's,
 * pluralize's). So an input holding such characters is read with each of them written as \uXXXX (per UTF-16 unit):
 * the same string, regex or identifier; a comment reads escaped. An identity escape (`\…`) loses its backslash first
 * (`'\…'` is `'…'`). scripts/build-main.test.ts checks that the bundles are Latin-1.
 */
const latin1Sources = {
  name: 'latin1-sources',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!/[\u0100-\uffff]/.test(text)) return undefined;
      const contents = text.replace(/(\\*)([\u0100-\uffff])/g, (_, slashes, ch) => {
        const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
        let esc = '';
        for (let i = 0; i < ch.length; i++) esc += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
        return kept + esc;
      });
      return { contents, loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js' };
    });
  },
};

const common = {
  bundle: true,
  plugins: [latin1Sources],
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
