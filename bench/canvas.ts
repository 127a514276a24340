/**
 * Canvas scale bench (called by bench/run.ts; figures in milliseconds unless
 * named otherwise). A real web shell (`lorecraft web`) on a generated vault and
 * the real renderer (dist/renderer) in headless Chromium (playwright-core,
 * /usr/bin/chromium, GPU disabled as everywhere here):
 *   first_render_ms {1k,5k}   navigation start -> the first frame with the graph drawn (grid or laid out)
 *   layout_done_ms {1k,5k}    navigation start -> fcose done and the graph fitted
 *   graph_ms {1k,5k}          navigation start -> the snapshot reached the canvas (wire + store)
 *   first_picture_ms {1k,5k}  navigation start -> the first frame showing the graph's nodes in place: a big first
 *                             graph's preview dots (preview.ts: same positions, colours and fit as Cytoscape's
 *                             first frame), else (no preview, or a build without one) first_render_ms;
 *                             first_picture_ms_10k likewise for the 10k vault
 *   layout_worker_ms {1k,5k}  the first full layout's own run time (metrics.layoutRuns[0].ms: the worker's ForceAtlas2 or
 *                             fcose, from the job's start to its end, not counting the wait for it); layout_worker_ms_10k
 *   load_cpu_ms {1k,5k}       {main, process}: CPU time of the page's main thread / whole renderer process from just before
 *                             navigation to when the bench saw layout_painted (polled every 200 ms, so up to that much of
 *                             the tail after it): the work behind the load figures, steadier than them under load
 *   layout_painted_ms {1k,5k} navigation start -> the first frame drawn after layout done (the laid-out picture
 *                             and its edges on screen); layout_painted_ms_10k likewise for the 10k vault
 *   pan_zoom_fps_2k           animation frames per second during 3 s of scripted pan + zoom over 2k nodes
 *   pan_zoom_frame_gap_ms_2k  {p50,p95,max,n} of the gaps between those frames (the stalls behind a low fps)
 *   pan_zoom_fps_5k, pan_zoom_frame_gap_ms_5k, idle_fps_5k   the same over 5k nodes (not with --quick)
 *   pan_zoom_turned_2k, _5k   {rounds, connect, nodeDrag}: the rounds of that gesture whose press started a connection
 *                             drag (edgehandles) or a node drag instead of a pan (the press spot is chosen at the fitted view)
 *   pan_zoom_fps_empty_2k, _5k (+ pan_zoom_frame_gap_ms_empty_*, pan_zoom_cpu_ms_empty_*, pan_zoom_turned_empty_* with
 *                             searchMs, notEmpty): the same gesture, after the app's fit and a settle, with each round's press on a point of
 *                             empty canvas found then by the renderer's own hit test (emptySpot); the search is in the window
 *   gesture_stats_2k, _5k     the gesture hold's counters (metrics.gesture) after both windows
 *   settle_ms_2k, settle_ms_5k  after the layout is done, how long until the page had 1 s without a long task
 *                             (the first load's tail: list, importance, labels); idle and pan/zoom are measured after it
 *   pan_zoom_fps_2k_webgl     the same with Cytoscape's WebGL renderer (?webgl=1; software GL here)
 *   neighbourhood_10k_ms      {p50,p95,n}: focus on an entity's 2-hop neighbourhood in a 10k-entity vault
 *                             -> the canvas shows it (relations-get, elements, diff-apply, a frame); each
 *                             focus measured alone: after Esc the bench waits until the whole graph is back and drawn
 *   layout_done_ms_10k        the 10k vault's first full layout
 *   scrub_fps_1k              animation frames per second while the scrubber steps through every session
 *                             (one ArrowRight every 50 ms) of a 1k-entity world with 200 events over 67
 *                             sessions (scrub-world.ts); scrub_step_ms {p50,p95,n}: key press -> the frame
 *                             that drew that session; scrub_layouts: full layouts during the scrub (must be 0);
 *                             scrub_layer {elements, quietSteps, fullSteps}: elements on the scrub layer and the steps
 *                             that redrew it alone / everything; scrub_idle_fps_1k: the rAF ceiling right after;
 *                             scrub_frame_gap_ms_1k {p50,p95,max,n}: gaps between frames during the scrub;
 *                             scrub_dropped_frames_1k: frames lost to gaps over 25 ms (a 50 ms gap = 2 lost);
 *                             scrub_cpu_ms_1k {main, process}: CPU time of the page's main thread / whole renderer
 *                             process from the first key to the last step drawn (barely moved by the machine's load)
 *                             scrub_first_step_ms_1k: the first key's scrub_step_ms alone (the step that did first-time work);
 *                             scrub_warmed_1k: steps the controller had warmed up ahead of it (scheduleWarm), null without that
 *                             scrub_cache_1k {blits, builds, whole, cold, hot, last}: the scrub layer's draws from its kept
 *                             bitmaps / from scratch with a new window / whole (scrubcache.ts), null in a build without it;
 *                             scrub_step_work_ms_1k {total,p50,p95,n}: main-thread JS time of each session's step and
 *                             its frame drawn at once, fastest of three passes (see scrubWork: load-robust, no raster);
 *                             scrub_input_work_ms_1k {total,p50,p95,n}: the same through the app's input path (the scrubber's
 *                             input event: React, the store, the step; then its frame if still asked for), one step a frame (scrubInputWork)
 *                             scrub_in_task_ab_ms_1k {on, off: {p50, mean}, n}: scrubInputWork's steps with the step's
 *                             frame drawn in its input task or right after it, alternating step by step (scrubInTaskAB)
 *                             scrub_present_ab_ms_1k {deferred, not: {p50,p95,mean}, skips}: after a step drawn in its
 *                             input task, its frame's time to a rAF callback registered by the step (Cytoscape's loop
 *                             runs before it) with the texture dequeues of that frame deferred or not
 *                             (controller.deferPresentWork), alternating step by step, a step every 50 ms; null without the switch
 *                             scrub_step_parts_ms_1k: where each step's scrub_step_ms went, from the scrub's own timestamps
 *                             (key press K, the input event's task done W, the animation frames' times, painted P):
 *                             phase {p50,p95,n} = the next 60 Hz vsync after K - K (the floor: a key lands at a random
 *                             point of the frame, p95 ~15.8 ms = floorP95), missed = the frame that noted the step - that
 *                             vsync (whole frames lost), inFrame = P - that frame's time (the main thread late into the
 *                             frame: other tasks, the frame's callbacks before it), work = W - K (the input task);
 *                             overFrame {n, missed, inFrame, work}: steps over one frame, by cause (a frame lost / > 2 ms
 *                             late in the frame; work: the input task outlasted the phase)
 *   pan_zoom_cpu_ms_2k, pan_zoom_cpu_ms_5k  {main, process}: the same over the pan/zoom gesture
 * --quick: 1k only for render/layout, fps on 1k nodes, neighbourhood on the 1k vault.
 * LORECRAFT_CANVAS_BENCH=load,fps,webgl,nb,scrub runs only those sections (default: all).
 * LORECRAFT_CANVAS_PROFILE=<dir>: for the load section, a CPU profile from navigation to layout done, the
 * WebSocket's calls and replies and the long tasks (loadProfiled); diagnostics for the fps and scrub sections (the figures then carry the
 * profiler's overhead): a CPU profile of the idle, pan/zoom and scrub windows (<dir>/{idle,panzoom,scrub}.cpuprofile),
 * their top self-time functions, every Cytoscape render() call over 8 ms (with what the gesture was),
 * the long tasks and the input events, on stderr. Without the CPU profiler: =diag (that log only),
 * =hints (plus who asked for each element-layer redraw), =probe (cost of one forced full frame by zoom and
 * edge width), =shots:<dir> (screenshots at three zooms and with a node selected).
 * Run directly: node bin/run-ts.mjs bench/canvas.ts [--quick]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];

export interface CanvasBenchContext {
  quick: boolean;
  tmpDir: string;
  generateVault?: (dir: string, opts: { entities: number; avgLinks?: number; seed?: number }) => Promise<unknown>;
}

type Stat = { p50: number; p95: number; n: number };
const r1 = (x: number) => Math.round(x * 10) / 10;
const log = (msg: string) => process.stderr.write(`[canvas bench] ${msg}\n`);
function stat(xs: number[]): Stat {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: r1(s[Math.floor(s.length / 2)]!), p95: r1(s[Math.min(s.length - 1, Math.floor(0.95 * s.length))]!), n: s.length };
}

async function startShell(vault: string, dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'lorecraft.mjs'), 'web', '--vault', vault, '--port', '0'], {
    cwd: ROOT, env: { ...process.env, LORECRAFT_FROM_SOURCE: '1', LORECRAFT_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`web shell did not start in 180 s:\n${out}`)), 180_000);
    const on = (d: Buffer) => {
      out += d.toString();
      const m = /^LORECRAFT_URL=(\S+)$/m.exec(out);
      if (m) { clearTimeout(timer); ok(m[1]!); }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (c) => { clearTimeout(timer); fail(new Error(`web shell exited (${c}):\n${out}`)); });
  });
  return { child, url };
}

async function stopShell(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(t);
}

/**
 * Open the app and wait for the first layout; returns the canvas metrics (ms since navigation start).
 * painted: the first Cytoscape frame drawn once layoutDoneAt is set (the laid-out picture on screen), seen by a
 * watcher of the page's own (the same for any build: it reads only layoutDoneAt and Cytoscape's render event).
 */
