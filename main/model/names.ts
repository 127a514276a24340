/**
 * The name index: per layer, which note paths answer to a key as a name, a
 * file name, an alias or a vault-relative path. Holders of a key are kept in
 * path order, so "the first by path order" is always index 0.
 */
import { normaliseName } from '../../shared/names.js';

export type NameKind = 'name' | 'file' | 'alias' | 'path';
const KINDS: NameKind[] = ['name', 'file', 'alias', 'path'];

/**
 * normaliseName with a fast path: printable ASCII with single inner spaces only
 * needs lower-casing (NFC, trim and whitespace folding are identities on it).
 * Always equal to normaliseName(s) (property-tested).
 */
export function normKey(s: string): string {
  let prevSpace = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (prevSpace) return normaliseName(s);
      prevSpace = true;
    } else if (c < 33 || c > 126) return normaliseName(s);
    else prevSpace = false;
  }
  if (prevSpace && s.length > 0) return normaliseName(s);
  return s.toLowerCase();
}

/** Key of a vault-relative path or path-like link target: normalised, no leading ./ or /, no .md. */
export function pathKey(p: string): string {
  // (a vault's every path is asked this when it opens: no regular expression unless there is something to replace)
  let s = p.indexOf('\\') >= 0 ? p.replace(/\\/g, '/') : p;
  while (s.startsWith('./')) s = s.slice(2);
  if (s.charCodeAt(0) === 47) s = s.replace(/^\/+/, '');
  // ends with .md, in any case
  const n = s.length;
  if (n >= 3 && s.charCodeAt(n - 3) === 46 && (s.charCodeAt(n - 2) | 32) === 109 && (s.charCodeAt(n - 1) | 32) === 100) s = s.slice(0, -3);
  return normKey(s);
}

function insertSorted(arr: string[], v: string): void {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid]! < v) lo = mid + 1; else hi = mid;
  }
  if (arr[lo] !== v) arr.splice(lo, 0, v);
}

/**
 * key -> its holders (paths, sorted): the one path itself while there is one, an array from the second on (an
 * array per key was ~40k arrays on opening a 10k vault, nearly all of one path)
 */
type Holders = string | string[];
type LayerMaps = Record<NameKind, Map<string, Holders>>;

export class NameIndex {
  private readonly layers = new Map<string, LayerMaps>();

  private maps(layer: string): LayerMaps {
    let m = this.layers.get(layer);
    if (!m) {
      m = { name: new Map(), file: new Map(), alias: new Map(), path: new Map() };
      this.layers.set(layer, m);
    }
    return m;
  }

  /** true when `key` had no holder of this kind in this layer before (its first holder is `path`) */
  add(layer: string, kind: NameKind, key: string, path: string): boolean {
    if (!key) return false;
    const m = this.maps(layer)[kind];
    const h = m.get(key);
    if (h === undefined) { m.set(key, path); return true; }
    if (typeof h === 'string') { if (h !== path) m.set(key, h < path ? [h, path] : [path, h]); } else insertSorted(h, path);
    return false;
  }

  remove(layer: string, kind: NameKind, key: string, path: string): void {
    const m = this.layers.get(layer)?.[kind];
    const h = m?.get(key);
    if (!m || h === undefined) return;
    if (typeof h === 'string') { if (h === path) m.delete(key); return; }
    const i = h.indexOf(path);
    if (i >= 0) h.splice(i, 1);
    if (h.length === 1) m.set(key, h[0]!);
    else if (h.length === 0) m.delete(key);
  }

  holders(layer: string, kind: NameKind, key: string): readonly string[] {
    return asList(this.layers.get(layer)?.[kind].get(key));
  }

  /** holders() as the index keeps them: the one path itself, else the list (read only); undefined for none */
  holdersOf(layer: string, kind: NameKind, key: string): string | readonly string[] | undefined {
    return this.layers.get(layer)?.[kind].get(key);
  }

  /** First holder of `key` as `kind` in the first layer of `order` that has one. */
  first(order: readonly string[], kind: NameKind, key: string): string | undefined {
    for (const l of order) {
      const h = this.layers.get(l)?.[kind].get(key);
      if (h !== undefined) return typeof h === 'string' ? h : h[0];
    }
    return undefined;
  }

  /**
   * First holder of a name `key` in the first layer of `order` that has one, in each layer as a name, then a file
   * name, then an alias (a reference's plain name: each layer's maps found once, ~13k such questions at 10k notes).
   */
  firstNamed(order: readonly string[], key: string): string | undefined {
    for (const l of order) {
      const m = this.layers.get(l);
      if (m === undefined) continue;
      const h = m.name.get(key) ?? m.file.get(key) ?? m.alias.get(key);
      if (h !== undefined) return typeof h === 'string' ? h : h[0];
    }
    return undefined;
  }

  /** First holder of `key` as `kind` in one layer. */
  firstIn(layer: string, kind: NameKind, key: string): string | undefined {
    const h = this.layers.get(layer)?.[kind].get(key);
    return typeof h === 'string' ? h : h?.[0];
  }

  /** Every (key, kind) known in a layer (or all layers): for prefix/fuzzy completion. */
  *entries(layer?: string): Iterable<{ layer: string; kind: NameKind; key: string; paths: readonly string[] }> {
    for (const [l, maps] of this.layers) {
      if (layer !== undefined && l !== layer) continue;
      for (const kind of KINDS) for (const [key, paths] of maps[kind]) yield { layer: l, kind, key, paths: asList(paths) };
    }
  }
}

function asList(h: Holders | undefined): readonly string[] {
  return h === undefined ? [] : typeof h === 'string' ? [h] : h;
}
