/**
 * The players' site export of the sample world at session 3, opened from the
 * file system in Chromium (no server): links followed, search used, and no
 * GM-only note anywhere (Captain Varo is `visibility: gm` in the sample world).
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, SAMPLE } from './fixtures.js';

function allText(dir: string): string {
  let out = '';
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    out += statSync(p).isDirectory() ? allText(p) : readFileSync(p, 'utf8');
  }
  return out;
}

test('a players site at session 3 opens from disk: links, search, no GM secret', async ({ page }) => {
  const tmp = mkdtempSync(join(tmpdir(), 'lorecraft-site-'));
  try {
    await cp(SAMPLE, join(tmp, 'vault'), { recursive: true });
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'lorecraft.mjs'), 'export', '--vault', join(tmp, 'vault'), '--format', 'site',
      '--audience', 'players', '--layer', 'campaign', '--session', '3', '--out', join(tmp, 'site')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(allText(join(tmp, 'site'))).not.toMatch(/Captain Varo|the Red Captain/);

    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(pathToFileURL(join(tmp, 'site', 'index.html')).href);
    await expect(page.locator('h1.title')).toHaveText('westlands');
    await expect(page.locator('header .who')).toHaveText('for the players · as of session 3');

    // follow links: the index to a faction, the faction to one of its members
    await page.locator('main a', { hasText: /^Red Hand$/ }).first().click();
    await expect(page.locator('h1.title')).toHaveText('Red Hand');
    await expect(page.locator('figure.graph svg')).toBeVisible();
    const member = page.locator('.rels a').first();
    const name = (await member.textContent())!;
    await member.click();
    await expect(page.locator('h1.title')).toHaveText(name);

    // search: a player-visible NPC by an alias-free name, and nothing for the GM-only captain
    await page.locator('#q').fill('kira');
    await expect(page.locator('#results a').first()).toHaveText('Kira Ashwood');
    await page.screenshot({ path: 'docs/screenshots/players-site.png' });
    await page.locator('#results a').first().click();
    await expect(page.locator('h1.title')).toHaveText('Kira Ashwood');
    await page.locator('#q').fill('varo');
    await expect(page.locator('#results li')).toHaveText('Nothing found');
    expect(errors).toEqual([]);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
});
