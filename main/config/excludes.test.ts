import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LayerMap } from '../model/layers.js';
import { prng } from '../../shared/prng.js';
import { builtInExcluded, listVaultFiles, obsidianTemplateFolders, TEMPLATE_DIR_NAMES } from './excludes.js';
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

describe('builtInExcluded: the fast answer for paths without "templates" equals the full check', () => {
  // the check as it was before the fast path: lower-case, split, each part against the names, then the folders
  const reference = (relPath: string, folders: string[]): boolean => {
    const lower = relPath.toLowerCase();
    for (const p of lower.split('/')) if (TEMPLATE_DIR_NAMES.includes(p)) return true;
    return folders.some((f) => lower === f || lower.startsWith(f + '/'));
  };
  it('agrees on seeded paths with template names in any case, near misses and case-folding characters', () => {
    const dir = vault({ 'a.md': '' });
    const config = loadVaultConfig(dir).config;
    const plain = { ...config, vault_files: [], template_folders: [] };
    const withFolders = { ...config, vault_files: [], template_folders: ['Meta/Blueprints', 'Tpl'] };
    const r = prng(19);
    const parts = ['Templates', 'TEMPLATES', '_templates', '_Templates', 'z_Templates', 'Z_TEMPLATES', 'templates', 'template', 'Templatess',
      'my templates', 'Templates.md', 'TEMPLATEſ', 'TEMPLATE\u0130S', '\u212Aeep', 'Meta', 'Blueprints', 'meta', 'TPL', 'Tpl', 'Notes', 'Ünïcode',
      'x', 'Plates', 'temp lates', 'İstanbul'];
    let agreed = 0;
    for (let i = 0; i < 4000; i++) {
      const n = 1 + Math.floor(r() * 4);
      const path = Array.from({ length: n }, () => parts[Math.floor(r() * parts.length)]!).join('/') + (r() < 0.5 ? '.md' : '');
      expect(builtInExcluded(plain)(path), path).toBe(reference(path, []));
      expect(builtInExcluded(withFolders)(path), path).toBe(reference(path, ['meta/blueprints', 'tpl']));
      if (reference(path, [])) agreed++;
    }
    expect(agreed).toBeGreaterThan(1000); // both answers occur often
  });
});

