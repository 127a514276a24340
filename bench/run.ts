/**
 * npm run bench [-- --out FILE] [--quick]
 *
 * Core figures (milliseconds unless named otherwise), written as JSON
 * (default bench/results.json):
 *   cold_sync_ms[vault]        open + full sync until the graph is queryable (fresh database; openCore reads
 *                              the notes while the database opens), with cold_sync_phases_ms: open = before
 *                              the read started (config, lock), walk / read / model / store as the engine timed them
 *   search_ready_ms[vault]     ... until full-text search is ready (index built after the graph is usable)
 *   warm_open_ms[vault]        open again with that database (up to date, search index built) and sync
 *                              (incremental by hash: nothing changed) until queryable: opening a vault as usual
 *   read_parse_floor_ms[vault] the same files only walked, read and parsed: no model, no database. The least of
 *                              the reads at the vault's start and of those taken right before each time-to-interactive
 *                              open (paired: a slow period of the machine slows both of a pair)
 *   store_load_floor_ms[vault] Kùzu alone loading the same graph from files written beforehand (store-floor.ts),
 *                              with store_load_floor_phases_ms {entities, edges, commit, rel_tables}
 *   cold_sync_floor_ratio[vault]  cold_sync_ms / read_parse_floor_ms
 *   incremental_update_ms      one file changed on disk -> the watcher -> the graph answers with the change
 *   lookup_ms, neighbours_3hop_ms, path_ms, search_ms   {p50, p95, n}
 *   time_to_interactive_ms[vault]  openCore({interactive}) on a fresh database until list, a name lookup and getEntity
 *                              answered; tti_queryable_ms[vault]: the same open until the graph was queryable;
 *                              tti_runs[vault]: every such open, {ms, floor_ms: the read taken right before it,
 *                              gc_minor_ms, gc_major_ms: the collector's pauses that began within it (scavenges, the
 *                              rest)}; the best of three (one with --quick)
 *   warm_open_uncached_ms[vault]  warm open with the note cache deleted first: every file read and hashed (before it)
 *   warm_open_fresh_ms[vault]  the warm open as a new process's first open (bench/open.ts warmOpenFresh: a child
 *                              process per open, after the warm opens above; the best of as many): an app's launch
 *   warm_open_notes_cached[vault] {hits, misses} of the note cache in the warm open
 *   web_rss_mb[vault]          {cold, warm}: RSS of the real web shell process after opening the vault and settling
 *                              (bench/open.ts; generated vaults only, its database is <vault>/.lorecraft), run from
 *                              the CLI's bundle as it ships; web_rss_tsx_mb[vault]: run from the sources through tsx;
 *                              web_rss_idle_mb[vault]: the same two bundle shells read again 10 s later, left idle
 *   huge_note_peak_mb          {note_mb, peak_mb, baseline_mb, extra_mb, multiplier}: peak RSS of a process opening
 *                              a small vault with one ~9 MB note, beside the same vault without it (bench/huge-note.ts;
 *                              medians of three opens of each, every run in peak_runs_mb and baseline_runs_mb)
 *   rss_mb                     peak resident set size of this process
 * Then each optional area module bench/<area>.ts (store, edit, timeline, mcp,
 * canvas) is run with { quick, tmpDir, generateVault } and merged under its
 * area key; an area's failure is recorded there, not fatal.
 * Vaults: 1k and 10k synthetic (generate.ts), real7k (generate-real.ts: ~7,000 real-shaped notes, ~30 MB, no
 * schema), Thellade when the shared fixture is there.
 * --quick (CI): 1k + Thellade only, fewer samples (~1 minute). --core-only skips the area modules.
 * --only <area> (store, edit, timeline, mcp, canvas, export): that area module alone, no core figures
 * (the canvas area's sections: LORECRAFT_CANVAS_BENCH, see bench/canvas.ts).
 * --only open: only the opening figures (floor, cold sync, search ready, warm open, time to interactive, web
 * shell RSS) of 10k and real7k, and the huge note: no store floor, no queries, no area modules.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadVaultConfig } from '../main/config/load.js';
import { openCore, type CoreHost } from '../main/core/index.js';
import { LayerMap } from '../main/model/layers.js';
import { readVault } from '../main/sync/engine.js';
import { generateVault, type GeneratedVault } from './generate.js';
import { generateRealVault } from './generate-real.js';
import { hugeNotePeak } from './huge-note.js';
import { buildCliBundle, timeToInteractive, type TtiGc, warmOpenFresh, webRss, webRssReadings } from './open.js';
import { type StoreFloor, storeLoadFloor } from './store-floor.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const THELLADE_EXAMPLE = join(ROOT, 'examples', 'thellade');
const THELLADE = join(THELLADE_EXAMPLE, 'vault');

export interface Stat { p50: number; p95: number; n: number }
export function stat(xs: number[]): Stat {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
  const r = (v: number) => Math.round(v * 100) / 100;
  return { p50: r(at(0.5)), p95: r(at(0.95)), n: s.length };
}

/** the optional area modules bench/<area>.ts, in the order they run */
const AREAS = ['store', 'edit', 'timeline', 'mcp', 'canvas', 'export'];

