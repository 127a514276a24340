/**
 * Entity editor, end to end: real web shell on a temp copy of the sample
 * world, real Chromium; every write is checked in the file ON DISK.
 */
import { stat } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test, type App, type Vault } from './fixtures.js';

const ALDOUS = 'setting/npcs/Brother Aldous.md';
const MILLBROOK = 'setting/settlements/Millbrook.md';

async function openEditor(app: App, name: string) {
  await app.open(name);
  await app.panel.getByTestId('edit-entity').click();
  const ed = app.page.getByTestId('entity-editor');
  await expect(ed.getByTestId('editor-name')).toHaveValue(name);
  return ed;
}

/** Lines that differ between two versions of a file (same line count expected). */
function changedLines(before: string, after: string): Array<[string, string]> {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length).toBe(a.length);
  return a.flatMap((l, i) => (l === b[i] ? [] : [[l, b[i]!] as [string, string]]));
}

async function waitForFile(vault: Vault, rel: string, pred: (t: string) => boolean): Promise<string> {
  await expect.poll(async () => pred(await vault.read(rel)), { timeout: 15_000 }).toBe(true);
  return vault.read(rel);
}

/** Focus something that is not a text control, so Ctrl+Z is the app's undo. */
async function appUndo(page: Page) {
  await page.getByTestId('entity-editor').locator('header .meta').click();
  await page.keyboard.press('Control+z');
}

test('changing an enum in the form changes only that line; Ctrl+Z restores the file byte for byte', async ({ app, vault }) => {
  const before = await vault.read(ALDOUS);
  const ed = await openEditor(app, 'Brother Aldous');
  const status = ed.getByTestId('field-status');
  await expect(status).toHaveValue('alive');
  await status.selectOption('dead');
  const after = await waitForFile(vault, ALDOUS, (t) => t !== before);
  expect(changedLines(before, after)).toEqual([['status: alive', 'status: dead']]);
  // the panel follows the file
  await expect(app.property('status')).toHaveText('dead');

  await appUndo(app.page);
  await waitForFile(vault, ALDOUS, (t) => t === before);
  await expect(app.page.getByTestId('toast').filter({ hasText: 'Undid: set status on Brother Aldous' })).toBeVisible();
  await expect(status).toHaveValue('alive');
  // and redo (Ctrl+Y) puts the change back
  await app.page.keyboard.press('Control+y');
  expect(await waitForFile(vault, ALDOUS, (t) => t !== before)).toBe(after);
  // in the prose with nothing typed, Ctrl+Z falls through to the app's undo
  await ed.locator('.ProseMirror').click();
  await app.page.keyboard.press('Control+z');
  await waitForFile(vault, ALDOUS, (t) => t === before);
});

