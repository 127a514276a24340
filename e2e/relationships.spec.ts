/**
 * Relationships that carry meaning (issue 18) and the panel's relationships
 * (issue 20), from the user's clicks on the sample world: the Iron Guild's
 * alliance with the Bureau is `attitude: wary` until the event "Oldmere Rises"
 * (session 5); hovering the edge shows it, the edge panel changes it with one
 * line on disk, Ctrl+Z puts the bytes back. The panel lists a typed relationship
 * once and keeps body links in their own collapsed section.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

const GUILD = 'setting/factions/Iron Guild.md';
// a symmetric relationship is drawn once, its ends in id order
const EDGE = { source: 'setting/bureau of civic affairs', type: 'ALLIED_WITH', target: 'setting/iron guild' };

/** Bring the alliance edge into view and return its midpoint in page coordinates. */
async function edgePoint(page: Page): Promise<{ x: number; y: number }> {
  await expect.poll(() => page.evaluate(({ source, type, target }) =>
    window.__lorecraftCanvas?.cy.edges().some((e) => e.data('source') === source && e.data('type') === type && e.data('target') === target) ?? false, EDGE), { timeout: 15_000 }).toBe(true);
  // fitted to its two ends, and the view left so: the canvas centres a node opened in the panel with a short animation
  // (when it is off screen or near an edge), which on a loaded machine can start after the fit and move the edge away
  // from the point read below
  const fit = () => page.evaluate(({ source, type, target }) => {
    const cy = window.__lorecraftCanvas!.cy;
    if (!cy.animated()) {
      const e = cy.edges().filter((x) => x.data('source') === source && x.data('type') === type && x.data('target') === target);
      cy.fit(e.connectedNodes(), 160);
    }
    return JSON.stringify({ zoom: cy.zoom(), pan: cy.pan(), animated: cy.animated() });
  }, EDGE);
  const view = () => page.evaluate(() => {
    const cy = window.__lorecraftCanvas!.cy;
    return JSON.stringify({ zoom: cy.zoom(), pan: cy.pan(), animated: cy.animated() });
  });
  let fitted = await fit();
  await expect.poll(async () => {
    // edges are hidden while the viewport moves (hideEdgesOnViewport) and drawn again once it rests
    await page.waitForTimeout(400);
    if (await view() === fitted && !JSON.parse(fitted).animated) return 'at rest';
    fitted = await fit();
    return 'moved';
  }, { timeout: 30_000 }).toBe('at rest');
  // a point of the edge no node covers (another node may sit on the line between the two ends)
  return page.evaluate(({ source, type, target }) => {
    const cy = window.__lorecraftCanvas!.cy;
    const e = cy.edges().filter((x) => x.data('source') === source && x.data('type') === type && x.data('target') === target)[0]!;
    const a = e.renderedSourceEndpoint();
    const b = e.renderedTargetEndpoint();
    const boxes = cy.nodes().map((n) => n.renderedBoundingBox({ includeLabels: false }));
    const clearance = (p: { x: number; y: number }) => Math.min(...boxes.map((r) => Math.max(r.x1 - p.x, p.x - r.x2, r.y1 - p.y, p.y - r.y2)));
    let best = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    for (let t = 0.15; t <= 0.85; t += 0.05) {
      const p = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
      if (clearance(p) > clearance(best)) best = p;
    }
    const box = cy.container()!.getBoundingClientRect();
    return { x: box.left + best.x, y: box.top + best.y };
  }, EDGE);
}

