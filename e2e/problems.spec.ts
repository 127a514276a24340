/**
 * The Problems panel: live as files change, grouped by file, and clicking a
 * problem opens its entity with the field highlighted.
 */
import { test, expect } from './fixtures.js';

const TOBIN = 'setting/npcs/Tobin Reed.md';

test('a broken note shows up in the Problems panel live; clicking opens the entity at the field; fixing it clears it', async ({ app, vault }) => {
  const { page } = app;
  await expect(page.getByTestId('problems-count-error')).toHaveText(/0$/);

  await vault.edit(TOBIN, (t) => t.replace('status: alive', 'status: aliv').replace('location: "[[Millbrook]]"', 'location: "[[Millbrok]]"'));
  await expect(page.getByTestId('problems-count-error')).toHaveText(/1$/, { timeout: 10_000 });
  await expect(page.getByTestId('problems-count-warning')).toHaveText(/1$/);

  await page.getByTestId('problems-toggle').click();
  const file = page.locator(`[data-testid="problem-file"][data-file="${TOBIN}"]`);
  await expect(file).toBeVisible();
  const enumRow = file.getByTestId('problem-item').and(page.locator('[data-code="enum-value"]'));
  await expect(enumRow).toHaveAttribute('data-line', '5');
  await expect(enumRow).toContainText('aliv');
  await expect(enumRow).toContainText('fix:');

  await enumRow.click();
  await expect(page.getByTestId('entity-name')).toHaveText('Tobin Reed');
  const row = page.locator('[data-testid="entity-property"][data-key="status"]');
  await expect(row).toHaveCSS('outline-style', 'solid');
  await expect(page.locator('[data-testid="entity-property"][data-key="role"]')).not.toHaveCSS('outline-style', 'solid');

  // the dangling link is on a relationship field: its relation item is highlighted
  const dangling = file.getByTestId('problem-item').and(page.locator('[data-code="dangling-link"]'));
  await dangling.click();
  await expect(page.getByTestId('relation-item').filter({ hasText: 'Millbrok' })).toHaveCSS('outline-style', 'solid');

  await vault.edit(TOBIN, (t) => t.replace('status: aliv', 'status: alive').replace('[[Millbrok]]', '[[Millbrook]]'));
  await expect(page.getByTestId('problems-count-error')).toHaveText(/0$/, { timeout: 10_000 });
  await expect(page.locator(`[data-testid="problem-file"][data-file="${TOBIN}"]`)).toHaveCount(0);
});

test('info problems are hidden until switched on, and every shown problem is grouped under its file', async ({ app, vault }) => {
  const { page } = app;
  await vault.edit(TOBIN, (t) => t.replace('role: innkeeper', 'role: innkeeper\nmood: cheerful'));
  await expect(page.getByTestId('problems-count-info')).toHaveText(/1$/, { timeout: 10_000 });
  await page.getByTestId('problems-toggle').click();
  await expect(page.getByTestId('problem-item')).toHaveCount(0);
  await page.getByTestId('problems-count-info').click();
  const item = page.getByTestId('problem-item');
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-code', 'unknown-property');
  await expect(item).toHaveAttribute('data-field', 'mood');
  await expect(page.locator(`[data-testid="problem-file"][data-file="${TOBIN}"]`)).toBeVisible();
});
