#!/usr/bin/env node
// Runs a TypeScript entry file with tsx's loader: node bin/run-ts.mjs FILE [args...]
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [, , file, ...rest] = process.argv;
if (!file) { console.error('usage: run-ts FILE [args...]'); process.exit(2); }
process.argv = [process.argv[0], resolve(file), ...rest];
const { register } = await import('tsx/esm/api');
register();
await import(pathToFileURL(resolve(file)).href);
