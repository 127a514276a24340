/**
 * Opening a vault at real size (issue 15 point 6), used by bench/run.ts:
 *   time_to_interactive_ms[vault]  openCore on a fresh database until the core has answered list, a name
 *                                  lookup and getEntity (what the app's first screen asks)
 *   web_rss_mb[vault]              resident memory of the real web shell (`bin/lorecraft.mjs web --vault DIR
 *                                  --port 0`, its own process) after opening the vault and settling:
 *                                  {cold: first open (no database), warm: opened again}, read from /proc
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openCore, type CoreHost } from '../main/core/index.js';

export interface OpenSpec { key: string; dir: string; schemaPath?: string; configPath?: string }

/**
 * ms from openCore's start (interactive: it returns once the model holds the vault) until list, lookup and
 * getEntity have answered, and until the graph was queryable (what an open waited for before); the core is
 * handed back open.
 */
export async function timeToInteractive(v: OpenSpec, dbDir: string): Promise<{ ms: number; queryableMs: number; core: CoreHost }> {
  const t0 = performance.now();
  const core = await openCore({
    vaultDir: v.dir, dbDir, full: true, interactive: true,
    ...(v.schemaPath ? { schemaPath: v.schemaPath } : {}), ...(v.configPath ? { configPath: v.configPath } : {}),
  });
  const page = await core.list({ limit: 50 });
  const first = page.items[0];
  if (!first) throw new Error(`time to interactive: ${v.key} lists no entity`);
  await core.lookup(first.name.slice(0, 3));
  if (!(await core.getEntity(first.id))) throw new Error(`time to interactive: ${v.key}: getEntity(${first.id}) found nothing`);
  const ms = performance.now() - t0;
  await core.engine.settled();
  return { ms, queryableMs: performance.now() - t0, core };
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/**
 * Spawn the web shell on `dir` (its database in `<dir>/.lorecraft`), wait until it serves, then until its RSS
 * has not grown by more than 2 MB for 2 s (the search index is built in the background), and read the RSS.
 */
export async function webShellRss(root: string, dir: string, timeoutMs = 180_000): Promise<number> {
  // The shell reads the renderer's files per request (none is made here): without a build, an empty page stands in.
  let renderer = join(root, 'dist', 'renderer');
  if (!existsSync(renderer)) {
    renderer = join(dir, '..', 'renderer-stub');
    mkdirSync(renderer, { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Lorecraft</title>\n');
  }
  const child = spawn(process.execPath, [join(root, 'bin', 'lorecraft.mjs'), 'web', '--vault', dir, '--port', '0', '--renderer', renderer], {
    stdio: ['ignore', 'pipe', 'pipe'], cwd: root,
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  try {
    await new Promise<void>((ok, fail) => {
      let out = '';
      const timer = setTimeout(() => fail(new Error(`web shell did not serve within ${timeoutMs} ms: ${err.slice(-500)}`)), timeoutMs);
      child.stdout.on('data', (d: Buffer) => { out += d.toString(); if (out.includes('LORECRAFT_URL=')) { clearTimeout(timer); ok(); } });
      child.once('exit', (code) => { clearTimeout(timer); fail(new Error(`web shell exited (${code}): ${err.slice(-500)}`)); });
    });
    const pid = child.pid!;
    let last = rssOf(pid);
    let stableSince = performance.now();
    const start = performance.now();
    while (performance.now() - stableSince < 2000 && performance.now() - start < timeoutMs) {
      await new Promise((r) => setTimeout(r, 200));
      const now = rssOf(pid);
      if (now > last + 2 * 1048576) stableSince = performance.now();
      last = Math.max(last, now);
    }
    return rssOf(pid);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) { child.kill('SIGTERM'); await exited; }
  }
}

/** Both web shell figures for a vault: first open, then opened again (its database kept). */
export async function webRss(root: string, dir: string): Promise<{ cold: number; warm: number }> {
  const db = resolve(dir, '.lorecraft');
  if (existsSync(db)) rmSync(db, { recursive: true, force: true });
  const mb = (b: number) => Math.round(b / 1048576);
  const cold = mb(await webShellRss(root, dir));
  const warm = mb(await webShellRss(root, dir));
  rmSync(db, { recursive: true, force: true });
  return { cold, warm };
}
