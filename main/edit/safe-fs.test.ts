import { chmodSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../domain/errors.js';
import { atomicWrite, checkUnchanged, moveInVault, readVaultFile, resolveInVault, sha256 } from './safe-fs.js';

let root: string;
let vault: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lc-safefs-'));
  vault = join(root, 'vault');
  mkdirSync(join(vault, 'npcs'), { recursive: true });
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'outside', 'secret.md'), 'secret');
  writeFileSync(join(vault, 'npcs', 'Varo.md'), '---\ntitle: Varo\n---\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function code(p: Promise<unknown>): Promise<string> {
  try { await p; return 'ok'; } catch (e) { return e instanceof CoreError ? e.code : String(e); }
}

describe('resolveInVault', () => {
  it('accepts paths inside, new files and new folders included', async () => {
    expect(await resolveInVault(vault, 'npcs/Varo.md')).toMatch(/vault\/npcs\/Varo\.md$/);
    expect(await resolveInVault(vault, 'new/deep/Note.md')).toMatch(/vault\/new\/deep\/Note\.md$/);
  });
  it('refuses .., absolute paths and symlinks that lead out', async () => {
    expect(await code(resolveInVault(vault, '../outside/secret.md'))).toBe('forbidden');
    expect(await code(resolveInVault(vault, 'npcs/../../outside/secret.md'))).toBe('forbidden');
    expect(await code(resolveInVault(vault, join(root, 'outside', 'secret.md')))).toBe('forbidden');
    symlinkSync(join(root, 'outside'), join(vault, 'link'));
    expect(await code(resolveInVault(vault, 'link/secret.md'))).toBe('forbidden');
    expect(await code(resolveInVault(vault, 'link/new.md'))).toBe('forbidden');
    symlinkSync(join(root, 'outside', 'secret.md'), join(vault, 'file-link.md'));
    expect(await code(resolveInVault(vault, 'file-link.md'))).toBe('forbidden');
    expect(await code(atomicWrite(vault, 'link/x.md', 'x'))).toBe('forbidden');
    expect(readdirSync(join(root, 'outside'))).toEqual(['secret.md']);
  });
  it('allows a symlink that stays inside', async () => {
    symlinkSync(join(vault, 'npcs'), join(vault, 'people'));
    expect(await code(resolveInVault(vault, 'people/Varo.md'))).toBe('ok');
  });
});

describe('atomicWrite and conflicts', () => {
  it('writes through a temp file and leaves no temp behind', async () => {
    const h = await atomicWrite(vault, 'npcs/Varo.md', 'new');
    expect(readFileSync(join(vault, 'npcs', 'Varo.md'), 'utf8')).toBe('new');
    expect(h).toBe(sha256('new'));
    expect(readdirSync(join(vault, 'npcs'))).toEqual(['Varo.md']);
    await atomicWrite(vault, 'places/Millbrook.md', 'x');
    expect((await readVaultFile(vault, 'places/Millbrook.md'))?.text).toBe('x');
  });
  it('refuses with both versions when the file changed since it was read', async () => {
    const before = await readVaultFile(vault, 'npcs/Varo.md');
    writeFileSync(join(vault, 'npcs', 'Varo.md'), 'edited in Obsidian');
    try {
      await checkUnchanged(vault, 'npcs/Varo.md', before!.hash, 'mine');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CoreError);
      const ce = e as CoreError;
      expect(ce.code).toBe('conflict');
      expect(ce.details).toMatchObject({ path: 'npcs/Varo.md', expected: before!.hash, actual: sha256('edited in Obsidian'), mine: 'mine', theirs: 'edited in Obsidian' });
    }
    expect(await code(checkUnchanged(vault, 'npcs/Varo.md', sha256('edited in Obsidian')))).toBe('ok');
    expect(await code(checkUnchanged(vault, 'npcs/Nobody.md', null))).toBe('ok');
    expect(await code(checkUnchanged(vault, 'npcs/Varo.md', null))).toBe('conflict');
  });
  it('moves within the vault and refuses to overwrite', async () => {
    writeFileSync(join(vault, 'npcs', 'Other.md'), 'o');
    expect(await code(moveInVault(vault, 'npcs/Varo.md', 'npcs/Other.md'))).toBe('conflict');
    await moveInVault(vault, 'npcs/Varo.md', 'npcs/Captain Varo.md');
    expect(readdirSync(join(vault, 'npcs')).sort()).toEqual(['Captain Varo.md', 'Other.md']);
  });
});

describe('readVaultFile', () => {
  it('flags files that are not valid UTF-8 (rewriting them would damage bytes)', async () => {
    writeFileSync(join(vault, 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect((await readVaultFile(vault, 'latin1.md'))?.utf8).toBe(false);
    expect((await readVaultFile(vault, 'npcs/Varo.md'))?.utf8).toBe(true);
  });
});

describe('atomicWrite keeps the mode', () => {
  it.each(['600', '755', '640'])('a %s note keeps its mode after an edit', async (octal) => {
    const mode = parseInt(octal, 8);
    const f = join(vault, 'npcs', 'Varo.md');
    chmodSync(f, mode);
    await atomicWrite(vault, 'npcs/Varo.md', 'changed\n');
    expect(readFileSync(f, 'utf8')).toBe('changed\n');
    expect((statSync(f).mode & 0o7777).toString(8)).toBe(octal);
  });
});
