#!/usr/bin/env node
// The `lorecraft` CLI. From a checkout it runs the TypeScript sources through
// tsx's loader (so a stale build can never shadow the code); where the sources
// are absent (an installed bundle) it runs the esbuild bundle dist/main/cli.mjs.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'main', 'cli', 'index.ts');
const built = join(root, 'dist', 'main', 'cli.mjs');
if (existsSync(source) && !process.env.LORECRAFT_FROM_BUNDLE) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
} else {
  await import(pathToFileURL(built).href);
}
