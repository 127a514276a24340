/**
 * The players' view switch (issue 17, point 2; part of the `export` area): the 10k scrubbing world
 * (bench/scrub-world.ts: the sample world's schema, where NPCs are GM-only by default; 200 events over 67
 * sessions, every tenth made GM-only here) opened in a real core behind the app's session and handlers
 * (main/app/handlers through shared/rpc's dispatch: zod in and out, as the web shell answers the renderer).
 *
 * One switch = what the renderer does when the GM presses `v` (renderer/features/view/slice.ts): `view-set`
 * players at the timeline's (layer, session), then, all at once, what it refetches: vault-status,
 * entity-list, graph-snapshot then canvas-importance, entity-get of the open entity, problems-list,
 * timeline-sessions then timeline-graph-at and timeline-state at the session. Timed until the last answer.
 * The overlays of the other sessions the scrubber prefetches afterwards are not part of it.
 *
 *   players_view_switch_ms {p50, p95, n, first}: the app's switch. The GM's timeline rested at a session not
 *       shown before (the renderer told main, which built the players' view there in the background), then `v`.
 *       first: the first switch after the vault opened (the players' timeline built in the background too).
 *   players_view_switch_cold_ms {p50, p95, n, first}: the same with nothing built ahead: `v` pressed at once
 *       after the timeline moved to a session not shown before; first: at once after opening.
 *   players_view_switch_cached_ms {p50, p95, n}: back to the GM view and again to the same session.
 *   players_view_entities / players_view_total: entities the players see (of all, placeholders included)
 *   players_view_first_cpu_ms {cold, warm}: the CPU time (process.cpuUsage, user + system, every thread of the
 *       process) of the two `first` switches above: steadier than their wall clock on a loaded machine.
 *   players_view_switch_fresh_first_ms {wall, cpu, idle}: the app's first switch in a fresh process (a child
 *       process of this one, on the same world): opened with the core's background work on, the GM looks at the
 *       world (as above) and their timeline rests at session 30 for REST_MS, then `v`. The two `first` keys above
 *       run after code of the same process has already run (the warm one after the whole cold part), this one
 *       with the process's code as cold as the app's after an open. idle: the core's background preparation had
 *       ended when `v` was pressed. LORECRAFT_PLAYERS_FRESH=0 leaves it out.
 *
 * The same first switches on the real-shaped vault (bench/generate-real.ts, 7,000 notes, ~183k relationships: above
 * PREPARE_RELATIONSHIPS_MAX, so nothing but the players' index, list order and problems' names is prepared ahead). It
 * has no lorecraft.yaml (one layer, no events): `v` at its only layer, after every event (session null), the same
 * requests as above (the timeline's at session null):
 *   players_view_real7k_first_ms {cold, warm}: the first switch at once after opening with nothing built ahead
 *       (cold), and after the GM looked at the world a moment with the core's background preparation on (warm).
 *   players_view_real7k_first_cpu_ms {cold, warm}: their CPU time, as players_view_first_cpu_ms.
 *   players_view_real7k_relationships, players_view_real7k_entities: the vault's relationships and entities;
 *       players_view_real7k_seen: entities players see.
 *   (--quick: 700 notes.) LORECRAFT_PLAYERS_REAL=0 leaves this part out.
 *
 * LORECRAFT_PLAYERS_PROFILE=<dir>: a CPU profile of each `first` switch (first-cold.cpuprofile, first-warm.cpuprofile,
 * real7k-cold.cpuprofile, real7k-warm.cpuprofile).
 *
 *   node bin/run-ts.mjs bench/players-view.ts [--quick]   prints the JSON
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { Session as Inspector } from 'node:inspector/promises';
import { CoreSession, openCore } from '../main/core/index.js';
import { createHandlers } from '../main/app/handlers/index.js';
import { dispatch } from '../shared/rpc.js';
import type { Channel, Req, Res } from '../shared/contract.js';
import { generateScrubWorld } from './scrub-world.js';
import { generateRealVault } from './generate-real.js';

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), n: s.length };
};

/** how long the GM's timeline rests before `v` (the renderer tells main after 250 ms; main builds 300 ms later) */
const REST_MS = 1500;
const LAYER = 'campaign';

