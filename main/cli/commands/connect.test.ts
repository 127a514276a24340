import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from './connect.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'lorecraft-cli-connect-')); await mkdir(join(dir, 'My Vault')); await mkdir(join(dir, 'Other')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

describe('lorecraft connect claude', () => {
  it('--print gives the JSON entry only and writes nothing', async () => {
    const c = io();
    const config = join(dir, 'claude', 'claude_desktop_config.json');
    expect(await run(['claude', '--vault', join(dir, 'My Vault'), '--read-write', '--print', '--config', config], c.io)).toBe(0);
    const printed = JSON.parse(c.out.join('\n'));
    expect(Object.keys(printed)).toEqual(['lorecraft-my-vault']);
    expect(printed['lorecraft-my-vault'].args.slice(1)).toEqual(['mcp', '--vault', join(dir, 'My Vault'), '--read-write']);
    expect(existsSync(join(dir, 'claude'))).toBe(false);
  });

  it('writes the entry; a second vault adds its own', async () => {
    const config = join(dir, 'claude_desktop_config.json');
    const a = io();
    expect(await run(['claude', '--vault', join(dir, 'My Vault'), '--config', config], a.io)).toBe(0);
    expect(a.out[0]).toMatch(/^added 'lorecraft-my-vault' in /);
    const b = io();
    expect(await run(['claude', '--vault', join(dir, 'Other'), '--config', config], b.io)).toBe(0);
    expect(b.out.join('\n')).toContain('kept: lorecraft-my-vault');
    expect(Object.keys(JSON.parse(await readFile(config, 'utf8')).mcpServers).sort()).toEqual(['lorecraft-my-vault', 'lorecraft-other']);
  });

  it('usage errors exit 2 with the usage', async () => {
    for (const argv of [[], ['cursor', '--vault', dir], ['claude'], ['claude', '--vault', dir, '--bogus'], ['claude', '--vault', join(dir, 'missing')]]) {
      const c = io();
      expect(await run(argv, c.io)).toBe(2);
      expect(c.err.join('\n')).toMatch(/usage: lorecraft connect|not a folder/);
    }
  });
});
