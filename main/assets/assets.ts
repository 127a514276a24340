/**
 * Vault assets (images a note embeds: `![[map.png|250]]`, `![](art/map.png)`,
 * `<img src="map.png">`), read for the shells' asset routes (web: `GET
 * /vault-file/<ref>`, Electron: `lorecraft-asset://vault/<ref>`), behind the
 * core's `readAsset`.
 *
 * Safety, in order: the reference must be vault-relative (no `..`, not
 * absolute: checkRelPath), an image type from IMAGE_TYPES (never a note, a
 * config file or anything else), and its realpath must stay inside the vault
 * (a symlink that leaves it is refused: resolveInVault). Everything refused is
 * a CoreError: `forbidden` (path or type) or `not-found`.
 *
 * Resolution, as Obsidian does it: the reference as a vault path first; else
 * any image file whose path ends with it (`map.png` or `art/map.png`), the
 * shortest path winning (then alphabetical). The file-name index is built by one
 * walk (dot-folders and node_modules skipped, folder symlinks not followed) and
 * rebuilt when a lookup misses or a found file has gone, at most every REWALK_MS.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { extname, join } from 'node:path';
import { CoreError } from '../domain/errors.js';
import { checkRelPath, resolveInVault } from '../edit/safe-fs.js';
import { isSkippedDir } from '../sync/walk.js';

export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.avif': 'image/avif', '.bmp': 'image/bmp', '.svg': 'image/svg+xml',
};
/** larger files are refused (`too-large`): an embed is not a way to stream the disk */
export const MAX_ASSET_BYTES = 64 * 1024 * 1024;
const REWALK_MS = 2000;

export interface VaultAsset {
  /** vault-relative posix path of the file served */
  path: string;
  mime: string;
  bytes: Buffer;
}

export class AssetResolver {
  private index: string[] | null = null;
  private walkedAt = 0;

  constructor(private readonly vaultDir: string) {}

  async read(ref: string): Promise<VaultAsset> {
    const rel = checkRelPath(ref);
    const mime = IMAGE_TYPES[extname(rel).toLowerCase()];
    if (!mime) {
      throw new CoreError('forbidden', `${ref}: not an image a note can embed (allowed: ${Object.keys(IMAGE_TYPES).join(' ')})`, { path: ref });
    }
    const path = (await this.isFile(rel)) ? rel : await this.byName(rel);
    if (!path) throw new CoreError('not-found', `no image ${ref} in the vault`, { path: ref });
    const abs = await resolveInVault(this.vaultDir, path); // realpath confinement (symlinks out are refused)
    const st = await stat(abs);
    if (st.size > MAX_ASSET_BYTES) throw new CoreError('too-large', `${path} is ${st.size} bytes (limit ${MAX_ASSET_BYTES})`, { path });
    return { path, mime, bytes: await readFile(abs) };
  }

  private async isFile(rel: string): Promise<boolean> {
    return stat(join(this.vaultDir, ...rel.split('/'))).then((s) => s.isFile(), () => false);
  }

  /** the shortest indexed path equal to `rel` or ending with `/rel` (case-insensitive) */
  private async byName(rel: string): Promise<string | null> {
    const pick = (paths: string[]) => {
      const want = rel.toLowerCase();
      let best: string | null = null;
      for (const p of paths) {
        const l = p.toLowerCase();
        if (l !== want && !l.endsWith('/' + want)) continue;
        if (!best || p.length < best.length || (p.length === best.length && p < best)) best = p;
      }
      return best;
    };
    const fresh = Date.now() - this.walkedAt < REWALK_MS;
    let found = this.index ? pick(this.index) : null;
    if (found && !(await this.isFile(found))) found = null;
    if (!found && !(this.index && fresh)) {
      this.index = await this.walk();
      this.walkedAt = Date.now();
      found = pick(this.index);
    }
    return found;
  }

  private async walk(): Promise<string[]> {
    const out: string[] = [];
    const root = realpathSync(this.vaultDir);
    const visit = async (dir: string, prefix: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (e.isDirectory()) {
          if (!isSkippedDir(e.name)) await visit(join(dir, e.name), prefix + e.name + '/');
        } else if ((e.isFile() || e.isSymbolicLink()) && IMAGE_TYPES[extname(e.name).toLowerCase()]) {
          out.push(prefix + e.name);
        }
      }
    };
    await visit(root, '');
    return out;
  }
}
