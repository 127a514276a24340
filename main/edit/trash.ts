/**
 * The vault's trash: `edit delete` moves a note to `.lorecraft/trash/<stamp>/<its path>`
 * (the stamp is the deletion time, ISO with ':' and '.' as '-'). Listing reads that tree;
 * restoring (Editor.restore) moves a file back to its path, refusing when a note is there.
 * Pure reads here, no writes.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreError } from '../domain/errors.js';
import { checkRelPath } from './safe-fs.js';

export const TRASH = '.lorecraft/trash';

export interface TrashItem {
  /** vault-relative path of the file in the trash (what restore takes) */
  trashPath: string;
  /** where it lived, and goes back to */
  path: string;
  /** ISO time of the deletion, from the stamp */
  deletedAt: string;
  size: number;
}

const STAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/;

/** The original path of a trashed file; throws 'invalid' for anything that is not in the trash. */
export function trashOrigin(trashPath: string): { path: string; stamp: string } {
  const rel = checkRelPath(trashPath);
  const parts = rel.split('/');
  const prefix = TRASH.split('/');
  if (parts.length < prefix.length + 2 || prefix.some((p, i) => parts[i] !== p) || !STAMP.test(parts[prefix.length]!)) {
    throw new CoreError('invalid', `${trashPath} is not a file in the trash (${TRASH}/<time>/<path>)`, { field: 'trashPath', path: trashPath });
  }
  return { path: parts.slice(prefix.length + 1).join('/'), stamp: parts[prefix.length]! };
}

function stampTime(stamp: string): string {
  const m = STAMP.exec(stamp);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z` : stamp;
}

/** Every file in the trash, most recently deleted first. */
export async function listTrash(vaultDir: string): Promise<TrashItem[]> {
  const root = join(vaultDir, TRASH);
  const out: TrashItem[] = [];
  const stamps = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const s of stamps) {
    if (!s.isDirectory() || !STAMP.test(s.name)) continue;
    const walk = async (rel: string): Promise<void> => {
      for (const d of await readdir(join(root, s.name, rel), { withFileTypes: true })) {
        const r = rel ? `${rel}/${d.name}` : d.name;
        if (d.isDirectory()) await walk(r);
        else if (d.isFile()) {
          const st = await stat(join(root, s.name, r));
          out.push({ trashPath: `${TRASH}/${s.name}/${r}`, path: r, deletedAt: stampTime(s.name), size: st.size });
        }
      }
    };
    await walk('');
  }
  return out.sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : a.deletedAt > b.deletedAt ? -1 : a.path.localeCompare(b.path)));
}