async function load(page: Page, url: string, timeoutMs: number): Promise<{ graph: number; picture: number; first: number; layout: number; painted: number; nodes: number; cpu: { main: number; process: number }; worker?: number; asked?: number; received?: number; placed?: number; started?: number }> {
  await page.addInitScript(() => {
    const w = window as unknown as { __painted?: number };
    const watch = () => {
      const h = window.__lorecraftCanvas;
      if (h?.metrics.layoutDoneAt !== undefined) { h.cy.one('render', () => { w.__painted ??= performance.now(); }); return; }
      requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
  });
  const cpu = await cpuMeter(page);
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __painted?: number }).__painted !== undefined,
    undefined, { timeout: timeoutMs, polling: 200 });
  const used = await cpu();
  const m = await page.evaluate(() => ({ ...window.__lorecraftCanvas!.metrics, painted: (window as unknown as { __painted: number }).__painted }));
  // where the time before the first picture goes (log only): the page's and the bundle's fetch, the document's parse
  const nav = await page.evaluate(() => {
    const r = (x: number) => Math.round(x);
    const d = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const res = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => /\/assets\/index-[^/]*\.js$/.test(e.name));
    return { html: d ? [r(d.requestStart), r(d.responseEnd)] : null, bundle: res[0] ? [r(res[0].requestStart), r(res[0].responseEnd)] : null,
      domContentLoaded: d ? r(d.domContentLoadedEventEnd) : null };
  });
  log(`  page (ms since navigation: request, response end): ${JSON.stringify(nav)}`);
  // the first full layout's own time in the worker (or the main thread), when the build reports it
  const run = m.layoutRuns?.[0];
  return { graph: r1(m.graphAt!), picture: r1(m.firstPictureAt ?? m.firstRenderAt!), first: r1(m.firstRenderAt!), layout: r1(m.layoutDoneAt!), painted: r1(m.painted), nodes: m.nodes ?? 0,
    cpu: used, ...(run ? { worker: run.ms } : {}), ...(run?.askedAt !== undefined ? { asked: r1(run.askedAt), received: r1(run.receivedAt ?? NaN), placed: r1(run.placedAt ?? NaN) } : {}),
    ...(run?.startedAt !== undefined ? { started: r1(run.startedAt) } : {}) };
}

/**
 * Diagnostics for the load section (LORECRAFT_CANVAS_PROFILE=<dir>): load() with a CPU profile of the page
 * from navigation to layout done (<dir>/load-<key>.cpuprofile, top self time on stderr), the WebSocket's
 * calls and replies (ms since navigation, channel, bytes) and the long tasks of the main thread.
 */
async function loadProfiled(page: Page, url: string, timeoutMs: number, dir: string, key: string): ReturnType<typeof load> {
  await page.addInitScript(() => {
    const g = window as unknown as { __wire: Array<[number, string, number]>; __long: Array<[number, number]> };
    g.__wire = []; g.__long = [];
    const names = new Map<number, string>();
    const Orig = window.WebSocket;
    window.WebSocket = class extends Orig {
      constructor(u: string | URL, p?: string | string[]) {
        super(u, p);
        this.addEventListener('open', () => g.__wire.push([performance.now(), 'open', 0]));
        this.addEventListener('message', (ev) => {
          const s = String(ev.data), m = /"id":(\d+)/.exec(s.slice(0, 40));
          g.__wire.push([performance.now(), `<- ${m ? names.get(Number(m[1])) ?? m[1] : s.slice(0, 40)}`, s.length]);
        });
      }
      override send(d: string) {
        const m = /"id":(\d+),"channel":"([^"]+)"/.exec(String(d));
        if (m) names.set(Number(m[1]), m[2]!);
        g.__wire.push([performance.now(), `-> ${m?.[2] ?? '?'}`, String(d).length]);
        super.send(d);
      }
    };
    new PerformanceObserver((l) => { for (const e of l.getEntries()) g.__long.push([Math.round(e.startTime), Math.round(e.duration)]); })
      .observe({ type: 'longtask', buffered: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  const m = await load(page, url, timeoutMs);
  await writeProfile(`load-${key}`, dir, (await cdp.send('Profiler.stop')).profile);
  await cdp.detach();
  const d = await page.evaluate(() => {
    const g = window as unknown as { __wire: Array<[number, string, number]>; __long: Array<[number, number]> };
    return { __wire: g.__wire, __long: g.__long };
  });
  log(`load-${key}: ${JSON.stringify(m)}`);
  log(`load-${key}: wire (ms, what, chars): ${JSON.stringify(d.__wire.map(([t, w, n]) => [Math.round(t), w, n]))}`);
  log(`load-${key}: long tasks (t, ms): ${JSON.stringify(d.__long)}`);
  return m;
}

/**
 * rAF callbacks per second while a user pans (mouse drags on empty canvas) and
 * zooms (wheel) for about `ms`: real input events, so Cytoscape's own
 * viewport-gesture paths (texture while moving, edges hidden) are what is measured.
 */
/**
 * Wait until the page has been free of long tasks (> 50 ms) for `quietMs`, at most `capMs`; returns the wait.
 * The layout can finish before the rest of the first load has (the entity list, the importance restyle, the
 * label pick): "idle" and the gesture are measured once that work is over, so they measure the canvas, not
 * the load's tail (how long the tail took is reported beside them as settle_ms_*).
 */
function settle(page: Page, quietMs = 1000, capMs = 30_000): Promise<number> {
  return page.evaluate(([quiet, cap]) => new Promise<number>((done) => {
    const t0 = performance.now();
    let last = t0;
    const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) last = Math.max(last, e.startTime + e.duration); });
    obs.observe({ type: 'longtask', buffered: false });
    const tick = () => {
      const now = performance.now();
      if (now - last >= quiet || now - t0 >= cap) { obs.disconnect(); done(Math.round(now - t0)); } else setTimeout(tick, 100);
    };
    setTimeout(tick, 100);
  }), [quietMs, capMs] as const);
}

/**
 * CPU time (ms) the page's renderer spends from this call to the returned stop(): its main thread (CDP
 * Performance ThreadTime) and the whole renderer process (ProcessTime: raster and compositor threads too). CPU
 * time, unlike frame rates, barely moves with the machine's load, so an A/B under load compares the work done.
 */
async function cpuMeter(page: Page): Promise<() => Promise<{ main: number; process: number }>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = new Map(metrics.map((x) => [x.name, x.value]));
    return { main: m.get('ThreadTime') ?? NaN, process: m.get('ProcessTime') ?? NaN };
  };
  const a = await read();
  return async () => {
    const b = await read();
    await cdp.detach();
    return { main: Math.round((b.main - a.main) * 1000), process: Math.round((b.process - a.process) * 1000) };
  };
}

/** rAF callbacks per second with nothing happening: the ceiling of this headless browser. */
function idleFps(page: Page, ms: number): Promise<number> {
  return page.evaluate((dur) => new Promise<number>((done) => {
    let frames = 0;
    const t0 = performance.now();
    const step = (t: number) => { frames++; if (t - t0 < dur) requestAnimationFrame(step); else done(Math.round((frames / ((t - t0) / 1000)) * 10) / 10); };
    requestAnimationFrame(step);
  }), ms);
}

/** what the presses of a pan/zoom window turned into: the rounds (presses) in which a connection drag (edgehandles) or a node drag began */
interface Turned { rounds: number; connect: number[]; nodeDrag: number[]; searchMs?: number; notEmpty?: number }

/**
 * `empty`: each round presses on a point of empty canvas found at that moment (emptySpot: the renderer's own hit test
 * there finds nothing, so the press pans), instead of the one spot chosen at the fitted view (which later rounds' drags
 * and zooms may put a node or its connect handle under). The search runs in the window (its time: `turned.searchMs`).
 */
type PanZoom = Awaited<ReturnType<typeof panZoomFps>>;

/** a pan/zoom window's figures as the bench keys them: pan_zoom_fps_<suffix>, pan_zoom_frame_gap_ms_, pan_zoom_cpu_ms_, pan_zoom_turned_ */
function putPanZoom(out: Record<string, unknown>, suffix: string, pz: PanZoom): void {
  out[`pan_zoom_fps_${suffix}`] = pz.fps;
  out[`pan_zoom_frame_gap_ms_${suffix}`] = pz.gaps;
  out[`pan_zoom_cpu_ms_${suffix}`] = pz.cpu;
  out[`pan_zoom_turned_${suffix}`] = pz.turned;
}

/**
 * The pan/zoom window again with every press on empty canvas (no connection or node drag by chance), from the view the
 * first window started at (the app's own fit, as after the load).
 */