let peakRss = 0;
const sampleRss = () => { peakRss = Math.max(peakRss, process.memoryUsage().rss); };

interface VaultSpec { key: string; dir: string; schemaPath?: string; configPath?: string; names?: string[]; generated?: boolean }

async function floor(v: VaultSpec): Promise<number> {
  const t0 = performance.now();
  const loaded = loadVaultConfig(v.dir, { ...(v.schemaPath ? { schemaPath: v.schemaPath } : {}), ...(v.configPath ? { configPath: v.configPath } : {}) });
  await readVault(v.dir, new LayerMap(loaded.config), { titleField: loaded.schema.title_field });
  return performance.now() - t0;
}

async function coldSync(v: VaultSpec, tmp: string): Promise<{ queryable: number; searchReady: number; core: CoreHost; phases: unknown }> {
  const db = mkdtempSync(join(tmp, `db-${v.key}-`));
  const t0 = performance.now();
  // openCore's own first sync, as the app, the CLI and the MCP server run it (the notes are read while the database opens)
  const core = await openCore({
    vaultDir: v.dir, dbDir: db, full: true,
    ...(v.schemaPath ? { schemaPath: v.schemaPath } : {}), ...(v.configPath ? { configPath: v.configPath } : {}),
  });
  const queryable = performance.now() - t0;
  await core.searchReady();
  const searchReady = performance.now() - t0;
  sampleRss();
  return { queryable, searchReady, core, phases: { open: Math.round(queryable - core.engine.timings.queryableMs), ...core.engine.timings.phases } };
}

/** Reopen a vault whose database is up to date: openCore with its own (incremental) first sync. */
async function warmOpen(v: VaultSpec, dbDir: string, uncached = false): Promise<{ ms: number; cached: unknown }> {
  if (uncached) rmSync(join(dbDir, 'notes.cache'), { force: true });
  const t0 = performance.now();
  const core = await openCore({
    vaultDir: v.dir, dbDir,
    ...(v.schemaPath ? { schemaPath: v.schemaPath } : {}), ...(v.configPath ? { configPath: v.configPath } : {}),
  });
  const ms = performance.now() - t0;
  const full = core.status().lastSync?.full;
  const cached = core.engine.timings.notesCached;
  await core.close();
  if (full) throw new Error(`warm open of ${v.key} rebuilt the graph: the database from the cold sync was not reused`);
  return { ms, cached };
}

async function timeAll(n: number, fn: (i: number) => Promise<unknown>): Promise<Stat> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    xs.push(performance.now() - t0);
  }
  sampleRss();
  return stat(xs);
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

