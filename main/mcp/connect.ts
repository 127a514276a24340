/**
 * "Connect Claude Desktop": add the Lorecraft MCP server to Claude Desktop's
 * config file for the OS — merging (other servers and keys untouched), backing
 * the file up first, writing atomically — and the snippets for other clients
 * (Claude Code, Cursor). The renderer's button calls these through main.
 */
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, posix, win32 } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreError } from '../domain/errors.js';

export interface ServerCommand { command: string; args: string[] }

export function claudeDesktopConfigPath(opts: { platform?: NodeJS.Platform; home?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const platform = opts.platform ?? process.platform;
  const env = opts.env ?? process.env;
  const home = opts.home ?? homedir();
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32') return win32.join(env.APPDATA ?? win32.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return posix.join(env.XDG_CONFIG_HOME || posix.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

/** How to start this install's `lorecraft mcp` for a vault (node + bin/lorecraft.mjs, absolute paths). */
export function lorecraftMcpCommand(vaultDir: string, opts: { readWrite?: boolean; binPath?: string; nodePath?: string } = {}): ServerCommand {
  const bin = opts.binPath ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'lorecraft.mjs');
  return { command: opts.nodePath ?? process.execPath, args: [bin, 'mcp', '--vault', vaultDir, ...(opts.readWrite ? ['--read-write'] : [])] };
}

export interface ConnectResult {
  configPath: string;
  /** the copy made before writing; null when there was no file yet */
  backupPath: string | null;
  /** 'added' (new entry) or 'updated' (an entry with that name was replaced) */
  action: 'added' | 'updated';
  /** names of the other servers kept */
  kept: string[];
}

export async function connectClaudeDesktop(opts: ServerCommand & {
  platform?: NodeJS.Platform; configPath?: string; name?: string; env?: Record<string, string>; home?: string;
}): Promise<ConnectResult> {
  const configPath = opts.configPath ?? claudeDesktopConfigPath({ platform: opts.platform, home: opts.home });
  const name = opts.name ?? 'lorecraft';
  let existing: string | null = null;
  try {
    existing = await readFile(configPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  let config: Record<string, unknown> = {};
  if (existing !== null && existing.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(existing);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
      config = parsed as Record<string, unknown>;
    } catch (e) {
      throw new CoreError('bad-config', `${configPath} is not valid JSON (${(e as Error).message}); fix or move it, it was left untouched`);
    }
  }
  const servers = config.mcpServers ?? {};
  if (typeof servers !== 'object' || Array.isArray(servers) || servers === null) {
    throw new CoreError('bad-config', `${configPath}: "mcpServers" is not an object; it was left untouched`);
  }
  const map = servers as Record<string, unknown>;
  const action = name in map ? 'updated' : 'added';
  const kept = Object.keys(map).filter((k) => k !== name);
  const entry: Record<string, unknown> = { command: opts.command, args: opts.args };
  if (opts.env) entry.env = opts.env;
  const next = { ...config, mcpServers: { ...map, [name]: entry } };

  await mkdir(dirname(configPath), { recursive: true });
  let backupPath: string | null = null;
  if (existing !== null) {
    backupPath = `${configPath}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
    await copyFile(configPath, backupPath);
  }
  const tmp = `${configPath}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(next, null, 2) + '\n', 'utf8');
  await rename(tmp, configPath);
  return { configPath, backupPath, action, kept };
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface McpSnippets {
  /** a shell command for Claude Code */
  claudeCode: string;
  /** the content of .cursor/mcp.json (project) or ~/.cursor/mcp.json */
  cursor: string;
  /** the entry to put under mcpServers in claude_desktop_config.json, for manual setup */
  claudeDesktop: string;
}

export function mcpSnippets(opts: ServerCommand & { name?: string }): McpSnippets {
  const name = opts.name ?? 'lorecraft';
  const entry = { command: opts.command, args: opts.args };
  const json = JSON.stringify({ mcpServers: { [name]: entry } }, null, 2);
  return {
    claudeCode: `claude mcp add ${shellQuote(name)} -- ${[opts.command, ...opts.args].map(shellQuote).join(' ')}`,
    cursor: json,
    claudeDesktop: json,
  };
}