async function panZoomEmpty(page: Page, prof: string | undefined, name: string): Promise<PanZoom> {
  await page.evaluate(() => window.__lorecraftCanvas!.controller.fit());
  await settle(page);
  return profiled(page, prof, name, () => panZoomFps(page, 3000, true));
}

async function panZoomFps(page: Page, ms: number, empty = false): Promise<{ fps: number; gaps: Stat & { max: number }; cpu: { main: number; process: number }; turned: Turned }> {
  const box = (await page.getByTestId('canvas').boundingBox())!;
  // (empty) the elements' geometry for emptySpot's first check, taken before the window: a press on empty canvas moves no node
  if (empty) {
    await page.evaluate(() => {
      const cy = window.__lorecraftCanvas!.cy;
      // a uniform grid of cells over the model: each node in the cells its box touches, each edge in those its points' box touches
      const nodes = cy.nodes().map((n) => { const p = n.position(); return [p.x, p.y, Math.max(n.outerWidth(), n.outerHeight()) / 2] as [number, number, number]; });
      const edges = cy.edges().map((e) => { const a = e.source().position(), b = e.target().position(); return [a.x, a.y, b.x, b.y] as [number, number, number, number]; });
      const bb = cy.elements().boundingBox({ includeLabels: false });
      const cell = Math.max(bb.w, bb.h, 1) / 64;
      const cells = new Map<number, { n: number[]; e: number[] }>();
      const each = (x1: number, y1: number, x2: number, y2: number, f: (c: { n: number[]; e: number[] }) => void) => {
        for (let i = Math.floor((x1 - bb.x1) / cell); i <= Math.floor((x2 - bb.x1) / cell); i++) {
          for (let j = Math.floor((y1 - bb.y1) / cell); j <= Math.floor((y2 - bb.y1) / cell); j++) {
            const k = i * 100_003 + j;
            let c = cells.get(k);
            if (!c) { c = { n: [], e: [] }; cells.set(k, c); }
            f(c);
          }
        }
      };
      nodes.forEach(([x, y, r], i) => each(x - r, y - r, x + r, y + r, (c) => c.n.push(i)));
      edges.forEach(([ax, ay, bx, by], i) => each(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by), (c) => c.e.push(i)));
      (window as unknown as { __emptyGeo: unknown }).__emptyGeo = { nodes, edges, cells, cell, x1: bb.x1, y1: bb.y1 };
    });
  }
  // an empty spot near the centre, so a drag pans instead of moving a node
  const spot = await page.evaluate(() => {
    const cy = window.__lorecraftCanvas!.cy;
    cy.fit();
    const boxes = cy.nodes().map((n) => n.renderedBoundingBox({ includeLabels: false }));
    const w = cy.width(), h = cy.height();
    let best = { x: w / 2, y: h / 2 }, bestD = Infinity;
    for (let gx = 1; gx < 30; gx++) for (let gy = 1; gy < 30; gy++) {
      const x = (gx * w) / 30, y = (gy * h) / 30;
      if (boxes.some((b) => x > b.x1 - 6 && x < b.x2 + 6 && y > b.y1 - 6 && y < b.y2 + 6)) continue;
      const d = Math.hypot(x - w / 2, y - h / 2);
      if (d < bestD) { bestD = d; best = { x, y }; }
    }
    const g = window as unknown as { __fps: { frames: number; t0: number; run: boolean; last: number; gaps: number[] }; __turned: { presses: number; connect: number[]; nodeDrag: number[]; off(): void } };
    g.__fps = { frames: 0, t0: performance.now(), run: true, last: 0, gaps: [] };
    // which rounds' presses turned into a connection drag or a node drag (round = presses seen - 1)
    const turned = { presses: 0, connect: [] as number[], nodeDrag: [] as number[], off: () => {} };
    const onDown = () => { turned.presses++; };
    const onEh = () => { turned.connect.push(turned.presses - 1); };
    const onGrab = () => { if (!turned.nodeDrag.includes(turned.presses - 1)) turned.nodeDrag.push(turned.presses - 1); };
    window.addEventListener('mousedown', onDown, { capture: true, passive: true });
    cy.on('ehstart', onEh);
    cy.on('drag', 'node', onGrab);
    turned.off = () => { window.removeEventListener('mousedown', onDown, { capture: true }); cy.off('ehstart', onEh); cy.off('drag', 'node', onGrab); };
    g.__turned = turned;
    const step = (t: number) => {
      if (!g.__fps.run) return;
      g.__fps.frames++;
      if (g.__fps.last) g.__fps.gaps.push(t - g.__fps.last);
      g.__fps.last = t;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
    return best;
  });
  let x0 = box.x + spot.x, y0 = box.y + spot.y;
  const cpu = await cpuMeter(page);
  const t0 = Date.now();
  let searchMs = 0, notEmpty = 0;
  for (let round = 0; Date.now() - t0 < ms; round++) {
    if (empty) {
      const at = await emptySpot(page);
      searchMs += at.ms;
      if (at.x === null || at.y === null) notEmpty++; else { x0 = box.x + at.x; y0 = box.y + at.y; }
    }
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    for (let i = 1; i <= 20; i++) await page.mouse.move(x0 + 8 * i * Math.cos(round), y0 + 6 * i * Math.sin(round));
    await page.mouse.up();
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, round % 2 ? 120 : -120);
  }
  const cpuMs = await cpu();
  const r = await page.evaluate(() => {
    const g = window as unknown as { __fps: { frames: number; t0: number; run: boolean; gaps: number[]; last: number }; __turned: { presses: number; connect: number[]; nodeDrag: number[]; off(): void } };
    g.__fps.run = false;
    g.__turned.off();
    const turned = { rounds: g.__turned.presses, connect: [...new Set(g.__turned.connect)], nodeDrag: g.__turned.nodeDrag };
    // diagnostics: when the long gaps were (their end, ms since the window's start), from the last frame backwards
    let at = g.__fps.last - g.__fps.t0;
    const long: Array<[number, number]> = [];
    for (let i = g.__fps.gaps.length - 1; i >= 0; i--) { const d = g.__fps.gaps[i]!; if (d > 20) long.unshift([Math.round(at), Math.round(d)]); at -= d; }
    return { fps: Math.round((g.__fps.frames / ((performance.now() - g.__fps.t0) / 1000)) * 10) / 10, gaps: g.__fps.gaps, long, turned };
  });
  if (process.env.LORECRAFT_CANVAS_PROFILE) log(`panzoom: frame gaps over 20 ms (end since window start, ms): ${JSON.stringify(r.long)}`);
  const s = [...r.gaps].sort((a, b) => a - b);
  const at = (q: number) => r1(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0);
  const turned: Turned = empty ? { ...r.turned, searchMs: r1(searchMs), notEmpty } : r.turned;
  return { fps: r.fps, gaps: { p50: at(0.5), p95: at(0.95), max: r1(s[s.length - 1] ?? 0), n: s.length }, cpu: cpuMs, turned };
}

/**
 * A point of empty canvas near the canvas's centre (CSS pixels in the canvas), for the next press: candidates on a
 * spiral of 8 px steps, each first checked against the nodes' boxes (with 14 px of margin: no hover there shows a
 * connect handle) and the edges' straight segments (both taken before the window, in a grid of cells), then confirmed by the renderer's own hit test (the one a press
 * runs: elements and the connect handle), which must find nothing there. x/y null when none was found; ms: the
 * search's main-thread time (it runs inside the measured window).
 */
function emptySpot(page: Page): Promise<{ x: number | null; y: number | null; ms: number }> {
  return page.evaluate(() => {
    const t0 = performance.now();
    const c = window.__lorecraftCanvas!, cy = c.cy;
    const z = cy.zoom(), pan = cy.pan(), w = cy.width(), h = cy.height();
    const geo = (window as unknown as { __emptyGeo: { nodes: Array<[number, number, number]>; edges: Array<[number, number, number, number]>;
      cells: Map<number, { n: number[]; e: number[] }>; cell: number; x1: number; y1: number } }).__emptyGeo;
    const { nodes, edges, cells, cell } = geo;
    /** the nodes and edges whose boxes may come within `m` of (mx, my): those of the grid cells that square touches */
    const near = (mx: number, my: number, m: number) => {
      const n = new Set<number>(), e = new Set<number>();
      for (let i = Math.floor((mx - m - geo.x1) / cell); i <= Math.floor((mx + m - geo.x1) / cell); i++) {
        for (let j = Math.floor((my - m - geo.y1) / cell); j <= Math.floor((my + m - geo.y1) / cell); j++) {
          const cl = cells.get(i * 100_003 + j);
          if (cl) { for (const x of cl.n) n.add(x); for (const x of cl.e) e.add(x); }
        }
      }
      return { n, e };
    };
    const clear = (mx: number, my: number) => {
      const m = 14 / z, em = 10 / z;
      const cand = near(mx, my, Math.max(m, em));
      for (const i of cand.n) { const [x, y, r] = nodes[i]!; if (Math.abs(x - mx) <= r + m && Math.abs(y - my) <= r + m) return false; }
      for (const i of cand.e) {
        const [ax, ay, bx, by] = edges[i]!;
        const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
        const t = l2 > 0 ? Math.max(0, Math.min(1, ((mx - ax) * dx + (my - ay) * dy) / l2)) : 0;
        if (Math.hypot(ax + t * dx - mx, ay + t * dy - my) <= em) return false;
      }
      return true;
    };
    for (let i = 0; i < 2000; i++) {
      // a spiral from the centre, 8 px apart, within the middle 70 % of the canvas
      const a = Math.sqrt(i) * 2.4, d = 8 * Math.sqrt(i) * 1.1;
      const x = Math.round(w / 2 + d * Math.cos(a * Math.PI)), y = Math.round(h / 2 + d * Math.sin(a * Math.PI));
      if (x < w * 0.15 || x > w * 0.85 || y < h * 0.15 || y > h * 0.85) continue;
      const mx = (x - pan.x) / z, my = (y - pan.y) / z;
      if (!clear(mx, my)) continue;
      if (c.controller.hitTest(mx, my).length) continue;
      return { x, y, ms: performance.now() - t0 };
    }
    return { x: null, y: null, ms: performance.now() - t0 };
  });
}

