/**
 * A big graph's first picture (issue 19.2, preview.ts): on a generated 1.3k-entity world, the dots drawn
 * before Cytoscape's first frame are the same picture as that frame: the same fit (view), and at each node's
 * place in Cytoscape's first frame the preview has that node's own colour; the preview is shown before
 * Cytoscape's first frame and is gone after it.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateVault } from '../bench/generate.js';
import { test, expect } from './fixtures.js';

const world = mkdtempSync(join(tmpdir(), 'lorecraft-e2e-preview-'));
test.use({ vaultSource: world });
test.beforeAll(async () => { await generateVault(world, { entities: 1300, avgLinks: 4, seed: 23 }); });
test.afterAll(async () => { await rm(world, { recursive: true, force: true }); });

interface Seen {
  /** when the preview was put on the page; its pixels (RGBA) when taken away, and its size in device pixels */
  addedAt?: number; pixels?: number[]; w?: number; h?: number; ratio?: number;
  /** each node's colour and model position in Cytoscape's first frame (when the preview is taken away) */
  nodes?: Array<{ id: string; x: number; y: number; color: string }>;
  /** Cytoscape's box of the node bodies (what its fit uses), and its zoom range */
  bb?: { x1: number; y1: number; x2: number; y2: number }; minZoom?: number; maxZoom?: number;
  removedAt?: number;
}

