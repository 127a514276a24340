/**
 * Obsidian markdown in the entity panel, end to end: the web shell on a temp
 * copy of e2e/vaults/obsidian-markdown (real core, real files), real Chromium.
 * Callouts, an image embed served from the vault, a note embed, a highlight, a
 * hidden comment, a footnote, an HTML infobox with an onerror trap, a script,
 * a dataview block — and no script of the note ever runs.
 */
import { mkdtempSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test as base, ROOT, Vault } from './fixtures.js';

const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  vault: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'lorecraft-e2e-md-'));
    await cp(join(ROOT, 'e2e', 'vaults', 'obsidian-markdown'), join(dir, 'vault'), { recursive: true, filter: (s) => !s.includes('.lorecraft') });
    await use(new Vault(join(dir, 'vault')));
    await rm(dir, { recursive: true, force: true });
  },
});

test('a note renders as Obsidian shows it, and nothing in it runs', async ({ app, vault }) => {
  const { page } = app;
  const dialogs: string[] = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
  await app.open('Harbour Town');
  const prose = page.getByTestId('entity-prose');

  // callouts: type, title and icon; a `-` callout is folded until clicked
  const warning = prose.locator('.callout[data-callout="warning"]');
  await expect(warning.locator('.callout-title-inner')).toHaveText('Mind the tides');
  await expect(warning.locator('.callout-title-icon svg')).toHaveCount(1);
  await expect(warning.locator('.callout-content strong')).toHaveText('spring tide');
  const folded = prose.locator('details.callout[data-callout="tip"]');
  await expect(folded.getByText('Behind the fish market.')).toBeHidden();
  await folded.locator('summary').click();
  await expect(folded.getByText('Behind the fish market.')).toBeVisible();
  await expect(prose).not.toContainText('[!');

  // the image embed is served from the vault, at the asked width
  const img = prose.locator('img[data-asset="harbour map.png"]');
  await expect(img).toHaveAttribute('width', '250');
  await expect(img).toHaveAttribute('src', '/vault-file/harbour%20map.png');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(40);

  // highlight, hidden comments, footnote
  await expect(prose.locator('mark')).toHaveText('old lighthouse');
  await expect(prose).not.toContainText('GM only');
  await expect(prose).not.toContainText('never see');
  await expect(prose.locator('sup.footnote-ref a')).toHaveCount(1);
  await expect(prose.locator('section.footnotes')).toContainText('Told by the harbourmaster.');

  // the note embed shows only the History section, and its own embed back is a cycle, not shown again
  const embed = prose.locator('.embed[data-embed="Lighthouse"]');
  await expect(embed).toHaveAttribute('data-embed-state', 'ready');
  await expect(embed.locator(':scope > .embed-body')).toContainText('Built by the first settlers');
  await expect(embed.locator(':scope > .embed-body')).not.toContainText('Old Maren');
  await expect(embed.locator('.embed[data-embed="Harbour Town"]')).toHaveAttribute('data-embed-state', 'cycle');

  // HTML: the infobox renders, the trap attributes and the script are gone, dataview is code
  await expect(prose.locator('table.infobox th')).toHaveText('Founded');
  await expect(prose.locator('table.infobox img')).toHaveCount(1);
  expect(await prose.evaluate((el) => el.innerHTML)).not.toMatch(/onerror|<script|javascript:/i);
  await prose.getByText('a trap link').click();
  await expect(prose.locator('pre code.language-dataview')).toContainText('TABLE population FROM #CotF');
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);

  // tags: `tags: CotF, RD` is two tags in the panel and two chips in the editor
  await expect(page.getByTestId('entity-tags')).toHaveText('#CotF #RD');
  await app.panel.getByTestId('edit-entity').click();
  const editor = page.getByTestId('entity-editor');
  const chips = editor.getByTestId('field-tags').getByTestId('chip');
  await expect(chips).toHaveCount(2);
  await expect(chips.nth(0)).toHaveAttribute('data-value', 'CotF');
  await expect(chips.nth(1)).toHaveAttribute('data-value', 'RD');
  // the editor's read-only blocks render the same way; a comment block shows its source there (to be edited)
  const blocks = editor.getByTestId('prose-opaque');
  await expect(blocks.locator('.callout[data-callout="warning"] .callout-title-inner')).toHaveText('Mind the tides');
  await expect(blocks.locator('img[data-asset="harbour map.png"]')).toHaveAttribute('src', '/vault-file/harbour%20map.png');
  await expect(blocks.locator('table.infobox th')).toHaveText('Founded');
  await expect(blocks.filter({ hasText: 'A whole block the players never see.' })).toHaveCount(1);
  expect(await editor.evaluate((el) => el.innerHTML)).not.toMatch(/onerror|<script/i);
  await page.getByTestId('editor-close').click();

  // the embedded note edited on disk: the embed follows
  await vault.edit('Lighthouse.md', (t) => t.replace('Built by the first settlers', 'Raised by the first settlers'));
  await expect(embed.locator(':scope > .embed-body')).toContainText('Raised by the first settlers', { timeout: 10_000 });

  // a click in the embed opens the embedded note
  await embed.locator(':scope > .embed-body > p').first().click();
  await expect(page.getByTestId('entity-name')).toHaveText('Lighthouse');
});

test('the vault-file route needs the token and stays inside the vault', async ({ app, shell }) => {
  const { page } = app;
  const inPage = (path: string) => page.evaluate(async (p) => (await fetch(p)).status, path);
  expect(await inPage('/vault-file/harbour%20map.png')).toBe(200);
  expect(await inPage('/vault-file/art%2Fharbour%20map.png')).toBe(200);
  expect(await inPage(`/vault-file/${encodeURIComponent('../../etc/passwd.png')}`)).toBe(403);
  expect(await inPage('/vault-file/Lighthouse.md')).toBe(403);
  expect(await inPage('/vault-file/nowhere.png')).toBe(404);
  // without the page's cookie or the token: refused
  const bare = await page.request.get(`${shell.origin}/vault-file/harbour%20map.png`, { headers: { cookie: '' } });
  expect(bare.status()).toBe(403);
});