/** Diagnostics (LORECRAFT_CANVAS_PROFILE=shots:<dir>): screenshots at the fit zoom, x1.8 and x3 with a node selected. */
async function shots(page: Page, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const z of [1, 1.8, 3]) {
    await page.evaluate((z) => {
      const cy = window.__lorecraftCanvas!.cy;
      cy.fit();
      cy.zoom({ level: cy.zoom() * z, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    }, z);
    await page.waitForTimeout(800);
    await page.getByTestId('canvas').screenshot({ path: join(dir, `zoom-x${z}.png`) });
  }
  const id = await page.evaluate(() => {
    const cy = window.__lorecraftCanvas!.cy;
    const c = cy.extent();
    let best = '', deg = -1;
    cy.nodes().forEach((x) => {
      const p = x.position();
      if (Math.abs(p.x - (c.x1 + c.x2) / 2) < c.w / 4 && Math.abs(p.y - (c.y1 + c.y2) / 2) < c.h / 4 && x.degree(false) > deg) { best = x.id(); deg = x.degree(false); }
    });
    return best;
  });
  const box = await page.evaluate((id) => window.__lorecraftCanvas!.cy.getElementById(id).renderedPosition(), id);
  const cb = (await page.getByTestId('canvas').boundingBox())!;
  await page.mouse.click(cb.x + box.x, cb.y + box.y);
  await page.waitForTimeout(800);
  await page.getByTestId('canvas').screenshot({ path: join(dir, 'selected-x3.png') });
  await page.evaluate(() => { const cy = window.__lorecraftCanvas!.cy; cy.fit(); });
  await page.waitForTimeout(800);
  await page.getByTestId('canvas').screenshot({ path: join(dir, 'selected-x1.png') });
}

/** Diagnostics (LORECRAFT_CANVAS_PROFILE=probe): the cost of one forced full frame (render + raster) under variations. */
async function probe(page: Page): Promise<void> {
  const res = await page.evaluate(async () => {
    const cy = window.__lorecraftCanvas!.cy;
    const r = (cy as unknown as { renderer(): { redrawHint(g: string, b: boolean): void; redraw(): void; render(o: object): void } }).renderer();
    const raf = () => new Promise((ok) => requestAnimationFrame(ok));
    const frame = async () => {
      await raf(); await raf();
      r.redrawHint('eles', true);
      const t0 = performance.now();
      r.render({});
      const js = performance.now() - t0;
      await raf(); await raf();
      return `${Math.round(js)}/${Math.round(performance.now() - t0)}`;
    };
    const out: Record<string, unknown> = {};
    cy.fit();
    out.fitZoom = cy.zoom();
    out.nodes = cy.nodes().length; out.edges = cy.edges().length;
    for (const z of [1, 1.3, 2]) {
      cy.zoom({ level: (out.fitZoom as number) * z, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
      const row: Record<string, string[]> = {};
      for (const w of ['cur', 1.2, 1, 0.75, 0.5]) {
        if (w !== 'cur') cy.edges().style('width', w);
        row[w] = [await frame(), await frame(), await frame()];
      }
      cy.edges().removeStyle('width');
      cy.edges().style('visibility', 'hidden');
      row.none = [await frame(), await frame(), await frame()];
      cy.edges().removeStyle('visibility');
      out[`zoom x${z}`] = row;
    }
    cy.fit();
    return out;
  });
  log(`probe: ${JSON.stringify(res)}`);
  // a click that selects a node: the main-thread work it causes (store, elements, diff-apply, list mirror, redraw)
  const cb = (await page.getByTestId('canvas').boundingBox())!;
  const clicks: number[] = [];
  for (let i = 0; i < 4; i++) {
    const at = await page.evaluate((i) => {
      const n = window.__lorecraftCanvas!.cy.nodes()[100 * (i + 1)]!;
      const g = window as unknown as { __lt: number; __ltObs?: PerformanceObserver };
      g.__lt = 0;
      g.__ltObs ??= new PerformanceObserver((l) => { for (const e of l.getEntries()) g.__lt += e.duration; });
      g.__ltObs.observe({ type: 'longtask' });
      return n.renderedPosition();
    }, i);
    await page.mouse.click(cb.x + at.x, cb.y + at.y);
    await page.waitForTimeout(1000);
    clicks.push(await page.evaluate(() => Math.round((window as unknown as { __lt: number }).__lt)));
  }
  log(`probe: long-task ms in the second after a node click: ${JSON.stringify(clicks)}`);
}

/** Diagnostics (LORECRAFT_CANVAS_PROFILE): time every Cytoscape render() call and note long tasks. */
async function instrument(page: Page, trace: boolean): Promise<void> {
  await page.evaluate((trace) => {
    const g = window as unknown as { __diag: { renders: Array<[number, number, string]>; long: Array<[number, number]>; input: Record<string, number> } };
    g.__diag = { renders: [], long: [], input: {} };
    type R = {
      render(o?: Record<string, unknown>): void; textureCache?: unknown; data: { wheelZooming?: boolean };
      hoverData: { dragging?: boolean; draggingEles?: boolean; down?: unknown };
    };
    const r = (window.__lorecraftCanvas!.cy as unknown as { renderer(): R }).renderer();
    const orig = r.render;
    r.render = function (this: R, o?: Record<string, unknown>) {
      const t0 = performance.now();
      const h = r.hoverData;
      const kind = o?.forcedContext ? (o.drawOnlyNodeLayer ? 'texture-build' : 'forced')
        : `${r.data.wheelZooming ? 'wheel ' : ''}${h.dragging ? 'pan ' : ''}${h.draggingEles ? 'drag-eles ' : ''}${h.down ? 'down ' : ''}`
          + ((r.data.wheelZooming || h.dragging) ? (r.textureCache ? 'texture-blit' : 'texture-first') : 'full');
      orig.call(this, o);
      const d = performance.now() - t0;
      if (d > 8) g.__diag.renders.push([Math.round(t0), Math.round(d * 10) / 10, kind]);
    };
    // the renderer's hit tests (every mousedown/up and every hover move scans all elements): their count and time
    const hr = r as unknown as { findNearestElements(...a: unknown[]): unknown };
    const find = hr.findNearestElements;
    hr.findNearestElements = function (this: unknown, ...a: unknown[]) {
      const t0 = performance.now();
      try { return find.apply(this, a); } finally {
        g.__diag.input['hit-tests'] = (g.__diag.input['hit-tests'] ?? 0) + 1;
        g.__diag.input['hit-test ms'] = Math.round(((g.__diag.input['hit-test ms'] ?? 0) + performance.now() - t0) * 10) / 10;
      }
    };
    // what the presses turned into: a pan, a node drag, a connection drag (edgehandles), a hover
    const cy = window.__lorecraftCanvas!.cy;
    // who asks for a redraw of the element layer, by call site (LORECRAFT_CANVAS_PROFILE=hints)
    const rr = r as unknown as { redrawHint(grp: string, b: boolean): void };
    const hint = rr.redrawHint;
    if (trace) rr.redrawHint = function (this: unknown, grp: string, b: boolean) {
      if (grp === 'eles' && b) {
        const k = `${Math.round(performance.now())} ${(new Error().stack ?? '').split('\n').slice(2, 7).map((l) => l.trim().replace(/^at /, '').replace(/ \(.*$/, '')).join(' < ')}`;
        g.__diag.input[k] = (g.__diag.input[k] ?? 0) + 1;
      }
      hint.call(this, grp, b);
    };
    for (const t of ['ehstart', 'grab', 'mouseover']) cy.on(t, () => { g.__diag.input[`cy:${t}`] = (g.__diag.input[`cy:${t}`] ?? 0) + 1; });
    for (const t of ['mousedown', 'mouseup', 'mousemove', 'wheel']) {
      window.addEventListener(t, () => { g.__diag.input[t] = (g.__diag.input[t] ?? 0) + 1; }, { capture: true, passive: true });
    }
    new PerformanceObserver((l) => { for (const e of l.getEntries()) g.__diag.long.push([Math.round(e.startTime), Math.round(e.duration)]); })
      .observe({ type: 'longtask', buffered: false });
  }, trace);
}

/** LORECRAFT_CANVAS_PROFILE's modes that log without a CPU profile (diag, hints, probe, shots:<dir>) */
function logOnly(prof: string): boolean {
  return prof === 'diag' || prof === 'hints' || prof === 'probe' || prof.startsWith('shots:');
}

/** LORECRAFT_CANVAS_PROFILE as profiled() takes it for a section of its own: CPU profiles in its folder `sub`; a log-only mode as it is */
function subProfile(prof: string | undefined, sub: string): string | undefined {
  return prof && !logOnly(prof) ? join(prof, sub) : prof;
}

async function profiled<T>(page: Page, dir: string | undefined, name: string, fn: () => Promise<T>): Promise<T> {
  if (!dir) return fn();
  // LORECRAFT_CANVAS_PROFILE=diag: the render/long-task/input log without the CPU profiler's overhead
  const cdp = logOnly(dir) ? null : await page.context().newCDPSession(page);
  await cdp?.send('Profiler.enable');
  await cdp?.send('Profiler.setSamplingInterval', { interval: 500 });
  await page.evaluate(() => { const g = window as unknown as { __diag: { renders: unknown[]; long: unknown[] } }; g.__diag.renders = []; g.__diag.long = []; Object.assign(g.__diag, { input: {} }); });
  await cdp?.send('Profiler.start');
  const t0 = await page.evaluate(() => performance.now());
  const out = await fn();
  if (cdp) await writeProfile(name, dir, (await cdp.send('Profiler.stop')).profile);
  const d = await page.evaluate(() => (window as unknown as { __diag: { renders: Array<[number, number, string]>; long: Array<[number, number]>; input: object } }).__diag);
  log(`${name}: input events ${JSON.stringify(d.input, null, 1).replace(/ (\d{3,}) /g, (_, t: string) => ` @${Math.round(Number(t) - t0)} `)}`);
  log(`${name}: render() calls over 8 ms (t since window start, ms, kind): ${JSON.stringify(d.renders.map(([t, ms, k]) => [Math.round(t - t0), ms, k]))}`);
  log(`${name}: long tasks (t, ms): ${JSON.stringify(d.long.map(([t, ms]) => [Math.round(t - t0), ms]))}`);
  await cdp?.detach();
  return out;
}

async function writeProfile(name: string, dir: string, profile: { nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>; samples?: number[]; timeDeltas?: number[] }): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  // self time per function
  const dt = new Map<number, number>();
  const ts = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (ts[i + 1] ?? 0) / 1000));
  const self = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const ms = dt.get(n.id) ?? 0;
    total += ms;
    const f = n.callFrame;
    const k = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(k, (self.get(k) ?? 0) + ms);
  }
  log(`${name}: profile ${Math.round(total)} ms sampled; top self time:`);
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) log(`  ${ms.toFixed(1).padStart(8)} ms  ${k}`);
}