test('a big graph first shows dots at the places, colours and fit of Cytoscape\'s first frame, which replaces them', async ({ shell, page }) => {
  test.setTimeout(180_000);
  await page.addInitScript(() => {
    const seen: Record<string, unknown> = {};
    (window as unknown as { __preview: unknown }).__preview = seen;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of Array.from(r.addedNodes)) {
          if (n instanceof HTMLCanvasElement && n.dataset.testid === 'canvas-preview') seen.addedAt = performance.now();
        }
        for (const n of Array.from(r.removedNodes)) {
          if (!(n instanceof HTMLCanvasElement) || n.dataset.testid !== 'canvas-preview') continue;
          // removed in Cytoscape's first render: the preview's last picture, and the nodes where that frame drew them
          seen.removedAt = performance.now();
          const ctx = n.getContext('2d')!;
          seen.pixels = Array.from(ctx.getImageData(0, 0, n.width, n.height).data);
          seen.w = n.width; seen.h = n.height; seen.ratio = window.devicePixelRatio || 1;
          const cy = window.__lorecraftCanvas!.cy;
          seen.nodes = cy.nodes().map((x) => {
            const p = x.position();
            return { id: x.id(), x: p.x, y: p.y, color: x.style('background-color') as string };
          });
          const bb = cy.nodes().boundingBox({ includeLabels: false, includeOverlays: false, includeEdges: false } as never);
          seen.bb = { x1: bb.x1, y1: bb.y1, x2: bb.x2, y2: bb.y2 };
          seen.minZoom = cy.minZoom(); seen.maxZoom = cy.maxZoom();
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(shell.url);
  await page.waitForFunction(() => window.__lorecraftCanvas?.metrics.layoutDoneAt !== undefined, undefined, { timeout: 150_000, polling: 200 });
  const { seen, metrics } = await page.evaluate(() => {
    const m = window.__lorecraftCanvas!.metrics;
    return { seen: (window as unknown as { __preview: Seen }).__preview, metrics: { picture: m.firstPictureAt, render: m.firstRenderAt, preview: m.previewView, first: m.firstView, nodes: m.nodes, runs: m.layoutRuns } };
  });
  expect(metrics.nodes).toBeGreaterThan(1200);
  // shown first, then replaced by Cytoscape's first frame
  expect(metrics.picture).toBeDefined();
  expect(metrics.picture!).toBeLessThan(metrics.render!);
  expect(seen.addedAt!).toBeLessThan(seen.removedAt!);
  expect(seen.nodes?.length).toBe(metrics.nodes);
  await expect(page.getByTestId('canvas-preview')).toHaveCount(0);
  // the first layout started with the preview and was kept: Cytoscape was given the same input
  expect(metrics.runs.length).toBe(1);
  expect(metrics.runs[0]!.early).toBe(true);
  // the worker says when it got the request: after it was asked for, before its answer was back (the wait for the worker)
  const run = metrics.runs[0]!;
  expect(run.where).toBe('worker');
  expect(run.startedAt).toBeDefined();
  expect(run.startedAt!).toBeGreaterThanOrEqual(run.askedAt! - 1);
  expect(run.startedAt! + run.ms).toBeLessThanOrEqual(run.receivedAt! + 1);
  // the same fit: Cytoscape's fit (controller fitNodes) of its own node box, in the view the preview was drawn in
  // (the panes may settle between the preview and Cytoscape's frame; then that frame is fitted to the new size)
  const pv = metrics.preview!, bb = seen.bb!;
  const zoom = Math.min(seen.maxZoom!, Math.max(seen.minZoom!, Math.min((pv.w - 60) / (bb.x2 - bb.x1), (pv.h - 60) / (bb.y2 - bb.y1))));
  expect(pv.zoom).toBeCloseTo(zoom, 9);
  expect(pv.pan.x).toBeCloseTo((pv.w - zoom * (bb.x1 + bb.x2)) / 2, 6);
  expect(pv.pan.y).toBeCloseTo((pv.h - zoom * (bb.y1 + bb.y2)) / 2, 6);
  if (metrics.first!.w === pv.w && metrics.first!.h === pv.h) {
    expect(metrics.first!.zoom).toBeCloseTo(pv.zoom, 9);
    expect(metrics.first!.pan.x).toBeCloseTo(pv.pan.x, 6);
    expect(metrics.first!.pan.y).toBeCloseTo(pv.pan.y, 6);
  }
  // at each node's place in Cytoscape's first frame (seen through the preview's view) the preview has a dot of that
  // node's colour (where start places overlap another dot may lie on top: most, not all, must match)
  const rgb = (c: string) => (/rgb\((\d+),\s*(\d+),\s*(\d+)\)/.exec(c) ?? []).slice(1).map(Number);
  const ratio = seen.ratio!;
  let own = 0, painted = 0, inView = 0;
  const misses: string[] = [];
  for (const n of seen.nodes!) {
    const px = Math.floor((n.x * pv.zoom + pv.pan.x) * ratio), py = Math.floor((n.y * pv.zoom + pv.pan.y) * ratio);
    if (px < 0 || py < 0 || px >= seen.w! || py >= seen.h!) continue;
    inView++;
    const i = 4 * (py * seen.w! + px);
    const [r, g, b, a] = seen.pixels!.slice(i, i + 4);
    if (a! > 0) painted++;
    const want = rgb(n.color);
    // small dots cover their centre pixel only partly (alpha < 255): the colour is still the node's
    if (a! > 0 && Math.abs(r! - want[0]!) <= 3 && Math.abs(g! - want[1]!) <= 3 && Math.abs(b! - want[2]!) <= 3) own++;
    else if (misses.length < 10) misses.push(`${n.id} ${n.color} got ${r},${g},${b},${a}`);
  }
  expect(inView).toBe(seen.nodes!.length);
  expect(painted).toBe(inView);
  expect(own / inView, misses.join(' | ')).toBeGreaterThan(0.95);
  // and nothing is drawn away from the nodes: a corner of the view (inside the fit's padding) stays empty
  expect(seen.pixels![4 * (1 * seen.w! + 1) + 3]).toBe(0);
});

test('no gesture bitmap is built ahead of the first layout: it would show the quick placement, and it held the layout back', async ({ shell, page }) => {
  test.setTimeout(180_000);
  // the layout worker's script is served 3 s late, so the first layout's answer comes well after Cytoscape's first
  // frame (the quick placement) and the page is idle meanwhile: time enough for a bitmap built ahead in idle time
  // (gesture.ts buildAhead: 300 ms, then an idle callback) if it were allowed before the layout is placed
  await page.route(/layout\.worker[^/]*\.js/, async (route) => {
    await new Promise((r) => setTimeout(r, 3000));
    await route.continue();
  });
  await page.goto(shell.url);
  await page.waitForFunction(() => window.__lorecraftCanvas?.metrics.layoutDoneAt !== undefined, undefined, { timeout: 150_000, polling: 200 });
  // the first layout placed, the bitmap is built ahead again (the next gesture starts from it)
  await page.waitForFunction(() => (window.__lorecraftCanvas!.metrics.gesture?.ahead ?? 0) > 0, undefined, { timeout: 30_000, polling: 100 });
  const m = await page.evaluate(() => {
    const x = window.__lorecraftCanvas!.metrics;
    return { render: x.firstRenderAt!, done: x.layoutDoneAt!, ahead: x.gesture!.firstAheadAt!, nodes: x.nodes!, runs: x.layoutRuns };
  });
  expect(m.nodes).toBeGreaterThan(1200);
  expect(m.runs[0]!.where).toBe('worker');
  // the idle wait the check needs did happen: Cytoscape's first frame well before the layout was placed
  expect(m.done - m.render).toBeGreaterThan(1000);
  expect(m.ahead).toBeGreaterThanOrEqual(m.done);
});
