/**
 * Finds the vault's notes: every `*.md` file under the vault root that lies in
 * a layer and is not excluded. Skips dot-folders (.lorecraft, .obsidian, .git,
 * .trash...) and node_modules. Symlinks are followed only while they stay
 * inside the vault; a loop or a link leaving the vault becomes a problem and
 * the walk goes on.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Problem } from '../../shared/types.js';
import type { LayerMap } from '../model/layers.js';

export const SKIP_DIRS = new Set(['node_modules']);

export function isSkippedDir(name: string): boolean {
  return name.startsWith('.') || SKIP_DIRS.has(name);
}

/** Is a vault-relative path one the sync reads (a note in a layer)? */
export function isNotePath(rel: string, layers: LayerMap): boolean {
  const parts = rel.split('/');
  if (!isNoteFileName(parts[parts.length - 1]!)) return false;
  for (let i = 0; i < parts.length - 1; i++) if (isSkippedDir(parts[i]!)) return false;
  return layers.layerOf(rel) !== null;
}

/** A file name a note can have: markdown (`.md`, any case), not hidden (a leading dot). */
function isNoteFileName(name: string): boolean {
  return name.charCodeAt(0) !== 46 /* . */ && name.toLowerCase().endsWith('.md');
}

export interface WalkResult {
  /** vault-relative posix path -> absolute path to read */
  files: Map<string, string>;
  problems: Problem[];
}

const toPosix = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/** The prefix `p` such that p + name === join(dir, name) for a file or folder name (no separator, not `.` or `..`). */
export function childBase(dir: string): string {
  return join(dir, 'x').slice(0, -1);
}

export async function walkVault(root: string, layers: LayerMap): Promise<WalkResult> {
  const files = new Map<string, string>();
  const problems: Problem[] = [];
  const rootReal = await realpath(root);
  const inside = (real: string) => real === rootReal || real.startsWith(rootReal + sep);
  const seenDirs = new Set<string>([rootReal]);

  // realDir: absDir's real path. A folder listed as a folder (not a link) has the real path of its parent plus its
  // name, so only links are resolved (a realpath per folder was ~70 ms of a warm open at 10k).
  async function visit(absDir: string, relDir: string, realDir: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(absDir, { withFileTypes: true });
    } catch (err) {
      problems.push({ severity: 'warning', code: 'read-failed', file: relDir || '.', message: `cannot list folder: ${(err as Error).message}` });
      return;
    }
    const subdirs: Array<Promise<void>> = [];
    // the layer of this folder's files, the folder's part asked once (isNotePath per file re-split the path, checked
    // its folders again and walked the layers: a warm open from a new process runs this loop interpreted, 7,000 times)
    let fileLayer: ((path: string) => string | null) | null = null;
    // join(absDir, name) for every entry as one concatenation: the folder's part joined once (a name from readdir has
    // no separator and is never `.` or `..`, so join normalises nothing past the folder; path.join per file was ~10 ms
    // of a warm open's main thread on the real-shaped 7k vault, JIT-warm)
    const absBase = childBase(absDir);
    for (const e of entries) {
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      const abs = absBase + e.name;
      if (e.isDirectory()) {
        if (isSkippedDir(e.name) || layers.isExcluded(rel)) continue;
        const real = join(realDir, e.name);
        if (seenDirs.has(real)) continue;
        seenDirs.add(real);
        subdirs.push(visit(abs, rel, real));
      } else if (e.isFile()) {
        // isNotePath(rel, layers) for a file of a walked folder (every folder of rel passed isSkippedDir above)
        if (!isNoteFileName(e.name)) continue;
        fileLayer ??= layers.layerIn(relDir);
        if (fileLayer(rel) !== null) files.set(rel, abs);
      } else if (e.isSymbolicLink()) {
        if (isSkippedDir(e.name) || layers.isExcluded(rel)) continue;
        let real: string;
        let isDir: boolean;
        try {
          real = await realpath(abs);
          isDir = (await stat(real)).isDirectory();
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ELOOP' || rel.toLowerCase().endsWith('.md')) {
            problems.push({
              severity: 'warning', code: code === 'ELOOP' ? 'symlink-loop' : 'broken-symlink', file: toPosix(rel), line: 1,
              message: code === 'ELOOP' ? 'symbolic link loop: skipped' : `symbolic link points nowhere (${code ?? 'error'}): skipped`,
            });
          }
          continue;
        }
        if (!inside(real)) {
          problems.push({ severity: 'warning', code: 'symlink-outside', file: toPosix(rel), line: 1, message: 'symbolic link leads outside the vault: not followed' });
          continue;
        }
        if (isDir) {
          if (seenDirs.has(real) || rootReal.startsWith(real + sep) || real === rootReal) {
            problems.push({ severity: 'warning', code: 'symlink-loop', file: toPosix(rel), line: 1, message: 'symbolic link to a folder already in the vault (a loop): not followed' });
            continue;
          }
          seenDirs.add(real);
          subdirs.push(visit(abs, rel, real));
        } else if (isNotePath(rel, layers)) {
          files.set(rel, abs);
        }
      }
    }
    await Promise.all(subdirs);
  }

  await visit(root, '', rootReal);
  return { files, problems };
}

export function relPath(root: string, abs: string): string {
  return toPosix(relative(root, abs));
}

/** lstat that never throws. */
export async function lstatOrNull(p: string) {
  try { return await lstat(p); } catch { return null; }
}