/** `fn` under the V8 CPU profiler when LORECRAFT_PLAYERS_PROFILE names a folder (written there as `<name>.cpuprofile`) */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = process.env.LORECRAFT_PLAYERS_PROFILE;
  if (!dir) return fn();
  const ins = new Inspector();
  ins.connect();
  await ins.post('Profiler.enable');
  await ins.post('Profiler.setSamplingInterval', { interval: 100 });
  await ins.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await ins.post('Profiler.stop');
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    ins.disconnect();
  }
}

/** the CPU time of `fn` (user + system, ms) beside its answer */
async function cpuOf<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const c0 = process.cpuUsage();
  const v = await fn();
  const c = process.cpuUsage(c0);
  return [v, Math.round((c.user + c.system) / 1000)];
}

export async function playersViewBench(ctx: { quick: boolean; tmpDir: string }): Promise<Record<string, unknown>> {
  const n = ctx.quick ? 1000 : 10_000;
  const dir = join(ctx.tmpDir, 'players-world');
  const gen = await generateScrubWorld(dir, { entities: n, events: 200, sessions: 67 });
  const sessions = join(dir, 'campaign', 'sessions');
  readdirSync(sessions).filter((f) => f.endsWith('.md')).sort().forEach((f, i) => {
    if (i % 10 !== 9) return;
    const p = join(sessions, f);
    writeFileSync(p, readFileSync(p, 'utf8').replace(/^---\n/, '---\nvisibility: gm\n'));
  });
  const dbDir = mkdtempSync(join(ctx.tmpDir, 'db-'));
  // cold until aheadFrom(): the app's session with nothing built ahead (the core's background warm-up turned off)
  const { session, call, aheadFrom } = benchSession(dbDir);
  /** the GM view with its timeline at `at` (what the renderer tells main once the timeline rests) */
  const gm = (at: number | null) => call('view-set', { audience: 'gm', layer: LAYER, session: at });
  let open = '';
  const switchTo = (at: number): Promise<number> => playersSwitch(call, LAYER, at, open);
  /** open the vault as the app does; the GM looks at the world (list, canvas, timeline at `at`) */
  const openAsGm = async (at: number) => {
    await session.open(dir);
    await session.current().searchReady();
    open ||= (await call('entity-list', { type: 'settlement', limit: 1 })).items[0]!.id;
    await Promise.all([call('entity-list', { limit: 100_000 }), call('graph-snapshot', {}), call('canvas-importance', {}), call('problems-list', {}),
      call('timeline-sessions', { layer: LAYER }), call('timeline-graph-at', { layer: LAYER, session: at })]);
  };
  try {
    // cold: `v` at once after opening, then at once after each move of the timeline, nothing built ahead
    await openAsGm(30);
    const [firstCold, firstColdCpu] = await cpuOf(() => profiled('first-cold', () => switchTo(30)));
    const cold: number[] = [];
    const rounds = ctx.quick ? 4 : 10;
    for (let i = 0; i < rounds; i++) {
      await call('view-set', { audience: 'gm', layer: LAYER, session: 30 }); // back, then the timeline moves and `v` at once
      cold.push(await switchTo(60 - i));
    }
    await gm(30);
    await session.close();

    // the app: the GM looks at the world a moment before switching; the timeline rests at a new session each time.
    // The players' view is built ahead only once it has been shown in the session: `first` is built on the switch.
    aheadFrom();
    await openAsGm(30);
    await gm(30);
    await sleep(REST_MS);
    const [first, firstCpu] = await cpuOf(() => profiled('first-warm', () => switchTo(30)));
    const warm: number[] = [], cached: number[] = [];
    for (let i = 0; i < rounds; i++) {
      await gm(31 + i);
      await sleep(REST_MS);
      warm.push(await switchTo(31 + i));
      await gm(31 + i);
      cached.push(await switchTo(31 + i));
    }
    await gm(null);
    const seen = (await call('entity-list', { limit: 1, audience: 'players' })).total;
    const total = (await call('entity-list', { limit: 1, placeholders: true })).total;
    // closed first: one process opens the vault at a time (its lock)
    await session.close();
    const fresh = process.env.LORECRAFT_PLAYERS_FRESH === '0' ? {} : { players_view_switch_fresh_first_ms: freshFirst(dir, ctx.tmpDir) };
    return {
      players_view_switch_ms: { ...stat(warm), first: Math.round(first) },
      players_view_switch_cold_ms: { ...stat(cold), first: Math.round(firstCold) },
      players_view_switch_cached_ms: stat(cached),
      players_view_first_cpu_ms: { cold: firstColdCpu, warm: firstCpu },
      players_view_entities: seen, players_view_total: total, players_view_events: gen.events,
      ...fresh,
      ...(process.env.LORECRAFT_PLAYERS_REAL === '0' ? {} : await realAfter(ctx, () => session.close())),
    };
  } finally {
    await session.close();
  }
}