test('[[ in the prose completes an entity; the body has the link, the graph the edge; undo restores the file', async ({ app, vault }) => {
  const before = await vault.read(ALDOUS);
  const ed = await openEditor(app, 'Brother Aldous');
  const prose = ed.locator('.ProseMirror');
  await prose.click();
  await app.page.keyboard.press('Control+End');
  await app.page.keyboard.type(' He fears [[Oldm');
  const option = app.page.getByTestId('wikilink-option').filter({ hasText: 'Oldmere' });
  await expect(option.first()).toBeVisible();
  await option.first().click();
  await expect(prose.getByTestId('prose-link').filter({ hasText: 'Oldmere' })).toBeVisible();
  // leaving the prose saves it
  await ed.locator('header .meta').click();
  const after = await waitForFile(vault, ALDOUS, (t) => t !== before);
  expect(after).toBe(before.replace('stubborn, and the best healer on the [[Ashen Road]].',
    'stubborn, and the best healer on the [[Ashen Road]]. He fears [[Oldmere]] '));
  // the graph has the edge: the panel's body links (collapsed, LINKS_TO) list Oldmere
  await app.panel.getByTestId('entity-body-links').locator('summary').click();
  await expect(app.panel.locator('[data-testid="relation-group"][data-label="→ LINKS_TO"] [data-testid="relation-item"]', { hasText: 'Oldmere' })).toBeVisible();

  // app-level undo restores the bytes, and the open prose follows the file
  await appUndo(app.page);
  await waitForFile(vault, ALDOUS, (t) => t === before);
  await expect(prose.getByTestId('prose-link').filter({ hasText: 'Oldmere' })).toHaveCount(0);
  // a further edit is made on the restored text
  await prose.locator('p').first().click();
  await app.page.keyboard.press('Control+End');
  await app.page.keyboard.type(' Again.');
  await ed.locator('header .meta').click();
  expect(await waitForFile(vault, ALDOUS, (t) => t !== before)).toBe(before.replace('[[Ashen Road]].\n', '[[Ashen Road]]. Again.\n'));

  // links in the prose open the entity (panel and editor)
  await prose.getByTestId('prose-link').filter({ hasText: 'Harrowgate' }).click();
  await expect(app.page.getByTestId('entity-name')).toHaveText('Harrowgate');
  await expect(ed.getByTestId('editor-name')).toHaveValue('Harrowgate');
});

test('an invalid integer is refused inline and the file is unchanged', async ({ app, vault }) => {
  const before = await vault.read(MILLBROOK);
  const mtime = (await stat(vault.path(MILLBROOK))).mtimeMs;
  const ed = await openEditor(app, 'Millbrook');
  const pop = ed.getByTestId('field-population');
  await expect(pop).toHaveValue('340');
  for (const bad of ['abc', '3.5']) {
    await pop.fill(bad);
    await pop.press('Enter');
    await expect(ed.getByTestId('field-error-population')).toContainText('whole number');
  }
  await pop.blur();
  await expect(ed.getByTestId('field-error-population')).toBeVisible();
  // a valid value clears the error and is written (proves the refusals were not just slow)
  await pop.fill('360');
  await pop.press('Enter');
  await expect(ed.getByTestId('field-error-population')).toHaveCount(0);
  const after = await waitForFile(vault, MILLBROOK, (t) => t !== before);
  expect(changedLines(before, after)).toEqual([['population: 340', 'population: 360']]);
  expect(mtime).toBeLessThan((await stat(vault.path(MILLBROOK))).mtimeMs);
});

const RICH_BODY = [
  'Opening paragraph of the [[Order of the Lantern]]\'s keeper.', '',
  '> [!warning] Callout', '> kept *exactly*  ', '',
  '| a | b |', '|:--|--:|', '| 1 | 2 |', '',
  'Population: `INPUT[number:population]` and `=this.status`.', '',
  '<details><summary>HTML</summary>kept</details>', '',
  '%% a comment %%', '',
  '![[map.png|300]]', '',
  'Closing paragraph.',
].join('\r\n') + '\r\n';