test('the alliance edge: hover shows "attitude: wary", the edge panel changes it in one line, Ctrl+Z restores the bytes', async ({ app, vault }) => {
  const page = app.page; // the app fixture opens the page on the shell and waits for the vault
  await page.setViewportSize({ width: 1440, height: 900 });
  const before = await vault.read(GUILD);
  await expect.poll(() => page.evaluate(() => window.__lorecraftCanvas?.metrics.layoutDoneAt !== undefined), { timeout: 30_000 }).toBe(true);
  const at = await edgePoint(page);

  await page.mouse.move(at.x, at.y);
  const tip = page.getByTestId('canvas-edge-tip');
  await expect(tip).toHaveText('attitude: wary · until: Oldmere Rises');

  await page.mouse.click(at.x, at.y);
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-selected-edge', `${EDGE.source}|${EDGE.type}|${EDGE.target}`);
  const panel = page.getByTestId('edge-panel');
  await expect(page.getByTestId('edge-panel-title')).toHaveText('Iron Guild allied with Bureau of Civic Affairs');
  await expect(panel).toHaveAttribute('data-path', GUILD);
  const attitude = panel.locator('[data-testid="edge-prop"][data-key="attitude"]');
  await expect(attitude).toHaveValue('wary');
  await expect(panel.locator('[data-testid="edge-prop"][data-key="until"]')).toHaveValue('Oldmere Rises');

  await attitude.selectOption('friendly');
  await expect.poll(() => vault.read(GUILD), { timeout: 15_000 }).not.toBe(before);
  const after = await vault.read(GUILD);
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b).toHaveLength(a.length);
  expect(b.filter((l, i) => l !== a[i])).toEqual(['allies: [{ to: "[[Bureau of Civic Affairs]]", attitude: friendly, until: "[[Oldmere Rises]]" }]']);
  await expect(attitude).toHaveValue('friendly');

  // one undo (Ctrl+Z, outside any field) puts every byte back
  await page.getByTestId('project-name').click();
  await page.keyboard.press('Control+z');
  await expect.poll(() => vault.read(GUILD), { timeout: 15_000 }).toBe(before);
});

test('the screenshot: world calendar dates on the axis, the alliance ended at session 5 with its panel', async ({ app, page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(() => page.evaluate(() => window.__lorecraftCanvas?.metrics.layoutDoneAt !== undefined), { timeout: 30_000 }).toBe(true);
  const bar = page.getByTestId('timeline-bar');
  await bar.locator('[data-testid="timeline-tick"][data-session="5"]').click();
  // the axis speaks the world's calendar (lorecraft.yaml calendar:), not year-month-day numbers
  await expect(bar).toContainText(/(Frostwane|Thawmoon|Seedtide|Rainmoon|Bloomtide|Highsun|Ashmoon|Harvest|Leaffall|Mistmoon|Frostfall|Deepwinter) 1203/);
  await app.open('Iron Guild');
  const at = await edgePoint(page);
  await page.mouse.click(at.x, at.y);
  await expect(page.getByTestId('edge-panel').locator('[data-testid="edge-prop"][data-key="until"]')).toHaveValue('Oldmere Rises');
  // at session 5 the alliance no longer holds: drawn as ended
  expect(await page.evaluate(({ source, type, target }) => window.__lorecraftCanvas!.cy.edges()
    .filter((x) => x.data('source') === source && x.data('type') === type && x.data('target') === target)[0]!.classes().join(' '), EDGE)).toContain('status-removed');
  await page.screenshot({ path: 'docs/screenshots/relationships.png' });
});

test('the panel lists a typed relationship once and keeps body links in their own collapsed section', async ({ app }) => {
  await app.open('Dessa Vane');
  const rels = app.panel.getByTestId('entity-relations');
  // Iron Guild is her faction (MEMBER_OF) and a [[link]] in her note: shown once, under MEMBER_OF
  await expect(rels.locator('[data-testid="relation-group"][data-label="→ MEMBER_OF"] [data-testid="relation-item"]')).toHaveText(['Iron Guild']);
  await expect(rels.getByTestId('relation-item').filter({ hasText: /^Iron Guild/ })).toHaveCount(1);
  await expect(rels.locator('[data-testid="relation-group"][data-label$="LINKS_TO"]:visible')).toHaveCount(0);
  // the body links: their own section, collapsed, holding only what no typed relationship names
  const links = rels.getByTestId('entity-body-links');
  await expect(links).not.toHaveAttribute('open', '');
  await expect(links.locator('summary')).toHaveText(/^Body links \(\d+\)$/);
  await links.locator('summary').click();
  await expect(links.getByTestId('relation-item').filter({ hasText: 'Thornwood Wardens' })).toBeVisible();
  await expect(links.getByTestId('relation-item').filter({ hasText: /^Iron Guild|^Port Valdris/ })).toHaveCount(0);
  // a relationship's own properties read beside it: the Guild's wary alliance
  await app.open('Iron Guild');
  await expect(app.panel.locator('[data-testid="relation-group"][data-label="↔ ALLIED_WITH"] [data-testid="relation-item"]'))
    .toHaveText(['Bureau of Civic Affairs (attitude: wary · until: Oldmere Rises)']);
});