/** the real-shaped vault's part, once the 10k session is closed (one vault open at a time) */
async function realAfter(ctx: { quick: boolean; tmpDir: string }, closeFirst: () => Promise<void>): Promise<Record<string, unknown>> {
  await closeFirst();
  return playersViewRealBench(ctx).catch((e: unknown) => ({ players_view_real7k_error: e instanceof Error ? e.message : String(e) }));
}

/** the first switch on the real-shaped vault (see the file's doc comment): cold, then warm */
export async function playersViewRealBench(ctx: { quick: boolean; tmpDir: string }): Promise<Record<string, unknown>> {
  const dir = join(ctx.tmpDir, 'players-real');
  await generateRealVault(dir, { notes: ctx.quick ? 700 : 7000, seed: 3 });
  const dbDir = mkdtempSync(join(ctx.tmpDir, 'db-real-'));
  // cold until aheadFrom(): the app's session with nothing built ahead (the core's background warm-up turned off)
  const { session, call, aheadFrom } = benchSession(dbDir);
  let open = '';
  let layer = '';
  const switchTo = (): Promise<number> => playersSwitch(call, layer, null, open);
  const openAsGm = async () => {
    await session.open(dir);
    await session.current().searchReady();
    layer ||= session.current().viewAt().layer;
    open ||= (await call('entity-list', { limit: 1 })).items[0]!.id;
    await Promise.all([call('entity-list', { limit: 100_000 }), call('graph-snapshot', {}), call('canvas-importance', {}), call('problems-list', {}),
      call('timeline-sessions', { layer }), call('timeline-graph-at', { layer, session: null })]);
  };
  try {
    await openAsGm();
    const [cold, coldCpu] = await cpuOf(() => profiled('real7k-cold', switchTo));
    const seen = (await call('entity-list', { limit: 1, audience: 'players' })).total;
    await call('view-set', { audience: 'gm', layer, session: null });
    const status = session.current().status();
    await session.close();
    aheadFrom();
    await openAsGm();
    await call('view-set', { audience: 'gm', layer, session: null });
    await sleep(REST_MS);
    const [warm, warmCpu] = await cpuOf(() => profiled('real7k-warm', switchTo));
    return {
      players_view_real7k_first_ms: { cold: Math.round(cold), warm: Math.round(warm) },
      players_view_real7k_first_cpu_ms: { cold: coldCpu, warm: warmCpu },
      players_view_real7k_relationships: status.relationships, players_view_real7k_entities: status.entities, players_view_real7k_seen: seen,
    };
  } finally {
    await session.close();
  }
}