/** Focus on `id` at depth 2 and wait until the canvas shows exactly that neighbourhood, then one frame. */
function neighbourhood(page: Page, id: string): Promise<{ ms: number; nodes: number; t0: number }> {
  return page.evaluate(async (root) => {
    const h = window.__lorecraftCanvas!;
    const el = document.querySelector<HTMLElement>('[data-testid="canvas"]')!;
    const t0 = performance.now();
    await h.focus(root, 2);
    await new Promise<void>((ok, fail) => {
      const check = () => {
        // a build with the focus layer says which root it shows (h.focused); the cy shown is then that layer's
        if (el.dataset.focus === root && (h.focused === undefined || h.focused() === root) && h.cy.getElementById(root).nonempty()) ok();
        else if (performance.now() - t0 > 30_000) fail(new Error(`focus on ${root} not shown after 30 s (data-focus=${el.dataset.focus})`));
        else requestAnimationFrame(check);
      };
      check();
    });
    await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    return { ms: Math.round((performance.now() - t0) * 10) / 10, nodes: h.cy.nodes().length, t0 };
  }, id);
}

/**
 * Esc, then wait until the whole graph is back on the canvas and drawn, and a little more (Cytoscape's
 * debounced resize redraw follows attribute changes on its container by 100 ms): the clear's work must
 * not be counted in the next focus's time (it was, up to 2026-11-25).
 */
async function clearFocus(page: Page, total: number): Promise<void> {
  await page.keyboard.press('Escape');
  await page.waitForFunction((n) => document.querySelector<HTMLElement>('[data-testid="canvas"]')!.dataset.focus === ''
    && window.__lorecraftCanvas!.cy.nodes().length === n, total, { timeout: 60_000 });
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  await page.waitForTimeout(400);
}

