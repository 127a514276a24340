/**
 * "Connect Claude Desktop": the config path per OS, merging into an existing
 * file (other servers and keys kept), a backup first, refusing to touch a file
 * that is not JSON; and the snippets for Claude Code and Cursor.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeDesktopConfigPath, connectClaudeDesktop, lorecraftMcpCommand, mcpSnippets } from './connect.js';

let home: string;
beforeEach(async () => { home = await mkdtemp(join(tmpdir(), 'lorecraft-connect-')); });
afterEach(async () => { await rm(home, { recursive: true, force: true }); });

const CMD = { command: '/usr/bin/node', args: ['/opt/lorecraft/bin/lorecraft.mjs', 'mcp', '--vault', '/home/gm/My World'] };

describe('claudeDesktopConfigPath', () => {
  it('knows each OS', () => {
    expect(claudeDesktopConfigPath({ platform: 'darwin', home: '/Users/gm' })).toBe('/Users/gm/Library/Application Support/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ platform: 'win32', home: 'C:\\Users\\gm', env: { APPDATA: 'C:\\Users\\gm\\AppData\\Roaming' } }))
      .toBe('C:\\Users\\gm\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ platform: 'linux', home: '/home/gm', env: {} })).toBe('/home/gm/.config/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ platform: 'linux', home: '/home/gm', env: { XDG_CONFIG_HOME: '/xdg' } })).toBe('/xdg/Claude/claude_desktop_config.json');
  });
});

describe('connectClaudeDesktop', () => {
  it('creates the file (and folder) when there is none, with no backup', async () => {
    const r = await connectClaudeDesktop({ ...CMD, platform: 'linux', home });
    expect(r.configPath).toBe(join(home, '.config', 'Claude', 'claude_desktop_config.json'));
    expect(r.backupPath).toBeNull();
    expect(r.action).toBe('added');
    expect(JSON.parse(await readFile(r.configPath, 'utf8'))).toEqual({ mcpServers: { lorecraft: { command: CMD.command, args: CMD.args } } });
  });

  it('merges into an existing config, keeps other servers and keys, and backs it up first', async () => {
    const configPath = join(home, 'claude_desktop_config.json');
    const original = { globalShortcut: 'Ctrl+Space', mcpServers: { filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } } };
    await writeFile(configPath, JSON.stringify(original, null, 2));
    const r = await connectClaudeDesktop({ ...CMD, configPath });
    expect(r.action).toBe('added');
    expect(r.kept).toEqual(['filesystem']);
    expect(JSON.parse(await readFile(r.backupPath!, 'utf8'))).toEqual(original);
    const merged = JSON.parse(await readFile(configPath, 'utf8'));
    expect(merged.globalShortcut).toBe('Ctrl+Space');
    expect(merged.mcpServers.filesystem).toEqual(original.mcpServers.filesystem);
    expect(merged.mcpServers.lorecraft).toEqual({ command: CMD.command, args: CMD.args });
    // running it again updates our entry only
    const again = await connectClaudeDesktop({ ...CMD, args: [...CMD.args, '--read-write'], configPath });
    expect(again.action).toBe('updated');
    const twice = JSON.parse(await readFile(configPath, 'utf8'));
    expect(Object.keys(twice.mcpServers).sort()).toEqual(['filesystem', 'lorecraft']);
    expect(twice.mcpServers.lorecraft.args).toContain('--read-write');
    expect((await readdir(home)).filter((f) => f.endsWith('.bak')).length).toBe(2);
  });

  it('refuses to touch a file that is not JSON, or whose mcpServers is not an object', async () => {
    const configPath = join(home, 'c.json');
    await writeFile(configPath, '{ "mcpServers": { oops ');
    await expect(connectClaudeDesktop({ ...CMD, configPath })).rejects.toThrow(/not valid JSON.*left untouched/);
    expect(await readFile(configPath, 'utf8')).toBe('{ "mcpServers": { oops ');
    await writeFile(configPath, '{ "mcpServers": [] }');
    await expect(connectClaudeDesktop({ ...CMD, configPath })).rejects.toThrow(/mcpServers.*not an object/);
    expect((await readdir(home)).filter((f) => f.endsWith('.bak'))).toEqual([]);
  });

  it('writes atomically (no temp file left behind)', async () => {
    const dir = join(home, 'Claude');
    await mkdir(dir);
    await connectClaudeDesktop({ ...CMD, configPath: join(dir, 'claude_desktop_config.json') });
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('mcpSnippets and lorecraftMcpCommand', () => {
  it('gives a Claude Code command with quoted paths and a Cursor mcp.json', () => {
    const s = mcpSnippets(CMD);
    expect(s.claudeCode).toBe("claude mcp add lorecraft -- /usr/bin/node /opt/lorecraft/bin/lorecraft.mjs mcp --vault '/home/gm/My World'");
    expect(JSON.parse(s.cursor)).toEqual({ mcpServers: { lorecraft: { command: CMD.command, args: CMD.args } } });
    expect(JSON.parse(s.claudeDesktop).mcpServers.lorecraft.args).toEqual(CMD.args);
  });

  it('points at this install\'s CLI', () => {
    const c = lorecraftMcpCommand('/v', { readWrite: true });
    expect(c.command).toBe(process.execPath);
    expect(existsSync(c.args[0]!)).toBe(true);
    expect(c.args.slice(1)).toEqual(['mcp', '--vault', '/v', '--read-write']);
  });
});
