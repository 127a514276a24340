/**
 * The GM's workbench (issue 20), from the user's clicks: search finds the entity
 * by its alias; delete from the panel, the list's context menu or the Delete key
 * asks first, moves the file to the trash, and Ctrl+Z brings it back byte for byte.
 */
import { existsSync } from 'node:fs';
import { expect, test } from './fixtures.js';

const TOBIN = 'setting/npcs/Tobin Reed.md';

test('an alias search lists the entity first, says which alias matched, and opens it', async ({ app }) => {
  await app.search('Varo');
  const first = app.page.getByTestId('search-hit').first();
  await expect(first.locator('.hit-name')).toHaveText('Captain Varo');
  await expect(first).toHaveAttribute('data-matched', 'alias');
  await expect(first.getByTestId('hit-snippet')).toHaveText('aka Varo');
  await first.click();
  await expect(app.page.getByTestId('entity-name')).toHaveText('Captain Varo');
  // the NPC above the event named after him
  await app.search('Captain Varo');
  await expect(app.page.getByTestId('search-hit').first().locator('.hit-name')).toHaveText('Captain Varo');
  // no raw [[…]] in any snippet
  await app.search('Millbrook');
  await expect(app.page.getByTestId('search-hit').first().locator('.hit-name')).toHaveText('Millbrook');
  await expect(app.page.getByTestId('search-results')).not.toContainText('[[');
});

test('delete from the panel lists the referrers, moves the file to the trash, and Ctrl+Z restores it byte for byte', async ({ app, vault }) => {
  const before = await vault.read(TOBIN);
  await app.open('Tobin Reed');
  await app.panel.getByTestId('entity-delete').click();
  const dlg = app.page.getByTestId('delete-dialog');
  await expect(dlg).toContainText('Delete Tobin Reed?');
  await expect(dlg.getByTestId('delete-referrers')).toContainText('New Millbrook');
  await dlg.getByTestId('delete-confirm').click();
  await expect.poll(() => existsSync(vault.path(TOBIN)), { timeout: 15_000 }).toBe(false);
  await expect(app.sidebarItem('Tobin Reed')).toHaveCount(0);
  // the trash lists it
  await app.page.getByTestId('trash-open').click();
  await expect(app.page.getByTestId('trash-item').filter({ hasText: TOBIN })).toHaveCount(1);
  await app.page.getByTestId('trash-dialog').getByRole('button', { name: 'Close' }).click();
  // one undo brings it back, byte for byte
  await app.page.getByTestId('project-name').click();
  await app.page.keyboard.press('Control+z');
  await expect.poll(() => existsSync(vault.path(TOBIN)), { timeout: 15_000 }).toBe(true);
  expect(await vault.read(TOBIN)).toBe(before);
  await expect(app.sidebarItem('Tobin Reed')).toHaveCount(1);
});

test('the list context menu deletes too, and the trash restores the file', async ({ app, vault }) => {
  const before = await vault.read(TOBIN);
  await app.sidebarItem('Tobin Reed').first().click({ button: 'right' });
  await app.page.getByTestId('entity-menu-delete').click();
  await app.page.getByTestId('delete-confirm').click();
  await expect.poll(() => existsSync(vault.path(TOBIN)), { timeout: 15_000 }).toBe(false);
  await app.page.getByTestId('trash-open').click();
  await app.page.getByTestId('trash-item').filter({ hasText: TOBIN }).getByTestId('trash-restore').click();
  await expect.poll(() => existsSync(vault.path(TOBIN)), { timeout: 15_000 }).toBe(true);
  expect(await vault.read(TOBIN)).toBe(before);
  await expect(app.page.getByTestId('trash-item').filter({ hasText: TOBIN })).toHaveCount(0);
});

test('the Delete key on the selected node asks first; Cancel keeps the file', async ({ app, vault }) => {
  await app.open('Tobin Reed');
  await app.page.getByTestId('project-name').click();
  await app.page.keyboard.press('Delete');
  const dlg = app.page.getByTestId('delete-dialog');
  await expect(dlg).toContainText('Delete Tobin Reed?');
  await dlg.getByRole('button', { name: 'Cancel' }).click();
  await expect(dlg).toHaveCount(0);
  expect(existsSync(vault.path(TOBIN))).toBe(true);
});

