import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LayerMap } from '../model/layers.js';
import { listVaultFiles, obsidianTemplateFolders } from './excludes.js';
import { loadVaultConfig } from './load.js';

function vault(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lc-excl-'));
  for (const [p, t] of Object.entries(files)) { mkdirSync(dirname(join(root, p)), { recursive: true }); writeFileSync(join(root, p), t); }
  return root;
}

describe('not the world: template folders and repository files', () => {
  const dir = vault({
    '.obsidian/templates.json': JSON.stringify({ folder: 'Meta/Blueprints' }),
    '.obsidian/plugins/templater-obsidian/data.json': JSON.stringify({ templates_folder: 'Tpl/' }),
    'README.md': '', 'LICENSE': '', 'Contributing.md': '', 'notes.md': '',
  });
  const layers = new LayerMap(loadVaultConfig(dir).config);

  it('reads the template folders from Obsidian\'s core Templates and Templater settings', () => {
    expect(obsidianTemplateFolders(dir)).toEqual(['Meta/Blueprints', 'Tpl']);
    expect(layers.layerOf('Meta/Blueprints/NPC.md')).toBeNull();
    expect(layers.layerOf('Tpl/deep/x.md')).toBeNull();
    expect(layers.layerOf('Meta/Other.md')).toBe('main');
  });

  it('leaves out _templates, templates, z_Templates in any case at any depth', () => {
    for (const p of ['_templates/a.md', 'Templates/a.md', 'World/z_Templates/b.md', 'x/TEMPLATES/y/z.md']) expect(layers.layerOf(p), p).toBeNull();
    expect(layers.isExcluded('World/_Templates')).toBe(true);
    expect(layers.layerOf('World/Templates of Doom/a.md')).toBe('main');
    expect(layers.layerOf('Templates.md')).toBe('main');
  });

  it('treats README, LICENSE, CONTRIBUTING at the root as vault files, not notes', () => {
    expect(layers.layerOf('README.md')).toBeNull();
    expect(layers.layerOf('Contributing.md')).toBeNull();
    expect(layers.layerOf('Lore/README.md')).toBe('main');
    expect(listVaultFiles(dir, loadVaultConfig(dir).config)).toEqual(['Contributing.md', 'LICENSE', 'README.md']);
  });

  it('is configurable in lorecraft.yaml', () => {
    const d = vault({
      'lorecraft.yaml': 'exclude_templates: false\nvault_files: []\n',
      '.obsidian/templates.json': JSON.stringify({ folder: 'Blueprints' }),
    });
    const l = new LayerMap(loadVaultConfig(d).config);
    expect(l.layerOf('_templates/a.md')).toBe('main');
    expect(l.layerOf('Blueprints/a.md')).toBe('main');
    expect(l.layerOf('README.md')).toBe('main');
    const named = vault({ 'lorecraft.yaml': 'template_folders: [Stamps]\n', '.obsidian/templates.json': JSON.stringify({ folder: 'Blueprints' }) });
    const n = new LayerMap(loadVaultConfig(named).config);
    expect(n.layerOf('Stamps/a.md')).toBeNull();
    expect(n.layerOf('Blueprints/a.md')).toBe('main');
  });
});
