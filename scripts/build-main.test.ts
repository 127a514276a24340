/**
 * The esbuild bundles (Electron main, preload, CLI) build, and load nothing at
 * run time but what the packaged app has: Node built-ins, electron, kuzu, koffi (memory.ts's trim, loaded when first used).
 * Their text is Latin-1 only, so that V8 holds each bundle's source as a one-byte string (half the memory).
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

const allowed = new Set(['electron', 'kuzu', 'koffi', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

function runtimeRequires(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const found = new Set<string>();
  // (a require(...) right after a quote or backtick is text for generated code, e.g. ajv's `equal.code`)
  for (const m of code.matchAll(/(?<![`'\w.$])require\(\s*["']([^"'./][^"']*)["']\s*\)/g)) found.add(m[1]!);
  for (const m of code.matchAll(/^import\s.*?from\s*["']([^"'./][^"']*)["']/gm)) found.add(m[1]!);
  return [...found].filter((n) => !allowed.has(n)).sort();
}

describe('scripts/build-main.mjs', () => {
  it('bundles main, preload and CLI with only electron, kuzu, koffi and Node built-ins left to load', () => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build-main.mjs'), '--outdir', out], { cwd: root, stdio: 'pipe' });
    expect(runtimeRequires(join(out, 'main', 'electron', 'main.cjs'))).toEqual([]);
    expect(runtimeRequires(join(out, 'preload', 'preload.cjs'))).toEqual([]);
    expect(runtimeRequires(join(out, 'main', 'cli.mjs'))).toEqual([]);
    // the preload touches Electron only through contextBridge/ipcRenderer, exposing `lorecraft`
    const preload = readFileSync(join(out, 'preload', 'preload.cjs'), 'utf8');
    expect(preload).toContain('exposeInMainWorld("lorecraft"');
  });

  it('writes bundles of Latin-1 text only (a character past U+00FF makes V8 keep the whole source two-byte)', () => {
    for (const f of ['main/electron/main.cjs', 'preload/preload.cjs', 'main/cli.mjs', 'main/kuzu-load-child.mjs']) {
      const code = readFileSync(join(out, f), 'utf8');
      const wide = [...code.matchAll(/[\u0100-\uffff]/g)].slice(0, 3).map((m) => code.slice(Math.max(0, m.index - 30), m.index + 10));
      expect(wide, f).toEqual([]);
    }
    // what the escaping must keep: a regex of ours with an escaped character still matches it
    const cli = readFileSync(join(out, 'main', 'cli.mjs'), 'utf8');
    expect(cli).toContain('replace(/\\u2026$/, "")');
  });

  it('the bundled CLI runs', () => {
    const help = execFileSync(process.execPath, [join(out, 'main', 'cli.mjs'), '--help'], { cwd: root, encoding: 'utf8', env: { ...process.env, LORECRAFT_CLI_MAIN: '1' } });
    expect(help).toContain('web');
  });
});