test('an event created in the UI with a "killed" consequence: the NPC is dead at that session and alive before', async ({ app, page, vault }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const bar = page.getByTestId('timeline-bar');
  const tick = (n: number) => bar.locator(`[data-testid="timeline-tick"][data-session="${n}"]`);
  await tick(3).click();
  await page.getByTestId('timeline-new-event').click();
  const form = page.getByTestId('timeline-event-form');
  await expect(form.getByTestId('timeline-event-layer')).toHaveValue('campaign');
  await form.getByTestId('timeline-event-title').fill('The Fall of Brother Aldous');
  // completion from the name index: typing a prefix offers the entity
  await form.getByTestId('timeline-event-participants').fill('Brother Al');
  await expect(form.locator('datalist option[value="Brother Aldous"]').first()).toBeAttached();
  await form.getByTestId('timeline-event-participants').fill('Brother Aldous');
  await form.getByTestId('timeline-event-participants').press('Enter');
  await expect(form.getByTestId('timeline-event-participant')).toHaveText(['Brother Aldous×']);
  await form.getByTestId('timeline-event-location').fill('Millbrook');
  await form.getByTestId('consequence-add').click();
  await form.getByTestId('consequence-entity').fill('Brother Aldous');
  await expect(form.getByTestId('consequence-kind')).toHaveValue('killed');
  await form.screenshot({ path: 'docs/screenshots/new-event-form.png' });
  await form.getByTestId('timeline-event-create').click();

  const rel = 'campaign/sessions/The Fall of Brother Aldous.md';
  await expect.poll(() => vault.read(rel).catch(() => ''), { timeout: 15_000 }).toMatch(/^location: .*Millbrook/m);
  const text = await vault.read(rel);
  expect(text).toMatch(/^session: 3$/m);
  expect(text).toMatch(/entity: Brother Aldous/);
  expect(text).toMatch(/property: status/);
  expect(text).toMatch(/value: dead/);
  // the panel reads the consequence as a sentence with a link
  await expect(app.panel.getByTestId('entity-name')).toHaveText('The Fall of Brother Aldous');
  await expect(app.panel.getByTestId('consequence')).toHaveText(['Brother Aldous is killed (status: dead)']);
  await app.panel.screenshot({ path: 'docs/screenshots/consequences-panel.png' });
  await app.panel.getByTestId('consequence').getByRole('link', { name: 'Brother Aldous' }).click();
  await expect(app.panel.getByTestId('entity-name')).toHaveText('Brother Aldous');
  const state = page.getByTestId('timeline-state');
  await expect(state).toHaveAttribute('data-session', '3');
  await expect(state).toHaveAttribute('data-status', 'dead');
  await tick(2).click();
  await expect(state).toHaveAttribute('data-session', '2');
  await expect(state).toHaveAttribute('data-status', 'alive');
});

test('the consequences in the panel are editable: a destroyed row added is written to the note', async ({ app, page, vault }) => {
  await app.search('The Death of Captain Varo');
  await page.getByTestId('search-hit').first().click();
  await expect(app.panel.getByTestId('consequence').first()).toContainText('Captain Varo');
  const before = await app.panel.getByTestId('consequence').count();
  await app.panel.getByTestId('consequences-edit').click();
  await app.panel.getByTestId('consequence-add').click();
  await app.panel.getByTestId('consequence-entity').last().fill('Millbrook');
  await app.panel.getByTestId('consequence-kind').last().selectOption('destroyed');
  await app.panel.getByTestId('consequences-save').click();
  await expect(app.panel.getByTestId('consequence')).toHaveCount(before + 1);
  await expect(app.panel.getByTestId('consequence').last()).toHaveText('Millbrook is destroyed');
  const path = (await app.panel.getByTestId('entity-path').textContent())!;
  expect(await vault.read(path)).toMatch(/entity: Millbrook[\s\S]*destroyed: true|destroyed: true[\s\S]*entity: Millbrook/);
});

