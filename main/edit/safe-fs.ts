/**
 * Safe file I/O for the write-back: every path is resolved inside the vault
 * (realpath; `..`, absolute paths and symlinks that lead out are refused),
 * writes are atomic (temp file in the same folder, fsync, rename) and
 * conflict-checked against the hash the model last read.
 *
 * The calls are synchronous on purpose: they are few and small (one note), and
 * the async versions queue behind the file watcher's directory rescans in
 * libuv's 4-thread pool (thousands of lstat calls per event in a big folder),
 * which made a one-file edit wait tens of milliseconds and a 100-file rename
 * seconds. A sync call costs the event loop well under a millisecond per file
 * plus the fsync.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { CoreError } from '../domain/errors.js';

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A vault-relative posix path, checked; throws CoreError('forbidden'). */
export function checkRelPath(rel: string): string {
  if (typeof rel !== 'string' || !rel.length) throw new CoreError('forbidden', 'empty path');
  if (rel.includes('\0')) throw new CoreError('forbidden', `path ${JSON.stringify(rel)} contains a NUL byte`);
  const posix = rel.replace(/\\/g, '/');
  if (isAbsolute(rel) || /^[A-Za-z]:/.test(posix) || posix.startsWith('/')) {
    throw new CoreError('forbidden', `path ${rel} is absolute; paths are relative to the vault`, { path: rel });
  }
  if (posix.split('/').some((s) => s === '..')) throw new CoreError('forbidden', `path ${rel} leaves the vault (..)`, { path: rel });
  return posix.split('/').filter((s) => s && s !== '.').join('/');
}

/**
 * Absolute, realpath-confined location of a vault-relative path. The deepest
 * existing ancestor is realpath'd, so a symlinked folder or file that points out
 * of the vault is refused even when the target file does not exist yet.
 */
export async function resolveInVault(vaultDir: string, rel: string): Promise<string> {
  const clean = checkRelPath(rel);
  const root = realpathSync(vaultDir);
  const abs = join(root, ...clean.split('/'));
  let probe = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(probe);
      const full = join(real, ...rest.reverse());
      const r = relative(root, full);
      if (r === '' || r.startsWith('..') || isAbsolute(r) || r.split(sep)[0] === '..') {
        throw new CoreError('forbidden', `path ${rel} resolves outside the vault (symlink)`, { path: rel });
      }
      return full;
    } catch (e) {
      if (e instanceof CoreError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      const parent = dirname(probe);
      if (parent === probe) throw e;
      rest.push(probe.slice(parent.length + 1));
      probe = parent;
    }
  }
}

/** Current bytes and hash of a vault file; null when it does not exist. */
export async function readVaultFile(vaultDir: string, rel: string): Promise<{ text: string; hash: string; utf8: boolean } | null> {
  const abs = await resolveInVault(vaultDir, rel);
  try {
    const buf = readFileSync(abs);
    const text = buf.toString('utf8');
    // utf8 false: decoding replaced invalid bytes, so writing `text` back would damage the file
    return { text, hash: sha256(buf), utf8: Buffer.byteLength(text, 'utf8') === buf.length && Buffer.from(text, 'utf8').equals(buf) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Refuse when the file on disk is not the version the caller based its edit on.
 * `expected` null means "must not exist". Both versions go into the error.
 */
export async function checkUnchanged(vaultDir: string, rel: string, expected: string | null, mine?: string): Promise<void> {
  const cur = await readVaultFile(vaultDir, rel);
  const actual = cur?.hash ?? null;
  if (actual === expected) return;
  const what = expected === null ? 'was created on disk' : actual === null ? 'was deleted on disk' : 'changed on disk';
  throw new CoreError('conflict', `${rel} ${what} since Lorecraft last read it; reload it or resolve the conflict`, {
    path: rel, expected, actual, mine: mine ?? null, theirs: cur?.text ?? null,
  });
}

/** Permission bits of an existing file; null when there is none (a new file gets the umask's default). */
function modeOf(abs: string): number | null {
  try { return statSync(abs).mode & 0o7777; } catch { return null; }
}

/** Write atomically: temp file beside the target, fsync, rename over it; keeps an existing file's mode. Creates folders. */
export async function atomicWrite(vaultDir: string, rel: string, content: string): Promise<string> {
  const abs = await resolveInVault(vaultDir, rel);
  mkdirSync(dirname(abs), { recursive: true });
  // the folder may have been created through a symlink: confine again
  await resolveInVault(vaultDir, rel);
  const tmp = join(dirname(abs), `.${randomBytes(6).toString('hex')}.lorecraft-tmp`);
  const mode = modeOf(abs);
  const fd = openSync(tmp, 'wx');
  try {
    // the rename replaces the inode: give the new one the old file's mode (0600 stays private)
    if (mode !== null) fchmodSync(fd, mode);
    writeSync(fd, Buffer.from(content, 'utf8'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, abs);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return sha256(Buffer.from(content, 'utf8'));
}

/** Move a vault file (both ends confined); refuses to overwrite an existing target. */
export async function moveInVault(vaultDir: string, from: string, to: string): Promise<void> {
  const a = await resolveInVault(vaultDir, from);
  const b = await resolveInVault(vaultDir, to);
  if (await exists(b) && a.toLowerCase() !== b.toLowerCase()) throw new CoreError('conflict', `${to} already exists`, { path: to });
  mkdirSync(dirname(b), { recursive: true });
  renameSync(a, b);
}

export async function removeInVault(vaultDir: string, rel: string): Promise<void> {
  rmSync(await resolveInVault(vaultDir, rel), { force: true });
}

export async function exists(abs: string): Promise<boolean> {
  try { lstatSync(abs); return true; } catch { return false; }
}
