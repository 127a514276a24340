/**
 * Opening a vault at real size (issue 15 point 6), used by bench/run.ts:
 *   time_to_interactive_ms[vault]  openCore on a fresh database until the core has answered list, a name
 *                                  lookup and getEntity (what the app's first screen asks)
 *   web_rss_mb[vault]              resident memory of the real web shell (`lorecraft web --vault DIR --port 0`,
 *                                  its own process) after opening the vault and settling: {cold: first open (no
 *                                  database), warm: opened again}, read from /proc. Run as it ships: the esbuild
 *                                  bundle of the CLI (built by buildCliBundle, as `npm run build:main` does);
 *                                  web_rss_tsx_mb: the same from the sources through tsx (bin/lorecraft.mjs in a
 *                                  checkout), whose loader and compiled sources cost ~35 MB more
 *   web_rss_idle_mb[vault]         {cold, warm}: the same two shells (the bundle) read again WEB_RSS_IDLE_MS (10 s)
 *                                  after web_rss_mb's reading, nothing asked of them meanwhile
 *   warm_open_fresh_ms[vault]      a warm open (the database up to date, nothing changed) as the first thing a new
 *                                  process does: openCore timed as bench/run.ts's warm_open_ms times it, in a child
 *                                  process (`node bench/open.ts --warm-open VAULT DB`, from the sources through tsx,
 *                                  its modules loaded before the clock starts): what a GM sees at the app's launch,
 *                                  with no earlier open's heap in the process
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PerformanceObserver, constants as perfConstants, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openCore, type CoreHost } from '../main/core/index.js';

export interface OpenSpec { key: string; dir: string; schemaPath?: string; configPath?: string }

/**
 * ms from openCore's start (interactive: it returns once the model holds the vault) until list, lookup and
 * getEntity have answered, and until the graph was queryable (what an open waited for before); the core is
 * handed back open.
 */
export async function timeToInteractive(v: OpenSpec, dbDir: string): Promise<{ ms: number; queryableMs: number; gc: TtiGc; core: CoreHost }> {
  watchGc();
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
  // (the observer's entries arrive after the fact: the settle above let them in)
  return { ms, queryableMs: performance.now() - t0, gc: gcWithin(t0, t0 + ms), core };
}

/** the garbage collector's pauses that began within a time to interactive: ms of minor (scavenges) and of the rest (major) */
export interface TtiGc { minor_ms: number; major_ms: number }
const gcLog: Array<{ start: number; ms: number; minor: boolean }> = [];
let gcObserver: PerformanceObserver | null = null;
function watchGc(): void {
  if (gcObserver) return;
  gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcLog.push({ start: e.startTime, ms: e.duration, minor: ((e as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR });
    }
    if (gcLog.length > 10_000) gcLog.splice(0, gcLog.length - 10_000);
  });
  gcObserver.observe({ entryTypes: ['gc'] });
}
function gcWithin(from: number, to: number): TtiGc {
  let minor = 0;
  let major = 0;
  for (const g of gcLog) if (g.start >= from && g.start < to) { if (g.minor) minor += g.ms; else major += g.ms; }
  return { minor_ms: Math.round(minor), major_ms: Math.round(major) };
}

/**
 * ms of a warm open of `v` over `dbDir` (a database brought up to date by an earlier open) in a new process:
 * openCore until it returns, as warmOpen in bench/run.ts times it. The child refuses an open that rebuilt the graph.
 */
export function warmOpenFresh(root: string, v: OpenSpec, dbDir: string): number {
  const args = [join(root, 'bin', 'run-ts.mjs'), join(root, 'bench', 'open.ts'), '--warm-open', v.dir, dbDir,
    ...(v.schemaPath ? ['--schema', v.schemaPath] : []), ...(v.configPath ? ['--config', v.configPath] : [])];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 300_000 });
  const m = /^WARM_OPEN_MS=([\d.]+)$/m.exec(r.stdout ?? '');
  if (r.status !== 0 || !m) throw new Error(`warm open of ${v.key} in a new process failed (${r.status}): ${(r.stderr ?? '').slice(-500)}`);
  return Number(m[1]);
}

/** The child of warmOpenFresh: `--warm-open VAULT DB [--schema F] [--config F]`. */
async function warmOpenChild(argv: string[]): Promise<void> {
  const [dir, dbDir] = argv;
  if (!dir || !dbDir) throw new Error('usage: open.ts --warm-open VAULT DB [--schema F] [--config F]');
  const opt = (name: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
  const schemaPath = opt('--schema');
  const configPath = opt('--config');
  const t0 = performance.now();
  const core = await openCore({ vaultDir: dir, dbDir, ...(schemaPath ? { schemaPath } : {}), ...(configPath ? { configPath } : {}) });
  const ms = performance.now() - t0;
  const full = core.status().lastSync?.full;
  await core.close();
  if (full) throw new Error(`warm open of ${dir} rebuilt the graph: the database was not reused`);
  process.stdout.write(`WARM_OPEN_MS=${ms.toFixed(1)}\n`);
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** The live child processes of `pid` (the graph's load process while it runs: main/store/kuzu/load-process.ts). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      for (const c of readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ')) if (c.trim()) out.push(Number(c));
    }
  } catch { /* exited */ }
  return out;
}