test('at 20 sessions no two axis labels overlap; "as written" is distinct; the layer and session survive a reload', async ({ app, page, vault }) => {
  // the sample campaign has 8 sessions: add events up to session 20, as a GM's later play would
  const { writeFile } = await import('node:fs/promises');
  for (let n = 9; n <= 20; n++) {
    await writeFile(vault.path(`campaign/sessions/Later ${n}.md`),
      `---\ntitle: Later ${n}\ntype: event\nsession: ${n}\ndate_in_world: 1203-09-${String(n).padStart(2, '0')}\n---\nSession ${n}.\n`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  const bar = page.getByTestId('timeline-bar');
  await expect(bar.locator('[data-testid="timeline-tick"][data-session="20"]')).toHaveCount(1, { timeout: 15_000 });
  await expect(bar).toHaveAttribute('data-mode', 'as-written');
  await expect(page.getByTestId('timeline-current')).toContainText('As written');
  const labels = async () => page.evaluate(() => [...document.querySelectorAll('[data-testid="timeline-tick"] b, [data-testid="timeline-tick"] small')]
    .filter((e) => getComputedStyle(e).visibility !== 'hidden')
    .map((e) => { const r = e.getBoundingClientRect(); return { text: e.textContent ?? '', l: r.left, r: r.right, t: r.top, b: r.bottom }; }));
  const overlaps = (ls: Awaited<ReturnType<typeof labels>>) => ls.flatMap((a, i) => ls.slice(i + 1)
    .filter((b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b).map((b) => `${a.text} / ${b.text}`));
  const shown = await labels();
  expect(shown.length).toBeGreaterThan(10);
  expect(overlaps(shown)).toEqual([]);
  await bar.screenshot({ path: 'docs/screenshots/timeline-20-sessions.png' });
  // narrower: still none overlap (more are thinned)
  await page.setViewportSize({ width: 900, height: 800 });
  await expect.poll(async () => overlaps(await labels())).toEqual([]);

  // choose a session, reload: the same layer and session
  await page.setViewportSize({ width: 1280, height: 800 });
  await bar.locator('[data-testid="timeline-tick"][data-session="4"]').click();
  await expect(bar).toHaveAttribute('data-mode', 'session');
  await expect(bar).toHaveAttribute('data-session', '4');
  await page.reload();
  await expect(page.getByTestId('timeline-bar')).toHaveAttribute('data-session', '4', { timeout: 15_000 });
  await expect(page.getByTestId('timeline-layer')).toHaveValue('campaign');
  void app;
});

/** Hover a node, press the connect handle, drag onto another node, release (as e2e/canvas.spec.ts does). */
async function dragEdge(page: import('@playwright/test').Page, fromName: string, toName: string): Promise<void> {
  await expect.poll(() => page.evaluate(() => window.__lorecraftCanvas?.metrics.layoutDoneAt !== undefined), { timeout: 30_000 }).toBe(true);
  const box = (await page.getByTestId('canvas').boundingBox())!;
  const at = async (pick: string, byLabel: boolean) => {
    const p = await page.evaluate(([n, label]) => {
      const cy = window.__lorecraftCanvas!.cy;
      const node = label ? cy.nodes().filter((x) => x.data('label') === n)[0] : cy.getElementById(n);
      if (!node || node.empty()) throw new Error(`no node ${n}`);
      return node.renderedPosition();
    }, [pick, byLabel] as const);
    return { x: box.x + p.x, y: box.y + p.y };
  };
  const a = await at(fromName, true);
  await page.mouse.move(a.x - 30, a.y - 30);
  await page.mouse.move(a.x, a.y, { steps: 4 });
  await expect.poll(() => page.evaluate(() => window.__lorecraftCanvas!.controller.handleVisible)).toBe(true);
  const h = await at('__eh_handle__', false);
  await page.mouse.move(h.x, h.y, { steps: 3 });
  await page.mouse.down();
  const b = await at(toName, true);
  await page.mouse.move((h.x + b.x) / 2, (h.y + b.y) / 2, { steps: 8 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByTestId('connect-menu')).toBeVisible();
}

test('a setting -> campaign drop is refused with its reason; a single-valued field asks before replacing, and the toast says what was written', async ({ app, page, vault }) => {
  const before = await vault.read(TOBIN);
  await dragEdge(page, 'Tobin Reed', 'New Millbrook');
  const menu = page.getByTestId('connect-menu');
  const located = menu.locator('[data-testid="connect-option"][data-relationship="LOCATED_IN"]');
  await expect(located).toBeDisabled();
  await expect(located.getByTestId('connect-refused')).toContainText('Tobin Reed is in the setting layer, which cannot see New Millbrook (campaign layer)');
  await menu.getByRole('button', { name: 'Cancel' }).click();
  expect(await vault.read(TOBIN)).toBe(before);

  // setting -> setting: allowed; his location holds Millbrook, so it asks first
  await dragEdge(page, 'Tobin Reed', 'Oldmere');
  await menu.locator('[data-testid="connect-option"][data-relationship="LOCATED_IN"]').click();
  await expect(menu.getByTestId('connect-replace')).toContainText('now [[Millbrook]]. Replace it?');
  await menu.getByTestId('connect-replace').getByRole('button', { name: 'Cancel' }).click();
  await expect(menu.getByTestId('connect-replace')).toHaveCount(0);
  expect(await vault.read(TOBIN)).toBe(before);
  await menu.locator('[data-testid="connect-option"][data-relationship="LOCATED_IN"]').click();
  await menu.getByTestId('connect-replace-confirm').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'wrote location: "[[Oldmere]]" in setting/npcs/Tobin Reed.md' })).toHaveCount(1);
  await expect.poll(() => vault.read(TOBIN)).toMatch(/^location: "\[\[Oldmere\]\]"$/m);
  void app;
});

test('small things: broken YAML shows its error with the line; an outside delete names the note; the layer badge is whole', async ({ app, page, vault }) => {
  const { writeFile, rm } = await import('node:fs/promises');
  await writeFile(vault.path('setting/lore/Broken Note.md'), '---\ntype: lore\ntags: [a, b\n---\nText.\n');
  await expect(page.getByTestId('status-problems')).toHaveText(/^[1-9]\d* problems?$/, { timeout: 15_000 });
  await app.open('Broken Note');
  const err = app.panel.getByTestId('entity-yaml-error');
  await expect(err).toContainText('could not be read');
  await expect(err.locator('.yaml-line')).toContainText(/line \d+/);

  await app.open("Marrow's Chart");
  await rm(vault.path("setting/items/Marrow's Chart.md"));
  await expect(app.panel.getByTestId('entity-gone')).toHaveText("“Marrow's Chart” is gone: its note was deleted or renamed outside Lorecraft.", { timeout: 15_000 });
  await expect(app.panel).not.toContainText("setting/marrow's chart");

  // the campaign badge of a list item is drawn whole, inside its row
  const item = page.getByTestId('entity-item').filter({ has: page.locator('.layer') }).first();
  await item.scrollIntoViewIfNeeded();
  const [row, badge] = [(await item.boundingBox())!, (await item.locator('.layer').boundingBox())!];
  expect(badge.x + badge.width).toBeLessThanOrEqual(row.x + row.width);
  expect(await item.locator('.layer').evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
});

test('wide window: the editor opens beside the canvas, not over it; the Problems panel is resizable', async ({ app, page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await app.open('Tobin Reed');
  await app.panel.getByTestId('edit-entity').click();
  const drawer = page.getByTestId('entity-editor');
  await expect(drawer).toBeVisible();
  await expect.poll(async () => {
    const [c, d] = [(await page.getByTestId('canvas').boundingBox())!, (await drawer.boundingBox())!];
    return c.x + c.width <= d.x + 1;
  }).toBe(true);
  const panel = (await app.panel.boundingBox())!;
  const d = (await drawer.boundingBox())!;
  expect(d.x + d.width).toBeLessThanOrEqual(panel.x + 1);

  await page.getByTestId('problems-toggle').click();
  const problems = page.getByTestId('problems-panel');
  const h0 = (await problems.boundingBox())!.height;
  const handle = (await page.getByTestId('problems-resize').boundingBox())!;
  await page.mouse.move(handle.x + 200, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 200, handle.y - 120, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => (await problems.boundingBox())!.height).toBeGreaterThan(h0 + 100);
});
