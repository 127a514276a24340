/**
 * E2E fixtures: every test gets a FRESH temporary copy of the sample world, its
 * own web shell (`lorecraft web --vault COPY --port 0`, real core, real Kùzu)
 * and a page opened on the printed URL; plus a small DSL over the UI.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
export const SAMPLE = join(ROOT, 'resources', 'sample-world');

/** A vault on disk: read and rewrite its notes as a GM's editor would. */
export class Vault {
  constructor(readonly dir: string) {}
  path(rel: string): string { return join(this.dir, rel); }
  read(rel: string): Promise<string> { return readFile(this.path(rel), 'utf8'); }
  async edit(rel: string, change: (text: string) => string): Promise<void> {
    const before = await this.read(rel);
    const after = change(before);
    if (after === before) throw new Error(`edit of ${rel} changed nothing`);
    await writeFile(this.path(rel), after);
  }
  /** every note of the vault's layers (vault-relative) */
  notes(): string[] {
    const out: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p); else if (f.endsWith('.md')) out.push(relative(this.dir, p));
      }
    };
    for (const layer of ['setting', 'campaign']) walk(join(this.dir, layer));
    return out;
  }
}

export interface Shell { url: string; origin: string; token: string; port: number; output(): string }

/** What a GM does in the app, by name. */
export class App {
  constructor(readonly page: Page) {}
  get panel() { return this.page.getByTestId('entity-panel'); }
  get searchInput() { return this.page.getByTestId('search-input'); }
  sidebarItem(name: string) { return this.page.getByTestId('entity-item').filter({ hasText: new RegExp(`^${escapeRe(name)}`) }); }
  searchHit(name: string) { return this.page.getByTestId('search-hit').filter({ has: this.page.locator('.hit-name', { hasText: new RegExp(`^${escapeRe(name)}$`) }) }); }
  property(key: string) { return this.panel.locator(`[data-testid="entity-property"][data-key="${key}"] td`); }

  async search(text: string): Promise<void> {
    await this.page.keyboard.press('Control+K');
    await expect(this.searchInput).toBeFocused();
    await this.searchInput.fill(text);
  }
  async open(name: string): Promise<void> {
    await this.sidebarItem(name).first().click();
    await expect(this.page.getByTestId('entity-name')).toHaveText(name);
  }
  /** ask the live Cytoscape graph */
  canvas() {
    const page = this.page;
    return {
      hasNode: (id: string) => page.evaluate((i) => window.__lorecraft?.cy?.getElementById(i).nonempty() ?? false, id),
      label: (id: string) => page.evaluate((i) => (window.__lorecraft?.cy?.getElementById(i).data('label') as string | undefined) ?? null, id),
      hasEdge: (from: string, type: string, to: string) => page.evaluate(
        ([f, t, o]) => window.__lorecraft?.cy?.edges().some((e) => e.data('source') === f && e.data('type') === t && e.data('target') === o) ?? false,
        [from, type, to] as const,
      ),
      nodeCount: () => page.evaluate(() => window.__lorecraft?.cy?.nodes().length ?? 0),
    };
  }
}

function escapeRe(s: string): string { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

export async function startShell(vaultDir: string | null, dataDir: string, env: Record<string, string> = {}): Promise<{ shell: Shell; child: ChildProcess }> {
  if (!existsSync(join(ROOT, 'dist', 'renderer', 'index.html'))) {
    throw new Error('dist/renderer is missing: run `npm run build:renderer` before the e2e tests (npm test does)');
  }
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'lorecraft.mjs'), 'web', ...(vaultDir ? ['--vault', vaultDir] : []), '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, LORECRAFT_FROM_SOURCE: '1', LORECRAFT_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`web shell did not print LORECRAFT_URL within 45 s:\n${out}`)), 45_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /^LORECRAFT_URL=(\S+)$/m.exec(out);
      if (m) { clearTimeout(timer); ok(m[1]!); }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); fail(new Error(`web shell exited (${code}) before serving:\n${out}`)); });
  });
  const u = new URL(url);
  return { child, shell: { url, origin: u.origin, token: u.searchParams.get('token') ?? '', port: Number(u.port), output: () => out } };
}

/** SIGTERM, then SIGKILL after 15 s; resolves to the exit code, or the signal's name if one ended it */
export async function stopShell(child: ChildProcess): Promise<number | string | null> {
  if (child.exitCode !== null) return child.exitCode;
  if (child.signalCode !== null) return child.signalCode;
  const exited = new Promise<number | string | null>((ok) => child.once('exit', (code, signal) => ok(code ?? signal)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

export const test = base.extend<{ vault: Vault; shell: Shell; app: App; shellEnv: Record<string, string>; vaultSource: string }>({
  /** the folder each test copies its vault from (override per spec: `test.use({ vaultSource: ... })`) */
  vaultSource: [SAMPLE, { option: true }],
  /** extra environment for the web shell (override per spec: `test.extend({ shellEnv: ... })`) */
  shellEnv: [{}, { option: true }],
  vault: async ({ vaultSource }, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'lorecraft-e2e-'));
    await cp(vaultSource, join(dir, 'vault'), { recursive: true, filter: (s) => !s.includes('.lorecraft') });
    await use(new Vault(join(dir, 'vault')));
    await rm(dir, { recursive: true, force: true });
  },
  shell: async ({ vault, shellEnv }, use) => {
    const { child, shell } = await startShell(vault.dir, join(vault.dir, '..', 'userdata'), shellEnv);
    await use(shell);
    const code = await stopShell(child);
    // a clean shutdown (core and Kùzu closed) exits 0
    expect(code, `web shell exit code; output:\n${shell.output()}`).toBe(0);
  },
  app: async ({ page, shell }, use) => {
    await page.goto(shell.url);
    // (the first sync: well under a second here when quiet, seconds on a loaded machine)
    await expect(page.getByTestId('status-sync')).toContainText('idle', { timeout: 30_000 });
    // and the open's background work (the graph's load, search indexing: "idle" comes before it ends), so that its
    // late answers (the timeline's steps fetched again, the importance ranks restyling the canvas)
    // do not land in the middle of a test's first gestures
    await expect(page.getByTestId('status-progress')).toHaveCount(0, { timeout: 30_000 });
    await use(new App(page));
  },
});

export { expect };
