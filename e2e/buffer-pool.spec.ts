/**
 * A graph database buffer pool too small for the vault (issue 15 point 6): the app says so in its status bar,
 * naming the setting, its value and the vault, instead of showing an empty graph without a word. The vault
 * (400 notes of 200 links each: 80k relationships) does not load in Kùzu's 128 MB pool, the least
 * LORECRAFT_KUZU_BUFFER_MB accepts (main/core/buffer-pool.test.ts checks that it loads with the default pool).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startShell, stopShell } from './fixtures.js';

test('a pool too small for the vault shows an error naming LORECRAFT_KUZU_BUFFER_MB and the vault', async ({ page }) => {
  test.setTimeout(180_000);
  const root = mkdtempSync(join(tmpdir(), 'lorecraft-e2e-pool-'));
  const vault = join(root, 'vault');
  mkdirSync(vault);
  const n = 400;
  for (let i = 0; i < n; i++) {
    let body = '';
    for (let k = 1; k <= 200; k++) body += `[[N${(i + k) % n}]] `;
    writeFileSync(join(vault, `N${i}.md`), `---\ntitle: N${i}\n---\n${body}\n`);
  }
  const { child, shell } = await startShell(vault, join(root, 'userdata'), { LORECRAFT_KUZU_BUFFER_MB: '128' });
  try {
    await page.goto(shell.url);
    const error = page.getByTestId('status-error');
    await expect(error).toContainText('LORECRAFT_KUZU_BUFFER_MB=128', { timeout: 120_000 });
    await expect(error).toContainText(vault);
    await expect(page.getByTestId('status-sync')).toContainText('error');
    // the model still answers: the notes are listed
    await expect(page.getByTestId('status-entities')).toContainText('400 entities');
  } finally {
    const code = await stopShell(child);
    rmSync(root, { recursive: true, force: true });
    expect(code, `web shell exit code; output:\n${shell.output()}`).toBe(0);
  }
});
