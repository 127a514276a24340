/**
 * "Connect Claude Desktop": the entry that starts this install's MCP server for a
 * vault (main/install/runtime.ts: packaged app, AppImage or checkout), named per
 * vault (`lorecraft-<vault>`), merged into Claude Desktop's config file for the OS
 * — other servers and keys untouched, a second vault added beside the first, the
 * file backed up first and written atomically — and the snippets for other
 * clients (Claude Code, Cursor). The renderer's button (through the core) and
 * `lorecraft connect claude` call these same functions.
 */
import { constants as fsConstants } from 'node:fs';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, posix, resolve, win32 } from 'node:path';
import { CoreError } from '../domain/errors.js';
import { currentInstall, type Install, type LaunchCommand } from './runtime.js';

/** A launch command; `env` when the launcher must set variables (packaged app). */
export type ServerCommand = LaunchCommand;

export function claudeDesktopConfigPath(opts: { platform?: NodeJS.Platform; home?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const platform = opts.platform ?? process.platform;
  const env = opts.env ?? process.env;
  const home = opts.home ?? homedir();
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (platform === 'win32') return win32.join(env.APPDATA ?? win32.join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return posix.join(env.XDG_CONFIG_HOME || posix.join(home, '.config'), 'Claude', 'claude_desktop_config.json');
}

/** How to start this install's `lorecraft mcp` for a vault (absolute paths). */
export function lorecraftMcpCommand(vaultDir: string, opts: { readWrite?: boolean; install?: Install } = {}): ServerCommand {
  const install = opts.install ?? currentInstall();
  return install.cli(['mcp', '--vault', resolve(vaultDir), ...(opts.readWrite ? ['--read-write'] : [])]);
}

/** `lorecraft-<vault folder>`: lower case, runs of other characters as one `-`. */
export function entryName(vaultDir: string): string {
  const slug = basename(resolve(vaultDir)).toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48);
  return `lorecraft-${slug || 'vault'}`;
}

/** The vault an existing entry serves (the argument after --vault), if any. */
function vaultOf(entry: unknown): string | null {
  const args = (entry as { args?: unknown })?.args;
  if (!Array.isArray(args)) return null;
  const i = args.indexOf('--vault');
  return i >= 0 && typeof args[i + 1] === 'string' ? (args[i + 1] as string) : null;
}

/**
 * The name for a vault's entry among the existing ones: the entry already serving
 * this vault keeps its name (updated); else `lorecraft-<vault>`, or `-2`, `-3`… when
 * another vault with the same folder name holds it (never replaced).
 */
export function chooseEntryName(servers: Record<string, unknown>, vaultDir: string): string {
  const vault = resolve(vaultDir);
  const base = entryName(vault);
  const same = Object.keys(servers).find((k) => (k === base || k.startsWith(`${base}-`)) && vaultOf(servers[k]) === vault);
  if (same) return same;
  let name = base;
  for (let n = 2; name in servers; n++) name = `${base}-${n}`;
  return name;
}

export interface ConnectResult {
  configPath: string;
  /** the copy made before writing; null when there was no file yet */
  backupPath: string | null;
  /** 'added' (new entry) or 'updated' (the entry for this vault was rewritten) */
  action: 'added' | 'updated';
  /** names of the other servers kept */
  kept: string[];
  /** the entry's name under mcpServers */
  name: string;
  entry: ClaudeDesktopEntry;
}

export interface ClaudeDesktopEntry { command: string; args: string[]; env?: Record<string, string> }

/** The entry as Claude Desktop's config holds it. */
export function claudeDesktopEntry(cmd: ServerCommand): ClaudeDesktopEntry {
  return { command: cmd.command, args: cmd.args, ...(cmd.env ? { env: cmd.env } : {}) };
}

async function readConfig(configPath: string): Promise<{ existing: string | null; config: Record<string, unknown>; servers: Record<string, unknown> }> {
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
  return { existing, config, servers: servers as Record<string, unknown> };
}

/** The name and entry connecting would write, nothing written (`--print`). */
export async function planClaudeDesktop(opts: { vaultDir: string; readWrite?: boolean; configPath?: string; install?: Install }): Promise<{ name: string; entry: ClaudeDesktopEntry; configPath: string }> {
  const configPath = opts.configPath ?? claudeDesktopConfigPath();
  const { servers } = await readConfig(configPath);
  return { name: chooseEntryName(servers, opts.vaultDir), entry: claudeDesktopEntry(lorecraftMcpCommand(opts.vaultDir, opts)), configPath };
}

/** Adds (or updates) this vault's entry in Claude Desktop's config. */
export async function connectClaudeDesktop(opts: { vaultDir: string; readWrite?: boolean; install?: Install; configPath?: string; platform?: NodeJS.Platform; home?: string }): Promise<ConnectResult> {
  const configPath = opts.configPath ?? claudeDesktopConfigPath({ platform: opts.platform, home: opts.home });
  const { existing, config, servers } = await readConfig(configPath);
  const name = chooseEntryName(servers, opts.vaultDir);
  const action = name in servers ? 'updated' : 'added';
  const kept = Object.keys(servers).filter((k) => k !== name);
  const entry = claudeDesktopEntry(lorecraftMcpCommand(opts.vaultDir, opts));
  const next = { ...config, mcpServers: { ...servers, [name]: entry } };

  await mkdir(dirname(configPath), { recursive: true });
  let backupPath: string | null = null;
  if (existing !== null) backupPath = await backUp(configPath);
  const tmp = `${configPath}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(next, null, 2) + '\n', 'utf8');
  await rename(tmp, configPath);
  return { configPath, backupPath, action, kept, name, entry };
}

/**
 * A copy of `file` beside it, named after the time (`<file>.<ISO time>.bak`); never over an earlier backup: two
 * connects within the same millisecond (a script, a fast machine) get `….bak`, then `…-2.bak`, `…-3.bak`.
 */
async function backUp(file: string): Promise<string> {
  const stamp = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}`;
  for (let i = 1; ; i++) {
    const path = i === 1 ? `${stamp}.bak` : `${stamp}-${i}.bak`;
    try {
      await copyFile(file, path, fsConstants.COPYFILE_EXCL);
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
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
  const json = JSON.stringify({ mcpServers: { [name]: claudeDesktopEntry(opts) } }, null, 2);
  const envFlags = Object.entries(opts.env ?? {}).map(([k, v]) => `--env ${shellQuote(`${k}=${v}`)} `).join('');
  return {
    claudeCode: `claude mcp add ${envFlags}${shellQuote(name)} -- ${[opts.command, ...opts.args].map(shellQuote).join(' ')}`,
    cursor: json,
    claudeDesktop: json,
  };
}
