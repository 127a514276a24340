/**
 * A GM's own vault on first open (issue 15): an untyped Obsidian-style vault
 * (e2e/vaults/obsidian-untyped: folders, a _templates folder, a templates folder
 * named in .obsidian/templates.json, README.md, tags, link-valued keys, callouts,
 * an image embed). The app offers a schema, the GM renames a type and accepts,
 * the world re-types live, and a key the schema does not declare is edited in
 * the form and written to disk. Real web shell, real core and Kùzu, real Chromium.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, ROOT } from './fixtures.js';

test.use({ vaultSource: join(ROOT, 'e2e', 'vaults', 'obsidian-untyped') });

test('accept the proposed schema: typed groups, templates and README are not entities, an undeclared key is editable', async ({ app, vault }) => {
  const page = app.page;
  const groups = page.getByTestId('entity-group');
  // untyped: one group; template notes and the README are not in it
  await expect(groups).toHaveCount(1);
  await expect(page.getByTestId('entity-item')).toHaveCount(8);
  await expect(app.sidebarItem('Character')).toHaveCount(0);
  await expect(app.sidebarItem('Place')).toHaveCount(0);
  await expect(app.sidebarItem('README')).toHaveCount(0);
  await expect(page.getByTestId('vault-files')).toContainText('README.md');
  // the untyped canvas is coloured by top-level folder: Characters/ one colour, World/ (places and organisations) another
  await expect.poll(() => page.evaluate(() => {
    const cy = window.__lorecraftCanvas?.cy;
    if (!cy) return null;
    const colour = (name: string) => cy.nodes().filter((n) => n.data('label') === name).map((n) => n.style('background-color') as string)[0] ?? null;
    const chars = new Set(['Aria Vell', 'Borin Stone', 'Cass Mire'].map(colour));
    const world = new Set(['Saltmere', 'Greyhold', 'Ember Fen', 'Tide Guild', 'Ash Circle'].map(colour));
    return { chars: chars.size, world: world.size, apart: ![...chars].some((c) => world.has(c)), missing: [...chars, ...world].includes(null) };
  })).toEqual({ chars: 1, world: 1, apart: true, missing: false });

  // the banner opens the side panel with the proposal
  await page.getByTestId('schema-setup-open').click();
  const panel = page.getByTestId('schema-setup-panel');
  const type = (name: string) => panel.locator(`[data-testid="setup-type"][data-type="${name}"]`);
  await expect(type('character').getByTestId('setup-type-count')).toHaveText('3');
  await expect(type('place').getByTestId('setup-type-count')).toHaveText('3');
  await expect(type('organization').getByTestId('setup-type-count')).toHaveText('2');
  await expect(type('character')).toContainText('Aria Vell');
  await expect(type('character')).toContainText('home → HOME (place)');
  await expect(type('place')).toContainText('region: string');

  // rename: organization -> faction; the preview follows
  const org = panel.locator('[data-testid="setup-candidate"][data-id="folder:World/Organizations"]');
  await org.getByTestId('setup-name').fill('faction');
  await org.getByTestId('setup-name').press('Enter');
  await expect(type('faction').getByTestId('setup-type-count')).toHaveText('2');
  await expect(type('organization')).toHaveCount(0);
  await page.screenshot({ path: 'docs/screenshots/schema-setup.png' });

  await panel.getByTestId('schema-setup-accept').click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('schema-setup-done')).toBeVisible();
  // the world re-typed live: typed groups in the sidebar
  for (const [t, n] of [['character', 3], ['place', 3], ['faction', 2]] as const) {
    await expect(page.locator(`[data-testid="entity-group"][data-type="${t}"] [data-testid="entity-item"]`)).toHaveCount(n);
  }
  expect(existsSync(vault.path('schema.yaml'))).toBe(true);
  expect(await vault.read('schema.yaml')).toContain('- name: faction');
  expect(await vault.read('lorecraft.yaml')).toContain('project:');

  // the canvas re-coloured by type (before: by top-level folder), and a focused neighbourhood labelled and in view
  await expect.poll(() => nodeColours(page)).toEqual({ character: 1, place: 1, faction: 1, distinct: 3 });
  const input = page.getByTestId('canvas-focus-input');
  await input.fill('Aria Vell');
  await expect(page.getByTestId('canvas-focus-hit').first()).toBeVisible();
  await input.press('Enter');
  const aria = await page.evaluate(() => window.__lorecraft!.cy!.nodes().filter((n) => n.data('label') === 'Aria Vell').map((n) => n.id())[0]);
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-focus', aria!);
  await expect.poll(() => focusedView(page), { timeout: 15_000 }).toEqual({
    nodes: ['Aria Vell', 'Saltmere', 'Tide Guild'], labelled: ['Aria Vell', 'Saltmere', 'Tide Guild'], outOfView: [], smallestLabelPx: 'readable',
  });
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-focus', '');

  // the typed place renders as Obsidian shows it: its callout, and its image embed served from the vault
  await app.open('Saltmere');
  await expect(page.getByTestId('entity-type')).toHaveText('place');
  const prose = page.getByTestId('entity-prose');
  await expect(prose.locator('.callout[data-callout="note"] .callout-title-inner')).toHaveText('Harbour');
  const img = prose.locator('img[data-asset="saltmere.png"]');
  await expect(img).toHaveAttribute('width', '250');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(8);

  // `rank` holds a word in one note and a number in another: the schema does not declare it, the form edits it
  await app.open('Aria Vell');
  await expect(page.getByTestId('entity-type')).toHaveText('character');
  await app.panel.getByTestId('edit-entity').click();
  const other = page.getByTestId('entity-editor').getByTestId('editor-other-fields');
  await expect(other).toContainText('not in the schema for character');
  const rank = other.getByTestId('field-rank');
  await expect(rank).toHaveValue('captain');
  await rank.fill('admiral');
  await rank.press('Enter');
  await expect.poll(() => vault.read('Characters/Aria Vell.md'), { timeout: 15_000 }).toContain('rank: admiral');
  expect(await vault.read('Characters/Aria Vell.md')).toBe(
    '---\ntags: [character]\nhome: "[[Saltmere]]"\nfaction: "[[Tide Guild]]"\nstatus: alive\nage: 34\nrank: admiral\n---\nAria commands the *Gull* out of [[Saltmere]].\n',
  );
});

/** per type, how many colours its nodes are drawn in; and how many colours the types have between them */
function nodeColours(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const byType = new Map<string, Set<string>>();
    window.__lorecraft!.cy!.nodes('.note').forEach((n) => {
      const t = n.data('type') as string;
      if (!byType.has(t)) byType.set(t, new Set());
      byType.get(t)!.add(n.style('background-color') as string);
    });
    const out: Record<string, number> = {};
    const all = new Set<string>();
    for (const [t, cs] of byType) { out[t || '(none)'] = cs.size; for (const c of cs) all.add(c); }
    return { ...out, distinct: all.size };
  });
}