/** CPU time (user + system, clock ticks) the process has used so far, all its threads (Kùzu's too). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]);
}

/**
 * Spawn the web shell on `dir` (its database in `<dir>/.lorecraft`), wait until it serves (it serves once the
 * model answers: the graph loads and search indexes in the background), then until it has settled: for 2 s its
 * RSS has not grown by more than 2 MB, it used under 0.1 s of CPU and it had no child process (the graph's load
 * process); then read the RSS.
 */
/** Build the CLI bundle into `<root>/dist/bench` (fresh: never a stale build) and return its entry. */
export function buildCliBundle(root: string): string {
  const out = join(root, 'dist', 'bench');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build-main.mjs'), '--outdir', out], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the CLI bundle failed: ${r.stderr.slice(-500)}`);
  return join(out, 'main', 'cli.mjs');
}

export async function webShellRss(root: string, dir: string, timeoutMs = 180_000, cli = join(root, 'bin', 'lorecraft.mjs')): Promise<number> {
  return (await webShellReadings(root, dir, timeoutMs, cli, 0)).settled;
}

/**
 * webShellRss's reading (`settled`, the same settle rule) and, with `idleMs` > 0, a second reading of the same
 * process `idleMs` after it, nothing asked of the shell meanwhile (`idle`: what an open shell holds once V8's
 * own idle-time work and the session's delayed collections have run; null without idleMs).
 */
export async function webShellReadings(
  root: string, dir: string, timeoutMs: number, cli: string, idleMs: number,
): Promise<{ settled: number; idle: number | null }> {
  // The shell reads the renderer's files per request (none is made here): without a build, an empty page stands in.
  let renderer = join(root, 'dist', 'renderer');
  if (!existsSync(renderer)) {
    renderer = join(dir, '..', 'renderer-stub');
    mkdirSync(renderer, { recursive: true });
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Lorecraft</title>\n');
  }
  const child = spawn(process.execPath, [cli, 'web', '--vault', dir, '--port', '0', '--renderer', renderer], {
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
    let ticksSince = cpuTicks(pid);
    const start = performance.now();
    while (performance.now() - stableSince < 2000 && performance.now() - start < timeoutMs) {
      await new Promise((r) => setTimeout(r, 200));
      const now = rssOf(pid);
      const ticks = cpuTicks(pid);
      // not settled while a child process (the graph's load) still works for it
      if (now > last + 2 * 1048576 || ticks - ticksSince > 10 || childrenOf(pid).length > 0) { stableSince = performance.now(); ticksSince = ticks; }
      last = Math.max(last, now);
    }
    const settled = rssOf(pid);
    if (idleMs <= 0) return { settled, idle: null };
    await new Promise((r) => setTimeout(r, idleMs));
    return { settled, idle: rssOf(pid) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) { child.kill('SIGTERM'); await exited; }
  }
}

/** Both web shell figures for a vault: first open, then opened again (its database kept); `cli`: which CLI runs it. */
export async function webRss(root: string, dir: string, cli?: string): Promise<{ cold: number; warm: number }> {
  const db = resolve(dir, '.lorecraft');
  if (existsSync(db)) rmSync(db, { recursive: true, force: true });
  const mb = (b: number) => Math.round(b / 1048576);
  const cold = mb(await webShellRss(root, dir, undefined, cli));
  const warm = mb(await webShellRss(root, dir, undefined, cli));
  rmSync(db, { recursive: true, force: true });
  return { cold, warm };
}

/** How long after the settled reading webRssReadings reads the shell again. */
export const WEB_RSS_IDLE_MS = 10_000;

/**
 * webRss's figures (`rss`: the same processes, the same settle rule, so the same reading as webRss) and, from
 * each of the two shells, a second reading WEB_RSS_IDLE_MS later (`idle`).
 */
export async function webRssReadings(root: string, dir: string, cli: string): Promise<{ rss: { cold: number; warm: number }; idle: { cold: number; warm: number } }> {
  const db = resolve(dir, '.lorecraft');
  if (existsSync(db)) rmSync(db, { recursive: true, force: true });
  const mb = (b: number | null) => Math.round((b ?? 0) / 1048576);
  const cold = await webShellReadings(root, dir, 180_000, cli, WEB_RSS_IDLE_MS);
  const warm = await webShellReadings(root, dir, 180_000, cli, WEB_RSS_IDLE_MS);
  rmSync(db, { recursive: true, force: true });
  return { rss: { cold: mb(cold.settled), warm: mb(warm.settled) }, idle: { cold: mb(cold.idle), warm: mb(warm.idle) } };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === '--warm-open') {
  warmOpenChild(process.argv.slice(3)).then(() => process.exit(0), (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
  });
}
