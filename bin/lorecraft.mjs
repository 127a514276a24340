#!/usr/bin/env node
// The `lorecraft` CLI. Runs the TypeScript sources through tsx's loader, or the
// bundled build when it exists (packaged app).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'main', 'cli.mjs');
if (existsSync(built) && !process.env.LORECRAFT_FROM_SOURCE) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'main', 'cli', 'index.ts')).href);
}
