/**
 * Which files belong to the vault, and to which layer (docs/vault-format.md, Layers).
 *
 * - A file is skipped when an `exclude` glob (picomatch, vault-relative, dotfiles
 *   included) matches it or one of its parent folders. `.lorecraft/`, `.git/`,
 *   `.obsidian/` and `.trash/` are always skipped.
 * - A file belongs to the layer whose `paths` entry is the LONGEST folder prefix of
 *   its path ('.' matches everything, with length 0); ties go to the layer declared
 *   first. No matching entry: the file is in no layer (not part of the graph).
 */
import picomatch from 'picomatch';
import type { VaultConfig } from './types.js';
import { builtInExcluded } from './excludes.js';

const ALWAYS_SKIPPED = ['.lorecraft', '.git', '.obsidian', '.trash'];

function normFolder(p: string): string {
  const s = p.replace(/\\/g, '/').replace(/^\.\/+/, '').replace(/\/+$/, '');
  return s === '.' ? '' : s;
}

export interface VaultFilter {
  /** true when the vault-relative posix path (file or folder) is excluded */
  excluded(relPath: string): boolean;
  /** the layer of a vault-relative file path; null = in no layer */
  layerOf(relPath: string): string | null;
}

export function vaultFilter(config: VaultConfig): VaultFilter {
  const globs = config.exclude.length ? picomatch(config.exclude, { dot: true }) : () => false;
  const builtIn = builtInExcluded(config);
  const match = (p: string) => globs(p) || builtIn(p);
  const prefixes = config.layers
    .flatMap((l, order) => l.paths.map((p) => ({ layer: l.name, prefix: normFolder(p), order })))
    .sort((a, b) => b.prefix.length - a.prefix.length || a.order - b.order);
  return {
    excluded(relPath) {
      const parts = relPath.split('/');
      if (ALWAYS_SKIPPED.includes(parts[0]!)) return true;
      for (let i = 1; i <= parts.length; i++) if (match(parts.slice(0, i).join('/'))) return true;
      return false;
    },
    layerOf(relPath) {
      for (const { layer, prefix } of prefixes) {
        if (prefix === '' || relPath === prefix || relPath.startsWith(prefix + '/')) return layer;
      }
      return null;
    },
  };
}
