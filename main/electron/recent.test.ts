import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecentVaults } from './recent.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'lorecraft-recent-'));
  dirs.push(d);
  return d;
}
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

describe('RecentVaults', () => {
  it('keeps the most recent first, without duplicates, up to the limit, across instances', () => {
    const root = tmp();
    const vaults = ['a', 'b', 'c', 'd'].map((n) => { const d = join(root, n); mkdirSync(d); return d; });
    const file = join(root, 'user', 'recent-vaults.json');
    const recent = new RecentVaults(file, 3);
    for (const v of vaults) recent.add(v);
    recent.add(vaults[1]!);
    expect(new RecentVaults(file, 3).list()).toEqual([vaults[1], vaults[3], vaults[2]]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1 });
  });

  it('leaves out folders that were deleted and survives a corrupt file', () => {
    const root = tmp();
    const keep = join(root, 'keep');
    mkdirSync(keep);
    const file = join(root, 'recent.json');
    const recent = new RecentVaults(file);
    recent.add(join(root, 'gone'));
    recent.add(keep);
    expect(recent.list()).toEqual([keep]);
    writeFileSync(file, '{ not json');
    expect(recent.list()).toEqual([]);
    recent.add(keep);
    expect(recent.list()).toEqual([keep]);
    recent.clear();
    expect(recent.list()).toEqual([]);
  });
});
