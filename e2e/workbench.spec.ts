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