/**
 * The focused neighbourhood as drawn (null when no focus is shown): its nodes' names, those whose label the renderer
 * draws, those not wholly inside the canvas (label included), and whether the smallest drawn label is at least 9 px
 * high on screen
 */
function focusedView(page: Page): Promise<{ nodes: string[]; labelled: string[]; outOfView: string[]; smallestLabelPx: number | 'readable' } | null> {
  return page.evaluate(() => {
    const c = window.__lorecraftCanvas!;
    if (!c.focused?.()) return null;
    const cy = c.cy;
    const r = (cy as unknown as { renderer(): { eleTextBiggerThanMin(n: unknown): boolean } }).renderer();
    type P = { pstyle(k: string): { strValue: string; value: unknown; pfValue: number } };
    const nodes: string[] = [];
    const labelled: string[] = [];
    const outOfView: string[] = [];
    let smallest = Infinity;
    const [w, h] = [cy.width(), cy.height()];
    cy.nodes('.note, .placeholder').forEach((n) => {
      const name = n.data('label') as string;
      nodes.push(name);
      const p = n as unknown as P;
      if (n.visible() && p.pstyle('label').strValue && (p.pstyle('text-opacity').value as number) > 0 && n.effectiveOpacity() > 0 && r.eleTextBiggerThanMin(n)) {
        labelled.push(name);
        smallest = Math.min(smallest, p.pstyle('font-size').pfValue * cy.zoom());
      }
      const b = n.renderedBoundingBox({ includeLabels: true } as never);
      if (b.x1 < 0 || b.y1 < 0 || b.x2 > w || b.y2 > h) outOfView.push(name);
    });
    return { nodes: nodes.sort(), labelled: labelled.sort(), outOfView: outOfView.sort(), smallestLabelPx: smallest >= 9 ? 'readable' : smallest };
  });
}
