/**
 * The esbuild bundles (Electron main, preload, CLI) build, and load nothing at
 * run time but what the packaged app has: Node built-ins, electron, kuzu.
 * Built into a temp folder, not dist/ (bin/lorecraft.mjs prefers dist/main/cli.mjs when it exists).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
// inside the repo (node_modules/.cache) so the bundles resolve the external kuzu as they do from dist/
mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
const out = mkdtempSync(join(root, 'node_modules', '.cache', 'lorecraft-build-test-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const allowed = new Set(['electron', 'kuzu', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

function runtimeRequires(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const found = new Set<string>();
  // (a require(...) right after a quote or backtick is text for generated code, e.g. ajv's `equal.code`)
  for (const m of code.matchAll(/(?<![`'\w.$])require\(\s*["']([^"'./][^"']*)["']\s*\)/g)) found.add(m[1]!);
  for (const m of code.matchAll(/^import\s.*?from\s*["']([^"'./][^"']*)["']/gm)) found.add(m[1]!);
  return [...found].filter((n) => !allowed.has(n)).sort();
}

describe('scripts/build-main.mjs', () => {
  it('bundles main, preload and CLI with only electron, kuzu and Node built-ins left to load', () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build-main.mjs'), '--outdir', out], { cwd: root, stdio: 'pipe' });
    expect(runtimeRequires(join(out, 'main', 'electron', 'main.cjs'))).toEqual([]);
    expect(runtimeRequires(join(out, 'preload', 'preload.cjs'))).toEqual([]);
    expect(runtimeRequires(join(out, 'main', 'cli.mjs'))).toEqual([]);
    // the preload touches Electron only through contextBridge/ipcRenderer, exposing `lorecraft`
    const preload = readFileSync(join(out, 'preload', 'preload.cjs'), 'utf8');
    expect(preload).toContain('exposeInMainWorld("lorecraft"');
  });

  it('the bundled CLI runs', () => {
    const help = execFileSync(process.execPath, [join(out, 'main', 'cli.mjs'), '--help'], { cwd: root, encoding: 'utf8', env: { ...process.env, LORECRAFT_CLI_MAIN: '1' } });
    expect(help).toContain('web');
  });
});