async function queries(core: CoreHost, quick: boolean): Promise<Record<string, Stat>> {
  const r = rng(7);
  const ents = [...core.engine.model.entities()].filter((e) => !e.placeholder);
  const pick = () => ents[Math.floor(r() * ents.length)]!;
  const words = ['harbour', 'guild', 'storm', 'tower', 'merchant', 'omens', 'bridge', 'debt', 'river', 'priests'];
  await core.lookup(pick().name);
  return {
    lookup_ms: await timeAll(quick ? 300 : 1000, () => core.lookup(pick().name)),
    neighbours_3hop_ms: await timeAll(quick ? 40 : 150, () => core.relations(pick().id, { depth: 3 })),
    path_ms: await timeAll(quick ? 20 : 60, () => core.path(pick().id, pick().id, 6)),
    search_ms: await timeAll(quick ? 40 : 150, (i) => core.search(i % 3 === 0 ? pick().name : words[i % words.length]!, { limit: 20 })),
  };
}

/** One file changed on disk -> watcher -> model + store -> a store query sees the new edge. */
async function incremental(core: CoreHost, gen: GeneratedVault, n: number): Promise<Stat> {
  await core.watch();
  const r = rng(11);
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = Math.floor(r() * gen.paths.length);
    let b = Math.floor(r() * gen.paths.length);
    if (b === a) b = (b + 1) % gen.paths.length;
    const path = gen.paths[a]!;
    const idA = core.engine.model.entityIdOfPath(path)!;
    const idB = core.engine.model.entityIdOfPath(gen.paths[b]!)!;
    const text = `---\ntitle: ${gen.names[a]}\ntype: ${gen.types[a] === 'item' ? 'item' : gen.types[a]}\n---\nEdit ${i}: now about [[${gen.names[b]}]].\n`;
    const seen = new Promise<void>((res) => {
      const off = core.onChange((e) => { if (e.paths.includes(path)) { off(); res(); } });
    });
    const t0 = performance.now();
    await writeFile(join(gen.dir, path), text);
    await seen;
    const rows = await core.store.edgesOf(idA);
    if (!rows.some((e) => e.to === idB && e.type === 'LINKS_TO')) throw new Error(`incremental: edge ${idA} -> ${idB} not in the store after the change event`);
    xs.push(performance.now() - t0);
    await new Promise((res) => setTimeout(res, 20));
  }
  sampleRss();
  return stat(xs);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const quick = argv.includes('--quick');
  const only = argv.find((a) => a.startsWith('--only='))?.slice(7) ?? (argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined);
  if (only !== undefined && only !== 'open' && !AREAS.includes(only)) throw new Error(`--only: unknown section '${only}' (known: open, ${AREAS.join(', ')})`);
  const openOnly = only === 'open';
  /** --only <area>: that area module alone, no core figures */
  const areaOnly = only !== undefined && AREAS.includes(only) ? only : null;
  const oi = argv.indexOf('--out');
  const out = resolve(oi >= 0 && argv[oi + 1] ? argv[oi + 1]! : join(ROOT, 'bench', 'results.json'));
  const tmp = mkdtempSync(join(tmpdir(), 'lorecraft-bench-'));
  const timer = setInterval(sampleRss, 50);
  const started = Date.now();
  const result: Record<string, unknown> = {
    date: new Date().toISOString(), quick, node: process.version,
    cold_sync_ms: {}, cold_sync_phases_ms: {}, warm_open_ms: {}, search_ready_ms: {}, search_after_queryable_ms: {}, read_parse_floor_ms: {}, counts: {},
    store_load_floor_ms: {}, store_load_floor_phases_ms: {}, cold_sync_floor_ratio: {},
    time_to_interactive_ms: {}, tti_queryable_ms: {}, tti_runs: {}, warm_open_uncached_ms: {}, warm_open_fresh_ms: {}, warm_open_notes_cached: {}, web_rss_mb: {}, web_rss_idle_mb: {}, web_rss_tsx_mb: {},
  };
  const put = (k: string, vault: string, v: unknown) => { (result[k] as Record<string, unknown>)[vault] = v; };
  const log = (s: string) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${s}\n`);
  if (!areaOnly) try {
    const sizes = openOnly ? [10000] : quick ? [1000] : [1000, 10000];
    const specs: Array<VaultSpec & { gen?: GeneratedVault }> = [];
    for (const n of sizes) {
      const gen = await generateVault(join(tmp, `v${n}`), { entities: n, avgLinks: 5, seed: 1, danglingRatio: 0.05 });
      specs.push({ key: n >= 1000 ? `${n / 1000}k` : String(n), dir: gen.dir, gen, generated: true });
    }
    if (!quick) {
      const real = await generateRealVault(join(tmp, 'real7k'), { notes: 7000, seed: 3 });
      specs.push({ key: 'real7k', dir: real.dir, generated: true });
    }
    if (existsSync(THELLADE) && !openOnly) {
      specs.push({ key: 'thellade', dir: THELLADE, schemaPath: join(THELLADE_EXAMPLE, 'schema.yaml'), configPath: join(THELLADE_EXAMPLE, 'lorecraft.yaml') });
    }
    const runs = quick ? 1 : 2;
    /** time-to-interactive opens per vault, each right after a read + parse floor of its own */
    const ttiRuns = quick ? 1 : 3;
    let big: { core: CoreHost; spec: (typeof specs)[number] } | null = null;
    let bundle: string | null = null;
    for (const spec of specs) {
      const floors: number[] = [];
      for (let i = 0; i < runs; i++) floors.push(await floor(spec));
      let best: { queryable: number; searchReady: number; phases: unknown } | null = null;
      let storeFloor: StoreFloor | null = null;
      let closedDb: string | null = null;
      for (let i = 0; i < runs; i++) {
        const c = await coldSync(spec, tmp);
        if (!best || c.queryable < best.queryable) best = c;
        const s = c.core.status();
        put('counts', spec.key, { entities: s.entities, relationships: s.relationships, placeholders: s.placeholders });
        const m = c.core.engine.model;
        const sf = openOnly ? null : await storeLoadFloor(m.schema(), m.entities(), m.edges(), tmp);
        if (sf && (!storeFloor || sf.total < storeFloor.total)) storeFloor = sf;
        const keep = !openOnly && i === runs - 1 && spec.gen && spec === specs.filter((x) => x.gen).pop();
        if (keep) big = { core: c.core, spec }; else { await c.core.close(); closedDb ??= c.core.dbDir; }
      }
      put('cold_sync_ms', spec.key, Math.round(best!.queryable));
      put('search_ready_ms', spec.key, Math.round(best!.searchReady));
      put('search_after_queryable_ms', spec.key, Math.round(best!.searchReady - best!.queryable));
      put('cold_sync_phases_ms', spec.key, best!.phases);
      if (closedDb) {
        // interleaved: with the note cache (as saved by the last open) and without it (every file read)
        const warm: number[] = [];
        const uncached: number[] = [];
        await warmOpen(spec, closedDb); // the cold sync's snapshot dates from its read: racy for files written just before
        for (let i = 0; i < runs; i++) {
          uncached.push((await warmOpen(spec, closedDb, true)).ms);
          const w = await warmOpen(spec, closedDb);
          warm.push(w.ms);
          put('warm_open_notes_cached', spec.key, w.cached);
        }
        put('warm_open_ms', spec.key, Math.round(Math.min(...warm)));
        put('warm_open_uncached_ms', spec.key, Math.round(Math.min(...uncached)));
        // the same warm open as a new process's first (an app's launch), after the ones above
        const fresh: number[] = [];
        for (let i = 0; i < runs; i++) fresh.push(warmOpenFresh(ROOT, spec, closedDb));
        put('warm_open_fresh_ms', spec.key, Math.round(Math.min(...fresh)));
      }
      const tti: Array<{ ms: number; queryableMs: number; gc: TtiGc; floorMs: number }> = [];
      for (let i = 0; i < ttiRuns; i++) {
        // the floor again right before the open: both of the pair in the same period of the machine and state of the heap
        const floorMs = await floor(spec);
        floors.push(floorMs);
        const t = await timeToInteractive(spec, mkdtempSync(join(tmp, `db-tti-${spec.key}-`)));
        tti.push({ ...t, floorMs });
        await t.core.close();
      }
      put('read_parse_floor_ms', spec.key, Math.round(Math.min(...floors)));
      const bestTti = tti.reduce((a, b) => (b.ms < a.ms ? b : a));
      put('time_to_interactive_ms', spec.key, Math.round(bestTti.ms));
      put('tti_queryable_ms', spec.key, Math.round(bestTti.queryableMs));
      put('tti_runs', spec.key, tti.map((t) => ({ ms: Math.round(t.ms), floor_ms: Math.round(t.floorMs), gc_minor_ms: t.gc.minor_ms, gc_major_ms: t.gc.major_ms })));
      if (storeFloor) {
        put('store_load_floor_ms', spec.key, storeFloor.total);
        put('store_load_floor_phases_ms', spec.key, storeFloor);
      }
      put('cold_sync_floor_ratio', spec.key, Math.round((best!.queryable / Math.min(...floors)) * 100) / 100);
      if (spec.generated && !quick) {
        bundle ??= buildCliBundle(ROOT);
        const shell = await webRssReadings(ROOT, spec.dir, bundle);
        put('web_rss_mb', spec.key, shell.rss);
        put('web_rss_idle_mb', spec.key, shell.idle);
        put('web_rss_tsx_mb', spec.key, await webRss(ROOT, spec.dir));
      }
      log(`${spec.key}: floor ${Math.min(...floors).toFixed(0)} ms, store floor ${storeFloor?.total ?? '-'} ms, tti ${Math.round(bestTti.ms)} ms, web rss ${JSON.stringify((result.web_rss_mb as Record<string, unknown>)[spec.key] ?? '-')} MB, warm open ${String((result.warm_open_ms as Record<string, unknown>)[spec.key] ?? '-')} ms (fresh process ${String((result.warm_open_fresh_ms as Record<string, unknown>)[spec.key] ?? '-')} ms), queryable ${best!.queryable.toFixed(0)} ms, search ready ${best!.searchReady.toFixed(0)} ms`);
    }
    if (!quick) {
      result.huge_note_peak_mb = await hugeNotePeak(ROOT, tmp);
      log(`huge note: ${JSON.stringify(result.huge_note_peak_mb)}`);
    }
    if (big) {
      result.query_vault = big.spec.key;
      Object.assign(result, await queries(big.core, quick));
      log(`queries done on ${big.spec.key}`);
      result.incremental_update_ms = await incremental(big.core, big.spec.gen!, quick ? 15 : 40);
      log('incremental done');
      await big.core.close();
    }
  } catch (err) {
    result.error = err instanceof Error ? err.stack ?? err.message : String(err);
    log(`core bench failed: ${String(err)}`);
  }
  sampleRss();
  result.rss_mb = Math.round(peakRss / 1048576);

  const areas = areaOnly ? [areaOnly] : argv.includes('--core-only') || openOnly ? [] : AREAS;
  for (const area of areas) {
    const file = join(ROOT, 'bench', `${area}.ts`);
    if (!existsSync(file)) continue;
    const areaTmp = mkdtempSync(join(tmp, `${area}-`));
    const t0 = performance.now();
    try {
      const mod = await import(pathToFileURL(file).href) as { bench?: (ctx: unknown) => Promise<Record<string, unknown>> };
      if (typeof mod.bench !== 'function') throw new Error(`bench/${area}.ts exports no bench(ctx)`);
      result[area] = await mod.bench({ quick, tmpDir: areaTmp, generateVault });
    } catch (err) {
      result[area] = { error: err instanceof Error ? err.message : String(err) };
    }
    log(`${area}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    sampleRss();
  }
  clearInterval(timer);
  result.rss_mb_all_areas = Math.round(peakRss / 1048576);
  result.total_s = Math.round((Date.now() - started) / 100) / 10;
  writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
  rmSync(tmp, { recursive: true, force: true });
  log(`wrote ${out}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(() => process.exit(0), (err: unknown) => { process.stderr.write(String(err) + '\n'); process.exit(1); });
}
