/**
 * "Connect Claude Desktop" in the real app: the web shell writes the Claude
 * Desktop config named by LORECRAFT_CLAUDE_CONFIG (a temp file beside the
 * test's vault, already holding another server); the file ON DISK must then
 * hold both servers, with a backup of the original beside it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { test as shellTest, expect } from './fixtures.js';

const OTHER = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] };

const test = shellTest.extend<{ claudeConfig: string }>({
  claudeConfig: async ({ vault }, use) => {
    const file = join(vault.dir, '..', 'claude-home', 'Claude', 'claude_desktop_config.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ mcpServers: { memory: OTHER }, globalShortcut: 'Alt+Space' }, null, 2));
    await use(file);
  },
  shellEnv: async ({ claudeConfig }, use) => { await use({ LORECRAFT_CLAUDE_CONFIG: claudeConfig }); },
});

test('Connect Claude Desktop adds lorecraft-<vault> to the config file, keeps the other server, backs it up, shows snippets', async ({ app, vault, claudeConfig }) => {
  const page = app.page;
  // the entry is named after the vault's folder (main/install/claude-desktop.ts entryName)
  const name = `lorecraft-${basename(vault.dir).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}`;
  await page.getByTestId('connect-claude').click();
  const dialog = page.getByTestId('mcp-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('mcp-config-path')).toHaveText(claudeConfig);

  // snippets for the other clients, for this vault
  const code = page.getByTestId('mcp-snippet-claude-code');
  await expect(code).toContainText(`claude mcp add ${name} -- `);
  await expect(code).toContainText(vault.dir);
  await expect(code).not.toContainText('--read-write');
  await expect(page.getByTestId('mcp-snippet-cursor')).toContainText('"mcpServers"');

  // read-write changes the command everywhere
  await page.getByTestId('mcp-readwrite').check();
  await expect(code).toContainText('--read-write');

  await page.getByTestId('mcp-add').click();
  const result = page.getByTestId('mcp-result');
  await expect(result).toBeVisible();
  await expect(result).toHaveAttribute('data-action', 'added');
  await expect(page.getByTestId('mcp-result-config')).toContainText(claudeConfig);
  await expect(page.getByTestId('mcp-result-kept')).toContainText('memory');
  await expect(page.getByTestId('mcp-result-backup')).toContainText('.bak');

  const onDisk = JSON.parse(await readFile(claudeConfig, 'utf8'));
  expect(Object.keys(onDisk.mcpServers).sort()).toEqual([name, 'memory']);
  expect(onDisk.mcpServers.memory).toEqual(OTHER);
  expect(onDisk.globalShortcut).toBe('Alt+Space');
  expect(onDisk.mcpServers[name].args).toEqual(expect.arrayContaining(['mcp', '--vault', vault.dir, '--read-write']));
  const backups = (await readdir(dirname(claudeConfig))).filter((f) => f.endsWith('.bak'));
  expect(backups).toHaveLength(1);
  expect(JSON.parse(await readFile(join(dirname(claudeConfig), backups[0]!), 'utf8')).mcpServers).toEqual({ memory: OTHER });

  await page.getByTestId('mcp-close').click();
  await expect(dialog).toBeHidden();
});

test('a config file that is not JSON is reported in the dialog and left untouched', async ({ app, claudeConfig }) => {
  writeFileSync(claudeConfig, '{ "mcpServers": { broken');
  await app.page.getByTestId('connect-claude').click();
  await app.page.getByTestId('mcp-add').click();
  await expect(app.page.getByTestId('mcp-error')).toContainText('not valid JSON');
  await expect(app.page.getByTestId('mcp-error')).toContainText(claudeConfig);
  expect(await readFile(claudeConfig, 'utf8')).toBe('{ "mcpServers": { broken');
  await expect(app.page.getByTestId('mcp-result')).toHaveCount(0);
});
