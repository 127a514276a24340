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