/** the first switch in a fresh process (players_view_switch_fresh_first_ms): this file run again with --fresh-child */
function freshFirst(dir: string, tmpDir: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(new URL('../bin/run-ts.mjs', import.meta.url)),
    fileURLToPath(import.meta.url), '--fresh-child', dir, tmpDir], { encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
}

/** the child's part: open with the background work on, the GM's look and rest, then the first switch */
async function freshChild(dir: string, tmpDir: string): Promise<Record<string, unknown>> {
  const { session, call, aheadFrom } = benchSession(mkdtempSync(join(tmpDir, 'db-fresh-')));
  aheadFrom();
  try {
    await session.open(dir);
    await session.current().searchReady();
    const open = (await call('entity-list', { type: 'settlement', limit: 1 })).items[0]!.id;
    await Promise.all([call('entity-list', { limit: 100_000 }), call('graph-snapshot', {}), call('canvas-importance', {}), call('problems-list', {}),
      call('timeline-sessions', { layer: LAYER }), call('timeline-graph-at', { layer: LAYER, session: 30 })]);
    await call('view-set', { audience: 'gm', layer: LAYER, session: 30 });
    await sleep(REST_MS);
    let idle = false;
    void session.current().playersIdle().then(() => { idle = true; });
    await sleep(0);
    const [wall, cpu] = await cpuOf(() => profiled('first-fresh', () => playersSwitch(call, LAYER, 30, open)));
    return { wall: Math.round(wall), cpu, idle };
  } finally {
    await session.close();
  }
}

if (process.argv[2] === '--fresh-child') {
  console.log(JSON.stringify(await freshChild(process.argv[3]!, process.argv[4]!)));
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const tmp = mkdtempSync(join(tmpdir(), 'lorecraft-bench-players-'));
  try {
    console.log(JSON.stringify(await playersViewBench({ quick: process.argv.includes('--quick'), tmpDir: tmp })));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The app's session over one database, driven through the façade's handlers as the shells call them. Until
 * `aheadFrom()` each open core has the players' view's background warm-up turned off (nothing built ahead).
 */
type BenchCall = <C extends Channel>(ch: C, req: Req<C>) => Promise<Res<C>>;

function benchSession(dbDir: string): { session: CoreSession; aheadFrom: () => void; call: BenchCall } {
  let ahead = false;
  const session = new CoreSession(() => undefined, async (v) => {
    const core = await openCore({ vaultDir: v, dbDir, watch: false });
    return ahead ? core : Object.assign(core, { warmPlayersView: () => () => undefined });
  });
  const handlers = createHandlers(session);
  const call = async <C extends Channel>(ch: C, req: Req<C>): Promise<Res<C>> => {
    const r = await dispatch(ch, req, { transport: 'ws' }, handlers);
    if (!r.ok) throw new Error(`${ch}: ${r.error.message}`);
    return r.value as Res<C>;
  };
  return { session, call, aheadFrom: () => { ahead = true; } };
}

/** The app's switch to the players' view at (layer, session), then all it refetches at once; ms until the last answer. */
async function playersSwitch(call: BenchCall, layer: string, at: number | null, open: string): Promise<number> {
  const audience = 'players' as const;
  const t0 = performance.now();
  await call('view-set', { audience, layer, session: at });
  await Promise.all([
    call('vault-status', {}),
    call('entity-list', { limit: 100_000, audience }),
    call('graph-snapshot', { audience }).then(() => call('canvas-importance', { audience })),
    call('entity-get', { nameOrId: open, audience }),
    call('problems-list', { audience }),
    call('timeline-sessions', { layer, audience }).then(() => Promise.all([
      call('timeline-graph-at', { layer, session: at, audience }),
      call('timeline-state', { nameOrId: open, layer, session: at, audience }),
    ])),
  ]);
  return performance.now() - t0;
}
