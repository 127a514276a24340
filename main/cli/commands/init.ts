/**
 * lorecraft init [--vault DIR] [--template fantasy-rpg|fiction|knowledge-base] [--infer] [--json]
 *
 * Writes lorecraft.yaml and schema.yaml into the vault. Never overwrites: an
 * existing file is reported and left alone. With --infer the schema is proposed
 * from the vault's tags, folders and link-valued keys; if schema.yaml exists the
 * proposal is printed instead. Exit 0 when something was written, 1 when nothing
 * could be, 2 on usage errors.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../io.js';
import { parseArgs } from '../io.js';
import { CONFIG_FILE, SCHEMA_FILE, schemaSetupFor, type SetupView } from '../../core/index.js';

export const TEMPLATES = ['fantasy-rpg', 'fiction', 'knowledge-base'] as const;

export function templateDir(name: string): string {
  return fileURLToPath(new URL(`../../../resources/templates/${name}/`, import.meta.url));
}

const USAGE = 'usage: lorecraft init [--vault DIR] [--template fantasy-rpg|fiction|knowledge-base] [--infer] [--json]';

interface FileResult { file: string; path: string; status: 'written' | 'exists' | 'failed'; error?: string }

/** Creates the file only if absent ('wx': the existence check and the write are one step). */
function writeNew(path: string, text: string): FileResult['status'] | string {
  try {
    writeFileSync(path, text, { flag: 'wx' });
    return 'written';
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return e.code === 'EEXIST' ? 'exists' : e.message;
  }
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { flags, positionals, errors } = parseArgs(argv, { booleans: ['infer', 'json', 'help'], strings: ['vault', 'template'] });
  if (flags.help) { io.out(USAGE); return 0; }
  if (errors.length || positionals.length) {
    io.err(`lorecraft init: ${errors[0] ?? `unexpected argument '${positionals[0]}'`}\n${USAGE}`);
    return 2;
  }
  const template = typeof flags.template === 'string' ? flags.template : 'fantasy-rpg';
  if (!(TEMPLATES as readonly string[]).includes(template)) {
    io.err(`lorecraft init: unknown template '${template}' (one of: ${TEMPLATES.join(', ')})`);
    return 2;
  }
  const vault = resolve(typeof flags.vault === 'string' ? flags.vault : '.');
  if (!existsSync(vault) || !statSync(vault).isDirectory()) {
    io.err(`lorecraft init: ${vault} is not a folder`);
    return 2;
  }
  const infer = flags.infer === true;
  const json = flags.json === true;

  let configText = readFileSync(join(templateDir(template), CONFIG_FILE), 'utf8');
  let schemaText: string;
  let summary: SetupView['summary'] | undefined;
  if (infer) {
    // the same proposal as the app's schema setup panel, with its default choices
    const r = await schemaSetupFor(vault).propose();
    schemaText = r.text;
    summary = r.summary;
    configText = r.files.find((f) => f.file === CONFIG_FILE)?.text ?? configText;
  } else {
    schemaText = readFileSync(join(templateDir(template), SCHEMA_FILE), 'utf8');
  }

  const results: FileResult[] = [];
  for (const [file, text] of [[CONFIG_FILE, configText], [SCHEMA_FILE, schemaText]] as const) {
    const path = join(vault, file);
    const st = writeNew(path, text);
    results.push(st === 'written' || st === 'exists' ? { file, path, status: st } : { file, path, status: 'failed', error: st });
  }
  const written = results.filter((r) => r.status === 'written');
  const schemaSkipped = results[1]!.status !== 'written';
  const proposal = infer && schemaSkipped ? schemaText : undefined;

  if (json) {
    io.out(JSON.stringify({
      vault, template: infer ? null : template, infer, files: results,
      written: written.map((r) => r.file), ...(summary ? { summary } : {}), ...(proposal ? { proposal } : {}),
    }, null, 2));
  } else {
    for (const r of results) {
      if (r.status === 'written') io.out(`wrote ${r.path}`);
      else if (r.status === 'exists') io.out(`${r.path} exists: left unchanged`);
      else io.err(`could not write ${r.path}: ${r.error}`);
    }
    if (summary) {
      const types = Object.entries(summary.types).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(', ');
      io.out(`inferred from ${summary.notes} notes: ${types || 'no types'}; ${summary.untyped} untyped; relationships: ${summary.relationships.join(', ') || 'none'}`);
    }
    if (proposal) {
      io.out(`\n# proposed schema (nothing was overwritten; save it as ${SCHEMA_FILE} to use it):\n`);
      io.out(proposal);
    }
  }
  return written.length > 0 ? 0 : 1;
}