test('open and close without a change leaves the file byte-identical; editing one paragraph keeps the rest', async ({ app, vault }) => {
  await vault.edit(ALDOUS, (t) => t.slice(0, t.indexOf('---', 4) + 4) + RICH_BODY);
  const before = await vault.read(ALDOUS);
  await expect.poll(async () => {
    await app.open('Brother Aldous');
    return app.panel.getByTestId('entity-prose').innerText();
  }, { timeout: 15_000 }).toContain('Closing paragraph.');
  const mtime = (await stat(vault.path(ALDOUS))).mtimeMs;

  // open, click around in the prose, close: nothing is written
  let ed = await openEditor(app, 'Brother Aldous');
  await expect(ed.getByTestId('prose-opaque')).toHaveCount(5);
  await ed.locator('.ProseMirror p').first().click();
  await app.page.keyboard.press('End');
  await ed.locator('header .meta').click();
  await ed.getByTestId('editor-close').click();
  await expect(app.page.getByTestId('entity-editor')).toHaveCount(0);
  expect(await vault.read(ALDOUS)).toBe(before);
  expect((await stat(vault.path(ALDOUS))).mtimeMs).toBe(mtime);

  // edit the last paragraph: every other byte stays
  ed = await openEditor(app, 'Brother Aldous');
  await ed.locator('.ProseMirror p').filter({ hasText: 'Closing paragraph.' }).click();
  await app.page.keyboard.press('End');
  await app.page.keyboard.type(' Edited.');
  await ed.getByTestId('editor-close').click();
  const after = await waitForFile(vault, ALDOUS, (t) => t !== before);
  expect(after).toBe(before.replace('Closing paragraph.\r\n', 'Closing paragraph. Edited.\r\n'));

  // an opaque block (the table) edited as its source: written verbatim in the note's line endings
  ed = await openEditor(app, 'Brother Aldous');
  await ed.getByTestId('prose-opaque').filter({ has: app.page.locator('table') }).dblclick();
  const raw = ed.getByTestId('prose-opaque-edit');
  await expect(raw).toHaveValue('| a | b |\n|:--|--:|\n| 1 | 2 |');
  await raw.fill('| a | b |\n|:--|--:|\n| 1 | 3 |');
  await raw.blur();
  await ed.getByTestId('editor-close').click();
  expect(await waitForFile(vault, ALDOUS, (t) => t !== after)).toBe(after.replace('| 1 | 2 |\r\n', '| 1 | 3 |\r\n'));
});

test('relationship fields: pick from autocomplete, unlink, create a new entity, leave a placeholder; tags', async ({ app, vault }) => {
  const ed = await openEditor(app, 'Brother Aldous');
  const faction = ed.getByTestId('field-faction');
  await expect(faction.getByTestId('chip')).toHaveText(['Order of the Lantern×']);
  await ed.getByTestId('field-faction-add').fill('Iron');
  await ed.getByTestId('ref-option').filter({ hasText: 'Iron Guild' }).click();
  await waitForFile(vault, ALDOUS, (t) => t.includes('faction: ["[[Order of the Lantern]]", "[[Iron Guild]]"]'));
  await expect(faction.getByTestId('chip')).toHaveCount(2);

  await faction.getByTestId('chip').filter({ hasText: 'Order of the Lantern' }).getByTestId('chip-remove').click();
  await waitForFile(vault, ALDOUS, (t) => t.includes('faction: ["[[Iron Guild]]"]'));

  // a name with no note: create it (type picker), then it is linked
  await ed.getByTestId('field-faction-add').fill('Ashen Circle');
  await ed.getByTestId('field-faction-add').press('Enter');
  // each field has its own offer: scope to the field typed in (the file can be written before the
  // create call answers, so the faction offer may still be open when the next one appears)
  const factionField = ed.locator('[data-testid="editor-field"][data-field="faction"]');
  await expect(factionField.getByTestId('ref-offer')).toContainText('No note named “Ashen Circle”');
  await expect(factionField.getByTestId('ref-offer-type')).toHaveValue('faction');
  await factionField.getByTestId('ref-offer-create').click();
  await waitForFile(vault, ALDOUS, (t) => t.includes('faction: ["[[Iron Guild]]", "[[Ashen Circle]]"]'));
  await expect(factionField.getByTestId('ref-offer')).toHaveCount(0);
  expect(await vault.read('setting/factions/Ashen Circle.md')).toMatch(/^---\n/);

  // or leave a placeholder: the name is written, no note is created
  await ed.getByTestId('field-knows-add').fill('Nobody Yet');
  await ed.getByTestId('field-knows-add').press('Enter');
  await ed.locator('[data-testid="editor-field"][data-field="knows"]').getByTestId('ref-offer-placeholder').click();
  const text = await waitForFile(vault, ALDOUS, (t) => /knows:[\s\S]*\[\[Nobody Yet\]\]/.test(t));
  expect(text).not.toContain('Nobody Yet.md');
  await expect(ed.getByTestId('field-knows').getByTestId('chip')).toHaveText(['Nobody Yet×']);
  // the placeholder opens in the panel, which offers to write its note
  await ed.getByTestId('field-knows').getByText('Nobody Yet').click();
  await expect(app.page.getByTestId('entity-name')).toHaveText('Nobody Yet');
  await app.panel.getByTestId('create-note-type').selectOption('npc');
  await app.panel.getByTestId('create-note-submit').click();
  await expect(ed.getByTestId('editor-name')).toHaveValue('Nobody Yet');
  expect(await vault.read('setting/npcs/Nobody Yet.md')).toMatch(/^---\n/);
  await openEditor(app, 'Brother Aldous');

  // tags as chips
  await ed.getByTestId('field-tags-add').fill('#monk');
  await ed.getByTestId('field-tags-add').press('Enter');
  await waitForFile(vault, ALDOUS, (t) => t.includes('tags: [priest, healer, monk]'));
});

