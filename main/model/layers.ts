/**
 * Which layer a vault-relative path belongs to (lorecraft.yaml `layers[].paths`,
 * minus `exclude` globs and the built-in exclusions of config/excludes.ts), and the order in which a layer's references look for
 * names: the layer itself, then its `depends_on` layers transitively (breadth
 * first, in declaration order).
 */
import picomatch from 'picomatch';
import type { VaultConfig } from '../config/types.js';
import { builtInExcluded } from '../config/excludes.js';

function cleanDir(p: string): string {
  let s = p.replace(/\\/g, '/').trim();
  while (s.startsWith('./')) s = s.slice(2);
  s = s.replace(/\/+$/, '');
  return s === '' ? '.' : s;
}

export class LayerMap {
  private readonly dirs: Array<{ layer: string; dir: string }> = [];
  private readonly excluded: (p: string) => boolean;
  private readonly visible = new Map<string, string[]>();

  constructor(config: VaultConfig) {
    for (const l of config.layers) for (const p of l.paths) this.dirs.push({ layer: l.name, dir: cleanDir(p) });
    // Most specific folder wins; ties keep declaration order (stable sort).
    this.dirs.sort((a, b) => (b.dir === '.' ? 0 : b.dir.length) - (a.dir === '.' ? 0 : a.dir.length));
    const globs = config.exclude.map((g) => g.replace(/\\/g, '/'));
    const m = globs.length ? picomatch(globs, { dot: true }) : () => false;
    // `exclude` globs, then the built-in rules: template folders, repository files at the root (config/excludes.ts)
    const builtIn = builtInExcluded(config);
    this.excluded = (p) => m(p) || builtIn(p);
    const byName = new Map(config.layers.map((l) => [l.name, l]));
    for (const l of config.layers) {
      const order: string[] = [];
      const queue = [l.name];
      while (queue.length) {
        const n = queue.shift()!;
        if (order.includes(n)) continue;
        order.push(n);
        for (const d of byName.get(n)?.depends_on ?? []) if (byName.has(d)) queue.push(d);
      }
      this.visible.set(l.name, order);
    }
  }

  private readonly dirExcluded = new Map<string, boolean>();

  /** A path is excluded when it, or any folder above it, matches an exclude glob. */
  isExcluded(path: string): boolean {
    if (this.excluded(path)) return true;
    const slash = path.lastIndexOf('/');
    return slash > 0 && this.isDirExcluded(path.slice(0, slash));
  }

  private isDirExcluded(dir: string): boolean {
    let v = this.dirExcluded.get(dir);
    if (v === undefined) {
      const slash = dir.lastIndexOf('/');
      v = this.excluded(dir) || this.excluded(dir + '/') || (slash > 0 && this.isDirExcluded(dir.slice(0, slash)));
      this.dirExcluded.set(dir, v);
    }
    return v;
  }

  /** Layer of a note path, or null when excluded or outside every layer. */
  layerOf(path: string): string | null {
    if (this.isExcluded(path)) return null;
    for (const { layer, dir } of this.dirs) {
      if (dir === '.' || path === dir || path.startsWith(dir + '/')) return layer;
    }
    return null;
  }

  /**
   * layerOf for the files directly in folder `dir` ('' for the vault root): the folder's part of the question
   * (its exclusion, the layer whose path holds it, a layer path naming one of its files) answered once, so that a
   * walk asks per file only the exclude globs. `fileIn(path)` === `layerOf(path)` for every path `dir/name`
   * (name without '/'): model/layers.test.ts checks it against layerOf.
   */
  layerIn(dir: string): (path: string) => string | null {
    if (dir !== '' && this.isDirExcluded(dir)) return () => null;
    let dirLayer: string | null = null;
    // layer paths naming a file of this folder: longer than any that holds the folder, so before them in the order
    let exact: Map<string, string> | null = null;
    for (const { layer, dir: d } of this.dirs) {
      if (d === '.' || (dir !== '' && (dir === d || dir.startsWith(d + '/')))) { dirLayer = layer; break; }
      const slash = d.lastIndexOf('/');
      if ((slash < 0 ? '' : d.slice(0, slash)) === dir) {
        exact ??= new Map();
        if (!exact.has(d)) exact.set(d, layer);
      }
    }
    const excluded = this.excluded;
    if (exact === null) return (path) => (excluded(path) ? null : dirLayer);
    const named = exact;
    return (path) => (excluded(path) ? null : named.get(path) ?? dirLayer);
  }

  /** Layers searched for a reference made in `layer`, in order. */
  searchOrder(layer: string): string[] {
    return this.visible.get(layer) ?? [layer];
  }
}
