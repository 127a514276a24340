/**
 * lorecraft validate --vault DIR [--json] [--db DIR] [--config FILE] [--schema FILE]
 *
 * Lists problems grouped by file with line numbers and a one-line fix hint.
 * Exit 1 when any error-level problem remains after schema.yaml `rules:`,
 * 0 otherwise, 2 on usage (unknown option, no such vault folder).
 * Opens the vault through openCore (so the graph is synced too); when another
 * process holds the vault's database, validates from the files alone (validate
 * only needs the model) and says so on stderr.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliIo } from '../io.js';
import { parseArgs } from '../io.js';
import { progressLine } from '../progress.js';
import { CoreError, formatReport, openCore, problemReport, problemReportOfFiles, type ProblemReport } from '../../core/index.js';
import { VAULT_FLAGS, coreOptions, reportError } from './common.js';

const USAGE = 'usage: lorecraft validate --vault DIR [--json] [--db DIR] [--config FILE] [--schema FILE]';

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { flags, positionals, errors } = parseArgs(argv, { booleans: ['json', 'help'], strings: VAULT_FLAGS });
  if (flags.help) { io.out(USAGE); return 0; }
  if (errors.length || positionals.length) {
    for (const e of errors) io.err(`lorecraft validate: ${e}`);
    if (positionals.length) io.err(`lorecraft validate: unexpected argument '${positionals[0]}'`);
    io.err(USAGE);
    return 2;
  }
  const vaultDir = resolve(typeof flags.vault === 'string' ? flags.vault : '.');
  if (!existsSync(vaultDir) || !statSync(vaultDir).isDirectory()) {
    io.err(`lorecraft validate: ${vaultDir}: no such folder`);
    return 2;
  }
  const opts = { ...coreOptions(flags), vaultDir };
  const json = !!flags.json;
  let report: ProblemReport;
  try {
    const progress = progressLine(io); // files read / total on a terminal (stderr)
    const core = await openCore({ ...opts, ...(progress.onProgress ? { onProgress: progress.onProgress } : {}) }).finally(() => progress.end());
    try { report = problemReport(core); } finally { await core.close(); }
  } catch (err) {
    if (!(err instanceof CoreError && err.code === 'vault-locked')) { reportError(err, io, json); return 1; }
    io.err(`lorecraft validate: ${err.message}; validating from the files without the database`);
    try {
      report = await problemReportOfFiles(vaultDir, { ...(opts.configPath ? { configPath: opts.configPath } : {}), ...(opts.schemaPath ? { schemaPath: opts.schemaPath } : {}) });
    } catch (err2) { reportError(err2, io, json); return 1; }
  }
  if (json) io.out(JSON.stringify(report, null, 2));
  else for (const line of formatReport(report)) io.out(line);
  return report.counts.error > 0 ? 1 : 0;
}
