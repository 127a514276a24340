/**
 * "Connect Claude Desktop": the config path per OS; merging into an existing file
 * (other servers and keys kept, a backup first, a non-JSON file untouched); one
 * entry per vault (a second vault adds, the same vault updates); the entry's shape
 * per install (packaged per OS, AppImage, checkout); and the checkout entry
 * launched exactly as Claude Desktop launches it (absolute command, empty
 * environment, cwd /) answering initialize + tools/list over stdio.
 */
import { cpSync, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseEntryName, claudeDesktopConfigPath, connectClaudeDesktop, entryName, lorecraftMcpCommand, mcpSnippets, planClaudeDesktop } from './claude-desktop.js';
import { currentInstall, detectInstall } from './runtime.js';

let home: string;
beforeEach(async () => { home = await mkdtemp(join(tmpdir(), 'lorecraft-connect-')); });
afterEach(async () => { await rm(home, { recursive: true, force: true }); });

const checkout = detectInstall({ modulePath: '/opt/lc/main/install/runtime.ts', execPath: '/usr/bin/node', platform: 'linux', env: {}, exists: (p) => p === '/opt/lc/bin/lorecraft.mjs' });

describe('claudeDesktopConfigPath', () => {
  it('knows each OS', () => {
    expect(claudeDesktopConfigPath({ platform: 'darwin', home: '/Users/gm' })).toBe('/Users/gm/Library/Application Support/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ platform: 'win32', home: 'C:\\Users\\gm', env: { APPDATA: 'C:\\Users\\gm\\AppData\\Roaming' } }))
      .toBe('C:\\Users\\gm\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ platform: 'linux', home: '/home/gm', env: {} })).toBe('/home/gm/.config/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ platform: 'linux', home: '/home/gm', env: { XDG_CONFIG_HOME: '/xdg' } })).toBe('/xdg/Claude/claude_desktop_config.json');
  });
});

describe('the entry per install', () => {
  it('packaged: the app executable in Node mode with the unpacked CLI script inside the package, per OS', () => {
    const cases = [
      { platform: 'linux' as const, exec: '/opt/Lorecraft/lorecraft-desktop', mod: '/opt/Lorecraft/resources/app.asar/dist/main/electron/main.cjs',
        script: '/opt/Lorecraft/resources/app.asar.unpacked/dist/main/cli.mjs' },
      { platform: 'darwin' as const, exec: '/Applications/Lorecraft.app/Contents/MacOS/Lorecraft', mod: '/Applications/Lorecraft.app/Contents/Resources/app.asar/dist/main/electron/main.cjs',
        script: '/Applications/Lorecraft.app/Contents/Resources/app.asar.unpacked/dist/main/cli.mjs' },
      { platform: 'win32' as const, exec: 'C:\\Program Files\\Lorecraft\\Lorecraft.exe', mod: 'C:\\Program Files\\Lorecraft\\resources\\app.asar\\dist\\main\\electron\\main.cjs',
        script: 'C:\\Program Files\\Lorecraft\\resources\\app.asar.unpacked\\dist\\main\\cli.mjs' },
    ];
    for (const c of cases) {
      const install = detectInstall({ modulePath: c.mod, execPath: c.exec, platform: c.platform, env: {}, electron: '41.7.1' });
      expect(install.kind).toBe('packaged');
      const cmd = lorecraftMcpCommand('/w/Thellade', { install });
      expect(cmd).toEqual({ command: c.exec, args: [c.script, 'mcp', '--vault', '/w/Thellade'], env: { ELECTRON_RUN_AS_NODE: '1' } });
    }
    // the packaged CLI itself (run in Node mode from app.asar.unpacked) finds the same script
    const fromCli = detectInstall({ modulePath: '/opt/Lorecraft/resources/app.asar.unpacked/dist/main/cli.mjs', execPath: '/opt/Lorecraft/lorecraft-desktop', platform: 'linux', env: {} });
    expect(fromCli.script).toBe('/opt/Lorecraft/resources/app.asar.unpacked/dist/main/cli.mjs');
  });

  it('AppImage: the stable $APPIMAGE with --cli, not the temporary mount', () => {
    const install = detectInstall({ modulePath: '/tmp/.mount_LorecrXYZ/resources/app.asar/dist/main/electron/main.cjs', execPath: '/tmp/.mount_LorecrXYZ/lorecraft-desktop',
      platform: 'linux', env: { APPIMAGE: '/home/gm/Apps/Lorecraft.AppImage' } });
    expect(install.kind).toBe('appimage');
    const cmd = lorecraftMcpCommand('/w/T', { install, readWrite: true });
    expect(cmd).toEqual({ command: '/home/gm/Apps/Lorecraft.AppImage', args: ['--cli', 'mcp', '--vault', '/w/T', '--read-write'] });
    expect(JSON.stringify(cmd)).not.toContain('.mount_');
  });

  it('checkout: node + bin/lorecraft.mjs; Electron from a checkout runs itself in Node mode', () => {
    expect(lorecraftMcpCommand('/w/T', { install: checkout })).toEqual({ command: '/usr/bin/node', args: ['/opt/lc/bin/lorecraft.mjs', 'mcp', '--vault', '/w/T'] });
    const dev = detectInstall({ modulePath: '/opt/lc/dist/main/electron/main.cjs', execPath: '/opt/lc/node_modules/electron/dist/electron', platform: 'linux', env: {}, electron: '41.7.1', exists: (p) => p === '/opt/lc/bin/lorecraft.mjs' });
    expect(lorecraftMcpCommand('/w/T', { install: dev })).toEqual({ command: '/opt/lc/node_modules/electron/dist/electron', args: ['/opt/lc/bin/lorecraft.mjs', 'mcp', '--vault', '/w/T'], env: { ELECTRON_RUN_AS_NODE: '1' } });
    const here = currentInstall();
    expect(here.kind).toBe('checkout');
    expect(existsSync(here.script!)).toBe(true);
  });
});

