/**
 * LayerMap.layerIn (the walk's per-folder answer) against layerOf, on randomised configurations: nested layer
 * paths (longest wins, ties in declaration order), layer paths naming a file, '.', exclude globs on files and on
 * folders (with and without a trailing '/'), template folders and root repository files (built-in rules).
 */
import { describe, expect, it } from 'vitest';
import { prng } from '../../shared/prng.js';
import { VaultConfigZ } from '../config/types.js';
import { LayerMap } from './layers.js';

const FOLDERS = ['', 'A', 'A/B', 'A/B/C', 'A/Bee', 'Templates', 'x/_templates', 'x/_templates/y', 'Notes', 'Notes/Sub', 'z_Templates/q', 'W/Z'];
const NAMES = ['one.md', 'Two.MD', 'README.md', 'readme.md', 'LICENSE', 'a.excalidraw.md', 'C', 'B', 'Sub', 'x.md', 'templates.md'];
const LAYER_PATHS = ['.', './', 'A', 'A/', 'A/B', 'A/B/C', 'A/Be', 'A/Bee', 'Notes/Sub', 'Notes/Sub/x.md', 'A/one.md', 'one.md', 'A/B/x.md', 'W', 'Q/R', 'x'];
const EXCLUDES = ['A/B/', 'A/B', '**/*.excalidraw.md', 'Notes/**', 'Notes/Sub/', 'W/*', 'A/Bee/x.md', '*.md', '**/C'];

function pick<T>(r: () => number, xs: readonly T[], n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(xs[Math.floor(r() * xs.length)]!);
  return out;
}

describe('LayerMap.layerIn', () => {
  it('answers as layerOf for every file of every folder, over 150 configurations', () => {
    const r = prng(15);
    let checked = 0;
    let inLayer = 0;
    for (let c = 0; c < 150; c++) {
      const layers = Array.from({ length: 1 + Math.floor(r() * 4) }, (_, i) => ({ name: `L${i}`, paths: pick(r, LAYER_PATHS, 1 + Math.floor(r() * 3)) }));
      const config = VaultConfigZ.parse({
        layers,
        exclude: pick(r, EXCLUDES, Math.floor(r() * 3)),
        exclude_templates: r() < 0.7,
        ...(r() < 0.3 ? { template_folders: ['Notes/Sub'] } : {}),
        ...(r() < 0.2 ? { vault_files: [] } : {}),
      });
      const map = new LayerMap(config);
      const ref = new LayerMap(config);
      // folders in a random order (the per-folder answer must not depend on what was asked before)
      for (const dir of pick(r, FOLDERS, FOLDERS.length * 2)) {
        const fileIn = map.layerIn(dir);
        for (const name of NAMES) {
          const path = dir ? `${dir}/${name}` : name;
          const want = ref.layerOf(path);
          expect(fileIn(path), `${JSON.stringify(config)} ${path}`).toBe(want);
          expect(map.layerOf(path)).toBe(want);
          checked++;
          if (want !== null) inLayer++;
        }
      }
    }
    // the configurations put files both in and out of layers
    expect(inLayer).toBeGreaterThan(checked / 5);
    expect(checked - inLayer).toBeGreaterThan(checked / 5);
  });
});