/** Step the timeline scrubber through every session by keyboard, one key every `gapMs`; see the header. */
async function scrub(page: Page, gapMs: number): Promise<{
  fps: number; steps: Stat; layouts: number; sessions: number; layer: { elements: number; quietSteps: number; fullSteps: number };
  gaps: Stat & { max: number }; dropped: number; cpu: { main: number; process: number }; cache: Record<string, unknown> | null;
  parts: Record<string, unknown>; warmed: number | null; first: number | null;
}> {
  // 68 ticks overlap on the bar: the first one's own click handler, not a pointer hit
  await page.getByTestId('timeline-tick').first().dispatchEvent('click');
  await page.waitForFunction(() => window.__lorecraftCanvas!.metrics.steps.length > 0, undefined, { timeout: 60_000 });
  // every session's overlay prefetched (the scrub layer is set up from them), as a GM's scrub after opening would find it
  // (a build without the scrub layer never sets it: measured as it is after 60 s)
  await page.waitForFunction(() => (window.__lorecraftCanvas!.metrics.scrubLayer ?? 0) > 0, undefined, { timeout: 60_000 }).catch(() => undefined);
  await page.waitForTimeout(500);
  await page.getByTestId('timeline-scrubber').focus();
  const sessions = await page.getByTestId('timeline-tick').evaluateAll((ts) => ts.map((t) => Number(t.getAttribute('data-session'))));
  const layouts0 = await page.evaluate(() => window.__lorecraftCanvas!.metrics.layouts);
  // the steps warmed up ahead of the first one (controller scheduleWarm) by now; null in a build without the warm-up
  const warmed = await page.evaluate(() => (window.__lorecraftCanvas!.controller as unknown as { warmedSteps?: number }).warmedSteps ?? null);
  await page.evaluate((diag) => {
    const w = window as unknown as { __scrub: { keys: number[]; frames: number; run: boolean; last: number; gaps: number[]; times: number[]; done: number[]; cbAt: number[]; idle: Array<[number, number]> } };
    w.__scrub = { keys: [], frames: 0, run: true, last: 0, gaps: [], times: [], done: [], cbAt: [], idle: [] };
    // (diagnostics, with LORECRAFT_CANVAS_PROFILE only) when idle callbacks ran (the scrub cache's prebuilds, the gesture's bitmap ahead)
    const ric = window.requestIdleCallback.bind(window);
    if (diag) window.requestIdleCallback = (fn, o) => ric((d) => {
      const a = performance.now();
      try { fn(d); } finally { if (w.__scrub.run) w.__scrub.idle.push([a, performance.now()]); }
    }, o);
    window.addEventListener('keydown', () => w.__scrub.keys.push(performance.now()), { capture: true });
    // the key's input event seen last (bubbling to the window, after React's handler and its sync re-render): its work done
    window.addEventListener('input', () => { if (w.__scrub.run) w.__scrub.done[w.__scrub.keys.length - 1] = performance.now(); });
    const m = window.__lorecraftCanvas!.metrics;
    m.steps.length = 0; m.quietSteps = 0; m.fullSteps = 0;
    const sc = (window.__lorecraftCanvas!.controller as unknown as { scrubCache?: { metrics: Record<string, number> } | null }).scrubCache;
    if (sc) { sc.metrics.blits = 0; sc.metrics.builds = 0; sc.metrics.whole = 0; }
    // (diagnostics, likewise) each step's controller work: [start, step() ms, of it the in-task draw ms]
    const ctl = window.__lorecraftCanvas!.controller as unknown as { step(o: unknown): void; drawStepNow?(): void };
    const steps: Array<[number, number, number]> = [];
    (w.__scrub as unknown as { ctl: typeof steps }).ctl = steps;
    let drawMs = 0;
    const step0 = ctl.step, draw0 = ctl.drawStepNow;
    if (diag) ctl.step = function (this: unknown, o: unknown) { const a = performance.now(); drawMs = 0; try { step0.call(this, o); } finally { if (w.__scrub.run) steps.push([a, performance.now() - a, drawMs]); } };
    if (diag && draw0) ctl.drawStepNow = function (this: unknown) { const a = performance.now(); try { draw0.call(this); } finally { drawMs += performance.now() - a; } };
    const loop = (t: number) => {
      w.__scrub.frames++;
      w.__scrub.times.push(t);
      w.__scrub.cbAt.push(performance.now());
      if (w.__scrub.last) w.__scrub.gaps.push(t - w.__scrub.last);
      w.__scrub.last = t;
      if (w.__scrub.run) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }, !!process.env.LORECRAFT_CANVAS_PROFILE);
  await page.evaluate(() => { (window as unknown as { __notif?: object }).__notif = {}; });
  const cpu = await cpuMeter(page);
  const t0 = Date.now();
  for (let i = 1; i < sessions.length; i++) {
    await page.keyboard.press('ArrowRight');
    const wait = t0 + i * gapMs - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  const last = sessions[sessions.length - 1]!;
  await page.waitForFunction((s) => window.__lorecraftCanvas!.metrics.steps.some((x) => x.session === s), last, { timeout: 60_000 });
  const cpuMs = await cpu();
  log(`notify: ${JSON.stringify(await page.evaluate(() => (window as unknown as { __notif?: object }).__notif))}`);
  const r = await page.evaluate(() => {
    const w = window as unknown as { __scrub: { keys: number[]; frames: number; run: boolean; gaps: number[]; times: number[]; done: number[]; cbAt: number[]; idle: Array<[number, number]> } };
    w.__scrub.run = false;
    const m = window.__lorecraftCanvas!.metrics;
    const cache = (window.__lorecraftCanvas!.controller as unknown as { scrubCache?: { metrics: object } | null }).scrubCache?.metrics ?? null;
    return { keys: w.__scrub.keys, frames: w.__scrub.frames, gaps: w.__scrub.gaps, times: w.__scrub.times, done: w.__scrub.done, cbAt: w.__scrub.cbAt, idle: w.__scrub.idle,
      ctl: (w.__scrub as unknown as { ctl: Array<[number, number, number]> }).ctl,
      steps: m.steps, layouts: m.layouts, quiet: m.quietSteps ?? 0, full: m.fullSteps ?? 0,
      layer: m.scrubLayer ?? 0, cache: cache && { ...cache } };
  });
  const dur = (r.steps[r.steps.length - 1]!.paintedAt - r.keys[0]!) / 1000;
  // key k asked for sessions[k + 1]; a step the scrubber skipped (a newer one won) has no frame
  const gaps: number[] = [];
  let firstMs: number | undefined;
  const parts = { phase: [] as number[], missed: [] as number[], inFrame: [] as number[], work: [] as number[] };
  const over = { n: 0, missed: 0, inFrame: 0, work: 0 };
  const overLog: Array<Record<string, unknown>> = [];
  const frameMs = 1000 / 60;
  r.keys.forEach((at, k) => {
    const drawn = r.steps.find((x) => x.session === sessions[k + 1] && x.paintedAt >= at);
    if (!drawn) return;
    gaps.push(drawn.paintedAt - at);
    if (k === 0) firstMs = drawn.paintedAt - at;
    // where the latency went (see stepParts): the frame the step was noted in is the last animation frame begun
    // before it was noted; the first frame the input could have made is the next 60 Hz vsync after the input,
    // counted on the grid of the frame times seen before it
    const frame = lastAtOrBefore(r.times, drawn.paintedAt), before = lastAtOrBefore(r.times, at);
    if (frame === undefined || before === undefined) return;
    const first = before + Math.max(1, Math.ceil((at - before) / frameMs - 1e-6)) * frameMs;
    const p = { phase: first - at, missed: Math.max(0, frame - first), inFrame: drawn.paintedAt - frame, work: (r.done[k] ?? at) - at };
    parts.phase.push(p.phase); parts.missed.push(p.missed); parts.inFrame.push(p.inFrame); parts.work.push(p.work);
    if (drawn.paintedAt - at > frameMs) {
      // (diagnostics) the bench's own rAF callback in that frame ran this late after the frame's time; idle callbacks from
      // 30 ms before the key to the paint, as [start since the key, ms]
      const fi = r.times.indexOf(frame);
      overLog.push({ k, at: r1(at - r.keys[0]!), phase: r1(p.phase), missed: r1(p.missed), inFrame: r1(p.inFrame), work: r1(p.work),
        cbLate: fi >= 0 ? r1(r.cbAt[fi]! - frame) : null,
        idle: r.idle.filter(([a, b]) => b >= at - 30 && a <= drawn.paintedAt).map(([a, b]) => [r1(a - at), r1(b - a)]),
        ctl: r.ctl.filter(([a]) => a >= at && a <= drawn.paintedAt).map(([a, ms, d]) => [r1(a - at), r1(ms), r1(d)]) });
      over.n++;
      if (p.missed > 1) over.missed++; else if (p.inFrame > 2) over.inFrame++;
      if (p.work > p.phase) over.work++;
    }
  });
  log(`scrub: steps over a frame (k, key ms since the first, parts, cbLate, idle callbacks [start since key, ms]): ${JSON.stringify(overLog)}`);
  const cbLate = r.times.map((t, i) => r.cbAt[i]! - t).sort((a, b) => a - b);
  const ctlMs = r.ctl.map(([, ms]) => ms).sort((a, b) => a - b);
  log(`scrub: controller.step ms p50 ${r1(ctlMs[Math.floor(ctlMs.length / 2)] ?? 0)} p95 ${r1(ctlMs[Math.floor(ctlMs.length * 0.95)] ?? 0)}; all [start since key 0, ms, draw ms]: ${JSON.stringify(r.ctl.map(([a, ms, d]) => [Math.round(a - r.keys[0]!), r1(ms), r1(d)]))}`);
  log(`scrub: the bench's rAF callback after the frame's time, ms: p50 ${r1(cbLate[Math.floor(cbLate.length / 2)] ?? 0)} p95 ${r1(cbLate[Math.floor(cbLate.length * 0.95)] ?? 0)}; idle callbacks ${r.idle.length}, ms ${JSON.stringify(r.idle.map(([a, b]) => r1(b - a)))}`);
  const stepParts = { phase: stat(parts.phase), missed: stat(parts.missed), inFrame: stat(parts.inFrame), work: stat(parts.work),
    overFrame: over, floorP95: r1(0.95 * frameMs) };
  // frames the scrub made late: rAF gaps over 1.5 idle frames (25 ms), counted as the frames they lost
  const frameGaps = [...r.gaps].sort((a, b) => a - b);
  const dropped = r.gaps.reduce((n, g) => n + (g > 25 ? Math.round(g / (1000 / 60)) - 1 : 0), 0);
  return { fps: r1(r.frames / dur), steps: stat(gaps), layouts: r.layouts - layouts0, sessions: sessions.length - 1,
    layer: { elements: r.layer, quietSteps: r.quiet, fullSteps: r.full }, cache: r.cache as Record<string, unknown> | null,
    gaps: { ...stat(frameGaps), max: r1(frameGaps[frameGaps.length - 1] ?? 0) }, dropped, cpu: cpuMs, parts: stepParts,
    warmed, first: firstMs === undefined ? null : r1(firstMs) };
}

/** the last of ascending `xs` at or before `t` */
function lastAtOrBefore(xs: number[], t: number): number | undefined {
  let lo = 0, hi = xs.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (xs[mid]! <= t) lo = mid + 1; else hi = mid; }
  return lo > 0 ? xs[lo - 1] : undefined;
}

/**
 * The main thread's work per scrub step, free of the machine's load: every session's overlay stepped in turn
 * (controller.step) and its frame drawn at once (Cytoscape's before-render calculations and render(), as its
 * render loop does), timed each; three passes, the fastest total kept (the least disturbed by other processes).
 * JS time only: the software canvas rasterises part of the drawing later, off this measure.
 */
function scrubWork(page: Page): Promise<{ total: number; p50: number; p95: number; n: number }> {
  return page.evaluate(() => {
    type R = { beforeRenderCallbacks: Array<{ fn(willDraw: boolean, t: number): void }>; render(o?: unknown): void; renderOptions?: unknown };
    const c = window.__lorecraftCanvas!.controller as unknown as { cy: { renderer(): R }; stepOverlays: readonly unknown[]; shown: { session: unknown } | null; step(o: unknown): void };
    const r = c.cy.renderer();
    const overlays = c.stepOverlays;
    const back = overlays.find((o) => (o as { session?: unknown } | null)?.session === c.shown?.session) ?? overlays[overlays.length - 1];
    let best: number[] | null = null;
    for (let pass = 0; pass < 3; pass++) {
      const times: number[] = [];
      for (const o of overlays) {
        const t0 = performance.now();
        c.step(o);
        for (const cb of r.beforeRenderCallbacks) cb.fn(true, t0);
        r.render(r.renderOptions);
        times.push(performance.now() - t0);
      }
      if (!best || times.reduce((a, b) => a + b, 0) < best.reduce((a, b) => a + b, 0)) best = times;
    }
    c.step(back);
    const s = [...best!].sort((a, b) => a - b);
    const r1 = (x: number) => Math.round(x * 10) / 10;
    return { total: r1(s.reduce((a, b) => a + b, 0)), p50: r1(s[Math.floor(s.length / 2)]!), p95: r1(s[Math.min(s.length - 1, Math.floor(0.95 * s.length))]!), n: s.length };
  });
}

/**
 * The main-thread JS of each step through the app's own input path, free of most of the machine's load: the
 * scrubber's `input` event dispatched in the page (React's handler, the store, the controller's step, the bar's
 * re-render, whatever else the event's task does) and, when a frame is still asked for after it, that frame's
 * before-render calculations and render() as Cytoscape's loop would run them; one step per animation frame (as
 * key presses 50 ms apart are), every session forward, timed each; three passes, the fastest total kept.
 */
function scrubInputWork(page: Page): Promise<{ total: number; p50: number; p95: number; n: number }> {
  return page.evaluate(async () => {
    type R = { beforeRenderCallbacks: Array<{ fn(willDraw: boolean, t: number): void }>; render(o?: unknown): void; renderOptions?: unknown; requestedFrame?: boolean };
    const c = window.__lorecraftCanvas!.controller as unknown as { cy: { renderer(): R } };
    const r = c.cy.renderer();
    const input = document.querySelector<HTMLInputElement>('[data-testid="timeline-scrubber"]')!;
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    const to = (i: number) => { setValue.call(input, String(i)); input.dispatchEvent(new Event('input', { bubbles: true })); };
    const afterFrame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
    const back = Number(input.value), last = Number(input.max);
    let best: number[] | null = null;
    for (let pass = 0; pass < 3; pass++) {
      to(0);
      await afterFrame();
      await afterFrame();
      const times: number[] = [];
      for (let i = 1; i <= last; i++) {
        await afterFrame();
        const t0 = performance.now();
        to(i);
        if (r.requestedFrame) {
          for (const cb of r.beforeRenderCallbacks) cb.fn(true, t0);
          r.render(r.renderOptions);
          r.requestedFrame = false;
        }
        times.push(performance.now() - t0);
      }
      if (!best || times.reduce((a, b) => a + b, 0) < best.reduce((a, b) => a + b, 0)) best = times;
    }
    to(back);
    await afterFrame();
    const s = [...best!].sort((a, b) => a - b);
    const r1 = (x: number) => Math.round(x * 10) / 10;
    return { total: r1(s.reduce((a, b) => a + b, 0)), p50: r1(s[Math.floor(s.length / 2)]!), p95: r1(s[Math.min(s.length - 1, Math.floor(0.95 * s.length))]!), n: s.length };
  });
}

/**
 * The in-task draw's own cost (controller.drawStepsInTask, step19d), an in-page A/B free of drift: scrubInputWork's
 * steps with the step's frame drawn in its input task (on) or by the same calls right after the input event (off,
 * as Cytoscape's loop would at the next frame), alternating step by step and swapped at each of four passes; JS ms
 * per step {p50, mean} each way. null in a build without the switch.
 */
function scrubInTaskAB(page: Page): Promise<{ on: { p50: number; mean: number }; off: { p50: number; mean: number }; n: number } | null> {
  return page.evaluate(async () => {
    type R = { beforeRenderCallbacks: Array<{ fn(willDraw: boolean, t: number): void }>; render(o?: unknown): void; renderOptions?: unknown; requestedFrame?: boolean };
    const c = window.__lorecraftCanvas!.controller as unknown as { cy: { renderer(): R }; drawStepsInTask?: boolean };
    if (typeof c.drawStepsInTask !== 'boolean') return null;
    const r = c.cy.renderer(), was = c.drawStepsInTask;
    const input = document.querySelector<HTMLInputElement>('[data-testid="timeline-scrubber"]')!;
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    const to = (i: number) => { setValue.call(input, String(i)); input.dispatchEvent(new Event('input', { bubbles: true })); };
    const afterFrame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
    const back = Number(input.value), last = Number(input.max);
    const on: number[] = [], off: number[] = [];
    try {
      for (let pass = 0; pass < 4; pass++) {
        to(0);
        await afterFrame();
        await afterFrame();
        for (let i = 1; i <= last; i++) {
          await afterFrame();
          const inTask = (i + pass) % 2 === 0;
          c.drawStepsInTask = inTask;
          const t0 = performance.now();
          to(i);
          if (r.requestedFrame) {
            for (const cb of r.beforeRenderCallbacks) cb.fn(true, t0);
            r.render(r.renderOptions);
            r.requestedFrame = false;
          }
          (inTask ? on : off).push(performance.now() - t0);
        }
      }
    } finally { c.drawStepsInTask = was; }
    to(back);
    await afterFrame();
    const r1 = (x: number) => Math.round(x * 100) / 100;
    const sum = (xs: number[]) => ({ p50: r1([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!), mean: r1(xs.reduce((a, b) => a + b, 0) / xs.length) });
    return { on: sum(on), off: sum(off), n: on.length + off.length };
  });
}

export async function bench(ctx: CanvasBenchContext): Promise<Record<string, unknown>> {
  if (!existsSync(join(ROOT, 'dist', 'renderer', 'index.html'))) throw new Error('dist/renderer is missing: run `npx vite build` first');
  const generate = ctx.generateVault ?? (await import('./generate.js')).generateVault;
  const browser: Browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const out: Record<string, unknown> = { first_render_ms: {}, layout_done_ms: {}, graph_ms: {} };
  const vaults = new Map<number, string>();
  const vault = async (n: number) => {
    let dir = vaults.get(n);
    if (!dir) {
      dir = join(ctx.tmpDir, `canvas-v${n}`);
      await generate(dir, { entities: n, avgLinks: 4, seed: 7 });
      vaults.set(n, dir);
    }
    return dir;
  };
  /** one web shell + one page per vault; `url` may carry query flags */
  const withApp = async <T>(n: number, query: string, fn: (page: Page, url: string) => Promise<T>): Promise<T> => {
    const { child, url } = await startShell(await vault(n), join(ctx.tmpDir, `data-${n}`));
    log(`${n} entities${query ? ` (${query})` : ''}: shell at ${url}`);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    // this file runs through tsx, whose esbuild keepNames wraps named inner functions in __name(...)
    await page.addInitScript('window.__name = (f) => f');
    try {
      return await fn(page, url + query);
    } finally {
      await page.close();
      await stopShell(child);
    }
  };
  const only = new Set((process.env.LORECRAFT_CANVAS_BENCH ?? 'load,fps,webgl,nb,scrub').split(','));
  try {
    if (only.has('scrub')) {
      const dir = join(ctx.tmpDir, 'canvas-scrub');
      const { generateScrubWorld } = await import('./scrub-world.js');
      const world = await generateScrubWorld(dir, { entities: 1000, events: 200, sessions: 67 });
      const { child, url } = await startShell(dir, join(ctx.tmpDir, 'data-scrub'));
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.addInitScript('window.__name = (f) => f');
      try {
        await load(page, url, 600_000);
        await page.getByTestId('timeline-tick').first().waitFor({ timeout: 60_000 });
        const prof = process.env.LORECRAFT_CANVAS_PROFILE || undefined;
        if (prof) await instrument(page, prof === 'hints');
        const sc = await profiled(page, prof, 'scrub', () => scrub(page, 50));
        log(`scrub (${world.entities} entities, ${world.events} events, ${sc.sessions} steps): ${JSON.stringify(sc)}`);
        out.scrub_idle_fps_1k = await idleFps(page, 1500);
        out.scrub_step_work_ms_1k = await scrubWork(page);
        out.scrub_input_work_ms_1k = await scrubInputWork(page);
        out.scrub_in_task_ab_ms_1k = await scrubInTaskAB(page);
        // the present frame's own work with controller.deferPresentWork on / off, alternating step by step (see the header)
        out.scrub_present_ab_ms_1k = await page.evaluate(async () => {
          const c = window.__lorecraftCanvas!.controller as unknown as { deferPresentWork?: boolean; metrics: { presentDeferred?: number } };
          if (typeof c.deferPresentWork !== 'boolean') return null;
          const input = document.querySelector<HTMLInputElement>('[data-testid="timeline-scrubber"]')!;
          const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
          const to = (i: number) => { setValue.call(input, String(i)); input.dispatchEvent(new Event('input', { bubbles: true })); };
          const wait = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
          const last = Number(input.max);
          const on: number[] = [], off: number[] = [];
          const d0 = c.metrics.presentDeferred ?? 0;
          for (let pass = 0; pass < 4; pass++) {
            to(0); await wait(100);
            for (let i = 1; i <= last; i++) {
              await wait(50);
              const defer = (i + pass) % 2 === 0;
              c.deferPresentWork = defer;
              to(i);
              const ms = await new Promise<number>((ok) => requestAnimationFrame((t) => ok(performance.now() - t)));
              (defer ? on : off).push(ms);
            }
          }
          c.deferPresentWork = true;
          const st = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return { p50: Math.round(s[Math.floor(s.length / 2)]! * 100) / 100, p95: Math.round(s[Math.floor(s.length * 0.95)]! * 100) / 100, mean: Math.round(xs.reduce((a, b) => a + b, 0) / xs.length * 100) / 100 }; };
          return { deferred: st(on), not: st(off), skips: (c.metrics.presentDeferred ?? 0) - d0 };
        });
        out.scrub_fps_1k = sc.fps;
        out.scrub_step_ms = sc.steps;
        out.scrub_layouts = sc.layouts;
        out.scrub_layer = sc.layer;
        out.scrub_frame_gap_ms_1k = sc.gaps;
        out.scrub_dropped_frames_1k = sc.dropped;
        out.scrub_cpu_ms_1k = sc.cpu;
        out.scrub_cache_1k = sc.cache;
        out.scrub_step_parts_ms_1k = sc.parts;
        out.scrub_first_step_ms_1k = sc.first;
        out.scrub_warmed_1k = sc.warmed;
      } finally {
        await page.close();
        await stopShell(child);
      }
    }
    if (only.has('load')) for (const [key, n] of (ctx.quick ? [['1k', 1000]] : [['1k', 1000], ['5k', 5000]]) as Array<[string, number]>) {
      const prof = process.env.LORECRAFT_CANVAS_PROFILE;
      const m = await withApp(n, '', (page, url) => (prof && !logOnly(prof)
        ? loadProfiled(page, url, 600_000, prof, key) : load(page, url, 600_000)));
      log(`${key}: ${JSON.stringify(m)}`);
      (out.first_render_ms as Record<string, number>)[key] = m.first;
      ((out.first_picture_ms ??= {}) as Record<string, number>)[key] = m.picture;
      (out.layout_done_ms as Record<string, number>)[key] = m.layout;
      ((out.layout_painted_ms ??= {}) as Record<string, number>)[key] = m.painted;
      (out.graph_ms as Record<string, number>)[key] = m.graph;
      out[`nodes_${key}`] = m.nodes;
      if (m.worker !== undefined) ((out.layout_worker_ms ??= {}) as Record<string, number>)[key] = m.worker;
      ((out.load_cpu_ms ??= {}) as Record<string, unknown>)[key] = m.cpu;
    }
    const fpsN = ctx.quick ? 1000 : 2000;
    out.pan_zoom_nodes = fpsN;
    if (only.has('fps')) {
      await withApp(fpsN, '', async (page, url) => {
        await load(page, url, 600_000);
        const prof = process.env.LORECRAFT_CANVAS_PROFILE || undefined;
        if (prof === 'probe') await probe(page);
        if (prof?.startsWith('shots:')) await shots(page, prof.slice(6));
        if (prof) await instrument(page, prof === 'hints');
        out.settle_ms_2k = await settle(page);
        out.idle_fps_2k = await profiled(page, prof, 'idle', () => idleFps(page, 1500));
        putPanZoom(out, '2k', await profiled(page, prof, 'panzoom', () => panZoomFps(page, 3000)));
        putPanZoom(out, 'empty_2k', await panZoomEmpty(page, subProfile(prof, 'empty'), 'panzoom-empty'));
        out.gesture_stats_2k = await page.evaluate(() => ({ ...window.__lorecraftCanvas!.metrics.gesture }));
      });
    }
    log(`pan/zoom fps (${fpsN} nodes): ${out.pan_zoom_fps_2k}; turned ${JSON.stringify(out.pan_zoom_turned_2k)}; empty presses ${out.pan_zoom_fps_empty_2k} ${JSON.stringify(out.pan_zoom_turned_empty_2k)}`);
    // the same gesture over 5k nodes (issue 19: >= 30 fps there)
    if (only.has('fps') && !ctx.quick) {
      await withApp(5000, '', async (page, url) => {
        await load(page, url, 900_000);
        const prof = process.env.LORECRAFT_CANVAS_PROFILE || undefined;
        if (prof) await instrument(page, prof === 'hints');
        out.settle_ms_5k = await settle(page);
        out.idle_fps_5k = await idleFps(page, 1500);
        putPanZoom(out, '5k', await profiled(page, subProfile(prof, '5k'), 'panzoom-5k', () => panZoomFps(page, 3000)));
        putPanZoom(out, 'empty_5k', await panZoomEmpty(page, subProfile(prof, '5k-empty'), 'panzoom-empty-5k'));
        out.gesture_stats_5k = await page.evaluate(() => ({ ...window.__lorecraftCanvas!.metrics.gesture }));
      });
      log(`pan/zoom fps (5000 nodes): ${out.pan_zoom_fps_5k}; turned ${JSON.stringify(out.pan_zoom_turned_5k)}; empty presses ${out.pan_zoom_fps_empty_5k}`);
    }
    // software GL here (--disable-gpu): recorded, or the reason it could not be measured
    if (only.has('webgl')) out.pan_zoom_fps_2k_webgl = await withApp(fpsN, '&webgl=1', async (page, url) => { await load(page, url, 180_000); return (await panZoomFps(page, 3000)).fps; })
      .catch((e: unknown) => ({ error: (e instanceof Error ? e.message : String(e)).split('\n')[0] }));
    log(`webgl fps: ${JSON.stringify(out.pan_zoom_fps_2k_webgl)}`);

    if (!only.has('nb')) return out;
    const nbN = ctx.quick ? 1000 : 10000;
    out.neighbourhood_entities = nbN;
    const nb = await withApp(nbN, '', async (page, url) => {
      const m = await load(page, url, 900_000);
      const ids = await page.evaluate(() => {
        const cy = window.__lorecraftCanvas!.cy;
        // roots spread over the graph, each with a few neighbours
        return cy.nodes().filter((x) => x.degree(false) >= 3).map((x) => x.id()).filter((_, i) => i % 97 === 0).slice(0, 12);
      });
      const total = await page.evaluate(() => window.__lorecraftCanvas!.cy.nodes().length);
      const times: number[] = [], sizes: number[] = [];
      log(`${nbN} entities: ${JSON.stringify(m)}`);
      log(`layout done at ${m.layout} ms; focusing ${ids.length} roots`);
      // LORECRAFT_CANVAS_PROFILE=<dir>: a CPU profile of each focus (<dir>/nb-<i>.cpuprofile), top self time of the slow ones
      const prof = process.env.LORECRAFT_CANVAS_PROFILE;
      const cdp = prof && !prof.includes(':') && prof !== 'diag' && prof !== 'hints' && prof !== 'probe' ? await page.context().newCDPSession(page) : null;
      if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 500 }); }
      // and which canvas drew during each focus: the big graph's render() calls and their time (window.__lorecraft.cy)
      if (cdp) await page.evaluate(() => {
        const g = window as unknown as { __bigRenders: number[]; __bigRenderAt: number[] };
        g.__bigRenders = [];
        g.__bigRenderAt = [];
        const r = (window.__lorecraft!.cy as unknown as { renderer(): { render(o?: unknown): void } }).renderer();
        const orig = r.render;
        r.render = function (this: unknown, o?: unknown) {
          const t0 = performance.now();
          orig.call(this, o);
          g.__bigRenders.push(Math.round(performance.now() - t0));
          g.__bigRenderAt.push(Math.round(t0));
        };
      });
      for (const [i, id] of ids.entries()) {
        if (cdp) await page.evaluate(() => { const g = window as unknown as { __bigRenders: number[]; __bigRenderAt: number[] }; g.__bigRenders.length = 0; g.__bigRenderAt.length = 0; });
        await cdp?.send('Profiler.start');
        const r = await neighbourhood(page, id);
        if (cdp) {
          const { profile } = await cdp.send('Profiler.stop');
          if (r.ms > 250) await writeProfile(`nb-${i}`, prof!, profile); else { mkdirSync(prof!, { recursive: true }); writeFileSync(join(prof!, `nb-${i}.cpuprofile`), JSON.stringify(profile)); }
        }
        // the big graph's render() calls since the last Esc: [ms, start relative to the focus's input]
        const big = cdp ? await page.evaluate((t0) => { const g = window as unknown as { __bigRenders: number[]; __bigRenderAt: number[] }; return g.__bigRenders.map((ms, i) => [ms, Math.round(g.__bigRenderAt[i]! - t0)]); }, r.t0) : [];
        log(`  ${id}: ${r.ms} ms, ${r.nodes} nodes${cdp ? `; the big graph's render() calls meanwhile ([ms, start after the input]): ${JSON.stringify(big)}` : ''}`);
        times.push(r.ms); sizes.push(r.nodes);
        await clearFocus(page, total);
      }
      return { m, times, sizes };
    });
    out.neighbourhood_10k_ms = stat(nb.times);
    out.neighbourhood_nodes_p50 = stat(nb.sizes).p50;
    out.layout_done_ms_10k = nb.m.layout;
    out.layout_painted_ms_10k = nb.m.painted;
    out.first_render_ms_10k = nb.m.first;
    out.first_picture_ms_10k = nb.m.picture;
    if (nb.m.worker !== undefined) out.layout_worker_ms_10k = nb.m.worker;
  } finally {
    await browser.close();
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const tmp = mkdtempSync(join(tmpdir(), 'lorecraft-canvas-bench-'));
  try {
    console.log(JSON.stringify(await bench({ quick: process.argv.includes('--quick'), tmpDir: tmp }), null, 2));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
