/**
 * `lorecraft connect claude --vault DIR [--read-write] [--print] [--config FILE]`
 * What the app's "Connect Claude Desktop" button does, from the CLI: add this
 * install's MCP server for the vault to Claude Desktop's config file, as the
 * entry `lorecraft-<vault>` (another vault's entry is kept; the file is backed up
 * first). `--print`: the JSON entry only (`{ "lorecraft-<vault>": {...} }`),
 * nothing written. `--config FILE` (or LORECRAFT_CLAUDE_CONFIG): another config file.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliIo } from '../io.js';

const USAGE = 'usage: lorecraft connect claude --vault DIR [--read-write] [--print] [--config FILE]';

export async function run(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: { vault: { type: 'string' }, 'read-write': { type: 'boolean' }, print: { type: 'boolean' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    io.err(`lorecraft connect: ${(e as Error).message}`);
    io.err(USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) { io.out(USAGE); return 0; }
  if (positionals[0] !== 'claude' || positionals.length !== 1 || !values.vault) {
    if (positionals[0] !== 'claude') io.err(`lorecraft connect: the client to connect is 'claude' (Claude Desktop)${positionals[0] ? `, not '${positionals[0]}'` : ''}`);
    if (!values.vault) io.err('lorecraft connect: --vault DIR is required');
    io.err(USAGE);
    return 2;
  }
  const vaultDir = resolve(values.vault);
  if (!existsSync(vaultDir) || !statSync(vaultDir).isDirectory()) {
    io.err(`lorecraft connect: ${vaultDir} is not a folder`);
    return 2;
  }
  const { claudeDesktopConfigPath, connectClaudeDesktop, planClaudeDesktop } = await import('../../core/index.js');
  const configPath = values.config ?? (process.env.LORECRAFT_CLAUDE_CONFIG?.trim() || claudeDesktopConfigPath());
  const readWrite = Boolean(values['read-write']);
  try {
    if (values.print) {
      const plan = await planClaudeDesktop({ vaultDir, readWrite, configPath });
      io.out(JSON.stringify({ [plan.name]: plan.entry }, null, 2));
      return 0;
    }
    const r = await connectClaudeDesktop({ vaultDir, readWrite, configPath });
    io.out(`${r.action === 'added' ? 'added' : 'updated'} '${r.name}' in ${r.configPath}${r.backupPath ? ` (backup: ${r.backupPath})` : ''}`);
    if (r.kept.length) io.out(`kept: ${r.kept.join(', ')}`);
    io.out('restart Claude Desktop to load it');
    return 0;
  } catch (e) {
    io.err(`lorecraft connect: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
