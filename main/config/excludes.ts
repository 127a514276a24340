/**
 * What is not the world, beyond `exclude` (docs/vault-format.md, "Not the world"):
 * - template folders: `_templates`, `templates`, `z_Templates` in any case at any
 *   depth, and the folders named by Obsidian's core Templates plugin
 *   (`.obsidian/templates.json`: `folder`) and by Templater
 *   (`.obsidian/plugins/templater-obsidian/data.json`: `templates_folder`);
 *   `exclude_templates: false` in lorecraft.yaml turns all of this off;
 * - repository files at the vault root (`vault_files`: README, LICENSE,
 *   CONTRIBUTING, CHANGELOG): not entities, listed as vault files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { VaultConfig } from './types.js';

/** folder names that hold templates in common vaults (compared case-insensitively) */
export const TEMPLATE_DIR_NAMES = ['_templates', 'templates', 'z_templates'];
/**
 * "templates" in any case: in every name of TEMPLATE_DIR_NAMES. Without the `u` flag /i folds ASCII letters
 * only, as toLowerCase does for these letters (no other character lower-cases to one of them).
 */
const TEMPLATES_ANY_CASE = /templates/i;

function normFolder(p: string): string {
  return p.replace(/\\/g, '/').trim().replace(/^\.?\/+/, '').replace(/\/+$/, '');
}

function jsonKey(path: string, key: string): string | null {
  try {
    const v = (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>)[key];
    return typeof v === 'string' && normFolder(v) ? normFolder(v) : null;
  } catch { return null; }
}

/** The template folders Obsidian's settings name (core Templates, Templater), vault-relative. */
export function obsidianTemplateFolders(vaultDir: string): string[] {
  const out = [
    jsonKey(join(vaultDir, '.obsidian', 'templates.json'), 'folder'),
    jsonKey(join(vaultDir, '.obsidian', 'plugins', 'templater-obsidian', 'data.json'), 'templates_folder'),
  ].filter((x): x is string => x !== null && !x.split('/').includes('..'));
  return [...new Set(out)];
}

/**
 * A matcher for paths (files or folders, vault-relative posix) that the config's
 * built-in rules leave out of the world. Cheap: callers cache per folder.
 */
export function builtInExcluded(config: VaultConfig): (relPath: string) => boolean {
  const templates = config.exclude_templates;
  const folders = templates ? (config.template_folders ?? []).map((f) => normFolder(f).toLowerCase()).filter(Boolean) : [];
  const rootFile = config.vault_files.length ? picomatch(config.vault_files, { nocase: true, dot: true }) : () => false;
  return (relPath) => {
    if (!relPath.includes('/') && rootFile(relPath)) return true;
    if (!templates) return false;
    // asked for every file and folder of every walk: a path without "templates" in any case holds no template
    // folder name (each has it), so it is answered without lower-casing and splitting it (folders from settings
    // can be any name: then the full check)
    if (folders.length === 0 && !TEMPLATES_ANY_CASE.test(relPath)) return false;
    const lower = relPath.toLowerCase();
    const parts = lower.split('/');
    // a template folder itself or anything under it (the last part of a file path is a file name, not a folder)
    for (const p of parts) if (TEMPLATE_DIR_NAMES.includes(p)) return true;
    return folders.some((f) => lower === f || lower.startsWith(f + '/'));
  };
}

/** The repository files at the vault root (`vault_files`), sorted: shown apart from the entities. */
export function listVaultFiles(vaultDir: string, config: VaultConfig): string[] {
  if (!config.vault_files.length) return [];
  const m = picomatch(config.vault_files, { nocase: true, dot: true });
  try {
    return readdirSync(vaultDir, { withFileTypes: true }).filter((e) => e.isFile() && m(e.name)).map((e) => e.name).sort();
  } catch { return []; }
}