describe('connectClaudeDesktop', () => {
  it('creates the file (and folder) when there is none, with no backup, named after the vault', async () => {
    const r = await connectClaudeDesktop({ vaultDir: '/home/gm/My World', install: checkout, platform: 'linux', home });
    expect(r.configPath).toBe(join(home, '.config', 'Claude', 'claude_desktop_config.json'));
    expect(r.backupPath).toBeNull();
    expect(r.action).toBe('added');
    expect(r.name).toBe('lorecraft-my-world');
    expect(JSON.parse(await readFile(r.configPath, 'utf8'))).toEqual({ mcpServers: { 'lorecraft-my-world': { command: '/usr/bin/node', args: ['/opt/lc/bin/lorecraft.mjs', 'mcp', '--vault', '/home/gm/My World'] } } });
  });

  it('merges into an existing config, keeps other servers and keys, backs it up; a second vault adds, the same vault updates', async () => {
    const configPath = join(home, 'claude_desktop_config.json');
    const original = { globalShortcut: 'Ctrl+Space', mcpServers: { filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } } };
    await writeFile(configPath, JSON.stringify(original, null, 2));
    const r = await connectClaudeDesktop({ vaultDir: '/w/Thellade', install: checkout, configPath });
    expect(r).toMatchObject({ action: 'added', kept: ['filesystem'], name: 'lorecraft-thellade' });
    expect(JSON.parse(await readFile(r.backupPath!, 'utf8'))).toEqual(original);
    const second = await connectClaudeDesktop({ vaultDir: '/w/Grimhold', install: checkout, configPath });
    expect(second).toMatchObject({ action: 'added', name: 'lorecraft-grimhold' });
    // another vault with the same folder name gets its own entry, never replacing the first
    const twin = await connectClaudeDesktop({ vaultDir: '/elsewhere/Thellade', install: checkout, configPath });
    expect(twin).toMatchObject({ action: 'added', name: 'lorecraft-thellade-2' });
    const again = await connectClaudeDesktop({ vaultDir: '/w/Thellade', readWrite: true, install: checkout, configPath });
    expect(again).toMatchObject({ action: 'updated', name: 'lorecraft-thellade' });
    const merged = JSON.parse(await readFile(configPath, 'utf8'));
    expect(merged.globalShortcut).toBe('Ctrl+Space');
    expect(Object.keys(merged.mcpServers).sort()).toEqual(['filesystem', 'lorecraft-grimhold', 'lorecraft-thellade', 'lorecraft-thellade-2']);
    expect(merged.mcpServers['lorecraft-thellade'].args).toContain('--read-write');
    expect(merged.mcpServers['lorecraft-thellade-2'].args).toContain('/elsewhere/Thellade');
    expect((await readdir(home)).filter((f) => f.endsWith('.bak')).length).toBe(4);
  });

  it('never writes a backup over an earlier one: connects within the same millisecond each keep theirs', async () => {
    const configPath = join(home, 'claude_desktop_config.json');
    const original = { mcpServers: { filesystem: { command: 'npx', args: [] } } };
    await writeFile(configPath, JSON.stringify(original));
    // the clock held still: every backup is named after the same instant
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-29T10:00:00.000Z') });
    try {
      const first = await connectClaudeDesktop({ vaultDir: '/w/Thellade', install: checkout, configPath });
      const afterFirst = await readFile(configPath, 'utf8');
      const second = await connectClaudeDesktop({ vaultDir: '/w/Grimhold', install: checkout, configPath });
      const third = await connectClaudeDesktop({ vaultDir: '/w/Tarn', install: checkout, configPath });
      expect(new Set([first.backupPath, second.backupPath, third.backupPath]).size).toBe(3);
      expect(first.backupPath).toMatch(/2026-11-29T10-00-00-000Z\.bak$/);
      expect(second.backupPath).toMatch(/2026-11-29T10-00-00-000Z-2\.bak$/);
      // the first backup still holds the config as it was before any connect
      expect(JSON.parse(await readFile(first.backupPath!, 'utf8'))).toEqual(original);
      expect(await readFile(second.backupPath!, 'utf8')).toBe(afterFirst);
      expect((await readdir(home)).filter((f) => f.endsWith('.bak')).length).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('planClaudeDesktop (--print) gives the name and entry and writes nothing', async () => {
    const configPath = join(home, 'none', 'c.json');
    const p = await planClaudeDesktop({ vaultDir: '/w/Thellade', install: checkout, configPath });
    expect(p.name).toBe('lorecraft-thellade');
    expect(p.entry.args[0]).toBe('/opt/lc/bin/lorecraft.mjs');
    expect(existsSync(join(home, 'none'))).toBe(false);
  });

  it('refuses to touch a file that is not JSON, or whose mcpServers is not an object', async () => {
    const configPath = join(home, 'c.json');
    await writeFile(configPath, '{ "mcpServers": { oops ');
    await expect(connectClaudeDesktop({ vaultDir: '/v', install: checkout, configPath })).rejects.toThrow(/not valid JSON.*left untouched/);
    expect(await readFile(configPath, 'utf8')).toBe('{ "mcpServers": { oops ');
    await writeFile(configPath, '{ "mcpServers": [] }');
    await expect(connectClaudeDesktop({ vaultDir: '/v', install: checkout, configPath })).rejects.toThrow(/mcpServers.*not an object/);
    expect((await readdir(home)).filter((f) => f.endsWith('.bak'))).toEqual([]);
  });

  it('writes atomically (no temp file left behind)', async () => {
    const dir = join(home, 'Claude');
    await mkdir(dir);
    await connectClaudeDesktop({ vaultDir: '/v', install: checkout, configPath: join(dir, 'claude_desktop_config.json') });
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('names and snippets', () => {
  it('names entries lorecraft-<vault folder>', () => {
    expect(entryName('/w/Les Terres Brûlées')).toBe('lorecraft-les-terres-brulees');
    expect(entryName('/w/???')).toBe('lorecraft-vault');
    expect(chooseEntryName({ 'lorecraft-t': { args: ['x', 'mcp', '--vault', '/a/t'] } }, '/a/t')).toBe('lorecraft-t');
  });

  it('gives a Claude Code command with quoted paths (and the env) and a Cursor mcp.json', () => {
    const cmd = { command: '/usr/bin/node', args: ['/opt/lorecraft/bin/lorecraft.mjs', 'mcp', '--vault', '/home/gm/My World'] };
    const s = mcpSnippets({ ...cmd, name: 'lorecraft-my-world' });
    expect(s.claudeCode).toBe("claude mcp add lorecraft-my-world -- /usr/bin/node /opt/lorecraft/bin/lorecraft.mjs mcp --vault '/home/gm/My World'");
    expect(JSON.parse(s.cursor)).toEqual({ mcpServers: { 'lorecraft-my-world': cmd } });
    const packaged = mcpSnippets({ command: '/opt/Lorecraft/lorecraft-desktop', args: ['/s/cli.mjs', 'mcp'], env: { ELECTRON_RUN_AS_NODE: '1' } });
    expect(packaged.claudeCode).toContain('--env ELECTRON_RUN_AS_NODE=1 lorecraft --');
    expect(JSON.parse(packaged.claudeDesktop).mcpServers.lorecraft.env).toEqual({ ELECTRON_RUN_AS_NODE: '1' });
  });
});

describe('the checkout entry, launched as Claude Desktop launches it', () => {
  it.skipIf(process.platform === 'win32')('absolute command, empty environment, cwd /: initialize + tools/list over stdio', async () => {
    const vault = join(home, 'Sample World');
    cpSync(join(import.meta.dirname, '..', '..', 'resources', 'sample-world'), vault, { recursive: true, filter: (src) => !src.includes('.lorecraft') });
    const configPath = join(home, 'claude_desktop_config.json');
    const r = await connectClaudeDesktop({ vaultDir: vault, configPath });
    const entry = JSON.parse(await readFile(configPath, 'utf8')).mcpServers[r.name];
    expect(isAbsolute(entry.command)).toBe(true);
    for (const a of entry.args.slice(0, 1)) expect(isAbsolute(a)).toBe(true);
    // an empty environment but the entry's own `env` (no PATH, no HOME): `env -i` clears what
    // the SDK's transport would otherwise pass on (it adds HOME, PATH, USER… to every server)
    const vars = Object.entries((entry.env ?? {}) as Record<string, string>).map(([k, v]) => `${k}=${v}`);
    const transport = new StdioClientTransport({ command: '/usr/bin/env', args: ['-i', ...vars, entry.command, ...entry.args], cwd: '/', stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
    const client = new Client({ name: 'claude-desktop-stand-in', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toMatch(/lorecraft/i);
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('get_entity');
    } catch (e) {
      throw new Error(`${(e as Error).message}\nserver stderr:\n${stderr}`, { cause: e });
    } finally {
      await client.close();
    }
  }, 180_000);
});