test('undo is refused, in a toast, when the file changed on disk since', async ({ app, vault }) => {
  const ed = await openEditor(app, 'Brother Aldous');
  await ed.getByTestId('field-visibility').selectOption('gm');
  await waitForFile(vault, ALDOUS, (t) => t.includes('visibility: gm'));
  await vault.edit(ALDOUS, (t) => t + '\nA line typed in Obsidian.\n');
  await expect(app.panel.getByTestId('entity-prose')).toContainText('A line typed in Obsidian.');
  await appUndo(app.page);
  await expect(app.page.getByTestId('toast').filter({ hasText: /refused/ })).toBeVisible();
  const text = await vault.read(ALDOUS);
  expect(text).toContain('visibility: gm');
  expect(text).toContain('A line typed in Obsidian.');
});

test('an event form: required field marked and refused when emptied, a date input writes one line', async ({ app, vault }) => {
  const EV = 'campaign/sessions/01 Ambush on the Ashen Road.md';
  const before = await vault.read(EV);
  const ed = await openEditor(app, 'Ambush on the Ashen Road');
  const session = ed.locator('[data-testid="editor-field"][data-field="session"]');
  await expect(session.locator('label .required')).toHaveText('*');
  await ed.getByTestId('field-session').fill('');
  await ed.getByTestId('field-session').press('Enter');
  await expect(ed.getByTestId('field-error-session')).toContainText('required');
  expect(await vault.read(EV)).toBe(before);

  const date = ed.getByTestId('field-date_in_world');
  await expect(date).toHaveAttribute('type', 'date');
  await expect(date).toHaveValue('1203-03-02');
  await date.fill('1203-03-05');
  await date.press('Enter');
  const after = await waitForFile(vault, EV, (t) => t !== before);
  expect(changedLines(before, after)).toEqual([['date_in_world: 1203-03-02', 'date_in_world: 1203-03-05']]);
});

test('renaming in the editor renames the file and its references; the drawer follows', async ({ app, vault }) => {
  const ed = await openEditor(app, 'Millbrook');
  const name = ed.getByTestId('editor-name');
  await name.fill('Millbrook Vale');
  await name.press('Enter');
  await expect(ed.getByTestId('editor-name')).toHaveValue('Millbrook Vale');
  await expect(app.page.getByTestId('entity-name')).toHaveText('Millbrook Vale');
  await expect.poll(() => vault.read('setting/settlements/Millbrook Vale.md').catch(() => '')).toMatch(/^---\n/);
  expect(vault.notes()).not.toContain('setting/settlements/Millbrook.md');
  expect(await vault.read('setting/npcs/Tobin Reed.md')).toContain('[[Millbrook Vale]]');
  // a name the file system cannot take is refused inline
  await name.fill('Bad/Name');
  await name.press('Enter');
  await expect(ed.getByTestId('field-error-name')).toContainText('/');
});
