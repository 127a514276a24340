#!/usr/bin/env node
// The `lorecraft` CLI. From a checkout it runs the TypeScript sources through
// tsx's loader (so a stale build can never shadow the code); where the sources or
// tsx (a dev dependency) are absent it runs the esbuild bundle dist/main/cli.mjs
// (`npm run build:main`), the same bundle the desktop package ships.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'main', 'cli', 'index.ts');
const built = join(root, 'dist', 'main', 'cli.mjs');

async function tsxRegister() {
  try {
    return (await import('tsx/esm/api')).register;
  } catch {
    return null;
  }
}

const register = existsSync(source) && !process.env.LORECRAFT_FROM_BUNDLE ? await tsxRegister() : null;
if (register) {
  register();
  await import(pathToFileURL(source).href);
} else if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  process.stderr.write('lorecraft: neither tsx (npm ci installs it) nor the built CLI (npm run build:main) is here\n');
  process.exit(2);
}
