/**
 * The mcp-* group end to end below the wire: real core (Kùzu) on a temp copy of
 * the sample world, calls through `dispatch` (zod in and out), and a real
 * Claude Desktop config file on disk (named by LORECRAFT_CLAUDE_CONFIG).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { CoreSession } from '../../core/index.js';
import { sampleSession } from './test-session.js';
import { claudeConfigTarget } from './mcp.js';

const h = sampleSession('lorecraft-mcp-h-');
const { call, refusal } = h;
const BIN = resolve(import.meta.dirname, '../../../bin/lorecraft.mjs');
let dir: string;
let config: string;
let session: CoreSession;
const savedEnv = process.env.LORECRAFT_CLAUDE_CONFIG;

const OTHER = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] };

beforeAll(() => {
  ({ dir, session } = h);
  config = join(dir, 'Claude', 'claude_desktop_config.json');
});

afterEach(() => {
  if (savedEnv === undefined) delete process.env.LORECRAFT_CLAUDE_CONFIG;
  else process.env.LORECRAFT_CLAUDE_CONFIG = savedEnv;
});

describe('mcp-* handlers', () => {
  it('mcp-snippets gives the command for the open vault, the config path and the client snippets', async () => {
    process.env.LORECRAFT_CLAUDE_CONFIG = config;
    const s = await call('mcp-snippets', {});
    expect(s.command).toBe(process.execPath);
    expect(s.args).toEqual([BIN, 'mcp', '--vault', session.current().vaultDir]);
    expect(s.claudeDesktopConfigPath).toBe(config);
    const name = `lorecraft-${basename(session.current().vaultDir).toLowerCase()}`;
    expect(s.snippets.claudeCode).toContain(`claude mcp add ${name} -- `);
    expect(s.snippets.claudeCode).toContain(session.current().vaultDir);
    expect(JSON.parse(s.snippets.cursor)).toEqual({ mcpServers: { [name]: { command: s.command, args: s.args } } });
    const rw = await call('mcp-snippets', { readWrite: true });
    expect(rw.args.at(-1)).toBe('--read-write');
    expect(rw.snippets.claudeCode.endsWith(' --read-write')).toBe(true);
  });

  it('mcp-connect merges into the config named by LORECRAFT_CLAUDE_CONFIG: other server kept, lorecraft-<vault> added, backup saved', async () => {
    process.env.LORECRAFT_CLAUDE_CONFIG = config;
    await mkdir(join(dir, 'Claude'), { recursive: true });
    const original = { globalShortcut: 'Ctrl+Space', mcpServers: { filesystem: OTHER } };
    await writeFile(config, JSON.stringify(original, null, 2));

    const r = await call('mcp-connect', { readWrite: true });
    expect(r.configPath).toBe(config);
    expect(r.action).toBe('added');
    expect(r.name).toBe(`lorecraft-${basename(session.current().vaultDir).toLowerCase()}`);
    expect(r.kept).toEqual(['filesystem']);
    expect(r.backupPath).not.toBeNull();
    expect(JSON.parse(await readFile(r.backupPath!, 'utf8'))).toEqual(original);

    const merged = JSON.parse(await readFile(config, 'utf8'));
    expect(merged.globalShortcut).toBe('Ctrl+Space');
    expect(merged.mcpServers.filesystem).toEqual(OTHER);
    expect(merged.mcpServers[r.name!]).toEqual({
      command: process.execPath, args: [BIN, 'mcp', '--vault', session.current().vaultDir, '--read-write'],
    });
    expect((await readdir(join(dir, 'Claude'))).filter((f) => f.endsWith('.bak'))).toHaveLength(1);
  });

  it('mcp-connect refuses a config that is not JSON (code bad-config, file untouched) and bad requests', async () => {
    const broken = join(dir, 'broken.json');
    process.env.LORECRAFT_CLAUDE_CONFIG = broken;
    await writeFile(broken, '{ "mcpServers": { oops');
    const r = await refusal('mcp-connect', {});
    expect(r.code).toBe('bad-config');
    expect(r.message).toContain(broken);
    expect(await readFile(broken, 'utf8')).toBe('{ "mcpServers": { oops');
    expect((await refusal('mcp-connect', { readWrite: 'yes' })).code).toBe('bad-request');
  });

  it('claudeConfigTarget falls back to the OS default without the variable', () => {
    expect(claudeConfigTarget({ LORECRAFT_CLAUDE_CONFIG: '/x/c.json' })).toBe('/x/c.json');
    expect(claudeConfigTarget({ XDG_CONFIG_HOME: '/xdg' }).endsWith(join('Claude', 'claude_desktop_config.json'))).toBe(true);
  });
});
