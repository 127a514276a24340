import { describe, expect, it } from 'vitest';
import { VaultConfigZ } from './types.js';
import { vaultFilter } from './layers.js';

describe('vaultFilter', () => {
  const f = vaultFilter(VaultConfigZ.parse({
    layers: [
      { name: 'world', paths: ['.'] },
      { name: 'c1', canonical: false, paths: ['Campaigns/One/', './Shared/c1'], depends_on: ['world'] },
      { name: 'c1-secret', canonical: false, paths: ['Campaigns/One/Secret'] },
    ],
    exclude: ['Templates', '**/*.excalidraw.md', 'README.md'],
  }));
  it('the longest path prefix wins', () => {
    expect(f.layerOf('NPCs/Varo.md')).toBe('world');
    expect(f.layerOf('Campaigns/One/s1.md')).toBe('c1');
    expect(f.layerOf('Campaigns/One/Secret/x.md')).toBe('c1-secret');
    expect(f.layerOf('Campaigns/OneMore/x.md')).toBe('world');
    expect(f.layerOf('Shared/c1/a.md')).toBe('c1');
  });
  it('no matching path: no layer', () => {
    const g = vaultFilter(VaultConfigZ.parse({ layers: [{ name: 'a', paths: ['World'] }] }));
    expect(g.layerOf('World/x.md')).toBe('a');
    expect(g.layerOf('Other/x.md')).toBeNull();
  });
  it('excludes by glob on the file or any parent folder, and always skips tool folders', () => {
    expect(f.excluded('Templates/npc.md')).toBe(true);
    expect(f.excluded('Art/map.excalidraw.md')).toBe(true);
    expect(f.excluded('README.md')).toBe(true);
    expect(f.excluded('docs/README.md')).toBe(false);
    expect(f.excluded('.lorecraft/db')).toBe(true);
    expect(f.excluded('.obsidian/app.json')).toBe(true);
    expect(f.excluded('NPCs/Varo.md')).toBe(false);
  });
});
