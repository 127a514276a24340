import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appRoot, bundledSampleWorld, ensureSampleWorld, rendererDir, userDataDir } from './paths.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

describe('paths', () => {
  it('finds the app root, the renderer build folder and the bundled sample world', () => {
    const root = appRoot();
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name).toBe('lorecraft');
    expect(rendererDir()).toBe(join(root, 'dist', 'renderer'));
    expect(existsSync(join(bundledSampleWorld(), 'lorecraft.yaml'))).toBe(true);
  });

  it('follows each OS convention for the user data folder', () => {
    expect(userDataDir({ HOME: '/h' }, 'linux')).toBe('/h/.local/share/lorecraft');
    expect(userDataDir({ HOME: '/h', XDG_DATA_HOME: '/x' }, 'linux')).toBe('/x/lorecraft');
    expect(userDataDir({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Application Support/lorecraft');
    expect(userDataDir({ HOME: '/h', APPDATA: 'C:/AppData' }, 'win32')).toBe(join('C:/AppData', 'lorecraft'));
    expect(userDataDir({ LORECRAFT_DATA_DIR: '/d', HOME: '/h' }, 'linux')).toBe('/d');
  });

  it('copies the sample world once, without a database, and then reuses the copy with its edits', async () => {
    const data = mkdtempSync(join(tmpdir(), 'lorecraft-data-'));
    const src = mkdtempSync(join(tmpdir(), 'lorecraft-src-'));
    dirs.push(data, src);
    writeFileSync(join(src, 'lorecraft.yaml'), 'project: t\n');
    mkdirSync(join(src, '.lorecraft'));
    writeFileSync(join(src, '.lorecraft', 'graph.kuzu'), 'db');
    writeFileSync(join(src, 'A.md'), 'a');

    const first = await ensureSampleWorld(data, src);
    expect(first).toEqual({ dir: join(data, 'sample-world'), copied: true });
    expect(readFileSync(join(first.dir, 'A.md'), 'utf8')).toBe('a');
    expect(existsSync(join(first.dir, '.lorecraft'))).toBe(false);

    writeFileSync(join(first.dir, 'A.md'), 'edited by the GM');
    const again = await ensureSampleWorld(data, src);
    expect(again.copied).toBe(false);
    expect(readFileSync(join(again.dir, 'A.md'), 'utf8')).toBe('edited by the GM');
  });

  it('says clearly when the bundled sample world is missing', async () => {
    const data = mkdtempSync(join(tmpdir(), 'lorecraft-data-'));
    dirs.push(data);
    await expect(ensureSampleWorld(data, join(data, 'nope'))).rejects.toThrow(/sample world is missing/);
  });
});
