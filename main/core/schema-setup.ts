/**
 * Schema setup: the commands behind the app's "set up types" panel and
 * `lorecraft init --infer` (one code path: config/infer.ts does the inference).
 *
 * - propose(): types from the vault's `type:` values, tags and folders, with counts,
 *   example notes, inferred properties and relationships, and the files it would write;
 * - preview(choices): the same after the GM's renames / merges / drops / rule picks;
 * - accept(choices, confirm): writes schema.yaml and lorecraft.yaml. Never overwrites
 *   blindly: a file that does not exist is created; an existing one with other content
 *   is left alone and its diff returned, and is replaced only when `confirm[file]` is
 *   the sha256 of exactly the content the GM reviewed (the diff's `hash`).
 *   After a write the caller reopens the core: a changed schema fingerprint rebuilds
 *   the graph, so the world re-types (CoreSession.open in the shells).
 */
import { basename } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { stringify } from 'yaml';
import { buildSchema, proposeSchema, type BuiltSchema, type Proposal, type ProposedType, type TypeChoice } from '../config/infer.js';
import { CONFIG_FILE, SCHEMA_FILE, loadVaultConfig } from '../config/load.js';
import type { ParsedNote } from '../parse/types.js';
import { LayerMap } from '../model/layers.js';
import { readVault } from '../sync/engine.js';
import { atomicWrite, checkUnchanged, readVaultFile } from '../edit/safe-fs.js';
import { CoreError } from '../domain/errors.js';

export type { TypeChoice } from '../config/infer.js';

/** What writing one file would do: create it, nothing (same text), or replace it (diff to review). */
export interface FilePlan {
  file: string;
  status: 'new' | 'same' | 'differs';
  /** the text that would be written */
  text: string;
  /** unified diff current -> proposed, and sha256 of the current content (status differs) */
  diff?: string;
  hash?: string;
}

export interface SetupView extends BuiltSchema {
  candidates: ProposedType[];
  files: FilePlan[];
}

export interface AcceptResult {
  files: Array<{ file: string; status: 'written' | 'unchanged' | 'needs-confirm' }>;
  /** a file was written: the core must be reopened to re-type the world */
  reload: boolean;
  /** files left alone because their diff was not confirmed (review and accept again) */
  pending: FilePlan[];
}

/** The notes inference reads: the vault's notes under its lorecraft.yaml (excludes and templates applied). */
export async function readVaultNotes(vaultDir: string): Promise<{ notes: ParsedNote[]; titleField: string }> {
  const loaded = loadVaultConfig(vaultDir);
  const read = await readVault(vaultDir, new LayerMap(loaded.config), { titleField: loaded.schema.title_field });
  return { notes: read.read.notes, titleField: loaded.schema.title_field };
}

/** lorecraft.yaml for a vault set up by inference: one layer over the whole folder. */
export function inferredConfigText(vaultDir: string): string {
  return [
    '# Lorecraft vault settings (docs/vault-format.md). Written by the schema setup.',
    '# Template folders (_templates, templates, z_Templates, the folders named in .obsidian/)',
    '# and README/LICENSE/CONTRIBUTING at the root are left out of the world by default.',
    stringify({ project: basename(vaultDir), version: 1, layers: [{ name: 'main', paths: ['.'], canonical: true }], exclude: [] }, { lineWidth: 0 }),
  ].join('\n');
}

export class SchemaSetup {
  private cached: { key: unknown; notes: ParsedNote[]; titleField: string; proposal: Proposal } | null = null;

  /**
   * @param source the notes to infer from; `key` changes when they change (the core passes
   *   its model's version, so preview after preview does not re-read the vault)
   */
  constructor(readonly vaultDir: string, private readonly source: () => Promise<{ key: unknown; notes: ParsedNote[]; titleField: string }>) {}

  private async state() {
    const s = await this.source();
    if (!this.cached || this.cached.key !== s.key) this.cached = { ...s, proposal: proposeSchema(s.notes, s.titleField) };
    return this.cached;
  }

  async propose(): Promise<SetupView> {
    const { proposal } = await this.state();
    return { ...proposal, files: await this.plan(proposal.text) };
  }

  async preview(choices: TypeChoice[]): Promise<SetupView> {
    const st = await this.state();
    const unknown = choices.find((c) => !st.proposal.candidates.some((p) => p.id === c.id));
    if (unknown) throw new CoreError('invalid', `no proposed type '${unknown.id}' (propose again: the vault changed)`, { field: 'choices' });
    const bad = choices.find((c) => c.keep && !/^[A-Za-z][A-Za-z0-9_-]*$/.test(c.name.trim()));
    if (bad) throw new CoreError('invalid', `type name '${bad.name}' must start with a letter and hold only letters, digits, _ and -`, { field: 'name', id: bad.id });
    const built = buildSchema(st.notes, st.proposal.candidates, choices, st.titleField);
    return { ...built, candidates: st.proposal.candidates, files: await this.plan(built.text) };
  }

  async accept(choices: TypeChoice[], confirm: Record<string, string> = {}): Promise<AcceptResult> {
    const view = await this.preview(choices);
    const out: AcceptResult = { files: [], reload: false, pending: [] };
    for (const f of view.files) {
      if (f.status === 'same') { out.files.push({ file: f.file, status: 'unchanged' }); continue; }
      if (f.status === 'differs' && confirm[f.file] !== f.hash) {
        out.files.push({ file: f.file, status: 'needs-confirm' });
        out.pending.push(f);
        continue;
      }
      // the file must still be what was planned on (absent, or the reviewed content)
      await checkUnchanged(this.vaultDir, f.file, f.status === 'new' ? null : f.hash!);
      await atomicWrite(this.vaultDir, f.file, f.text);
      out.files.push({ file: f.file, status: 'written' });
      out.reload = true;
    }
    return out;
  }

  /** schema.yaml as proposed; lorecraft.yaml only when the vault has none (an existing one is kept as is). */
  private async plan(schemaText: string): Promise<FilePlan[]> {
    const out: FilePlan[] = [];
    const cfg = await readVaultFile(this.vaultDir, CONFIG_FILE);
    if (!cfg) out.push({ file: CONFIG_FILE, status: 'new', text: inferredConfigText(this.vaultDir) });
    const cur = await readVaultFile(this.vaultDir, SCHEMA_FILE);
    if (!cur) out.push({ file: SCHEMA_FILE, status: 'new', text: schemaText });
    else if (cur.text === schemaText) out.push({ file: SCHEMA_FILE, status: 'same', text: schemaText });
    else {
      out.push({
        file: SCHEMA_FILE, status: 'differs', text: schemaText, hash: cur.hash,
        diff: createTwoFilesPatch(`a/${SCHEMA_FILE}`, `b/${SCHEMA_FILE}`, cur.text, schemaText, undefined, undefined, { context: 3 }),
      });
    }
    return out;
  }
}

/** For a vault without an open core (`lorecraft init --infer`): reads the notes once. */
export function schemaSetupFor(vaultDir: string): SchemaSetup {
  let read: Promise<{ notes: ParsedNote[]; titleField: string }> | null = null;
  return new SchemaSetup(vaultDir, async () => ({ key: 0, ...(await (read ??= readVaultNotes(vaultDir))) }));
}
