/**
 * `lorecraft sync --vault DIR [--full] [--json] [--db DIR] [--config FILE] [--schema FILE]`
 * Brings the graph up to date (incremental by content hash unless --full or
 * the schema changed) and waits for the search index. Prints entities,
 * relationships, placeholders, problems, ms (JSON: exactly those keys, plus
 * errors, full, changedFiles, searchReadyMs). Exit 1 when any problem is an error.
 */
import type { Problem } from '../../../shared/types.js';
import { parseArgs, type CliIo } from '../io.js';
import { progressLine } from '../progress.js';
import { VAULT_FLAGS, coreOptions, openOrFail, reportError } from './common.js';

const USAGE = 'usage: lorecraft sync [--vault DIR] [--full] [--json] [--db DIR] [--config FILE] [--schema FILE]';

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { flags, positionals, errors } = parseArgs(argv, { booleans: ['full', 'json', 'help'], strings: VAULT_FLAGS });
  if (flags.help) { io.out(USAGE); return 0; }
  if (errors.length || positionals.length) {
    io.err(`lorecraft sync: ${[...errors, ...positionals.map((p) => `unexpected argument '${p}'`)].join('; ')}`);
    io.err(USAGE);
    return 2;
  }
  const json = !!flags.json;
  // openCore runs the sync (reading the notes while the database opens); a failed sync exits 1 like a failed open
  // on a terminal: files read / total, then "indexing search…" until the search index is ready (stderr)
  const progress = progressLine(io);
  const core = await openOrFail({ ...coreOptions(flags), full: !!flags.full }, io, json, progress);
  if (typeof core === 'number') return core;
  try {
    const r = core.status().lastSync;
    if (!r) throw new Error('the sync left no report');
    await core.searchReady().finally(() => progress.end());
    // every rule's problems (model + main/problems), not only the model's
    const problems = core.problems();
    const errors = problems.filter((p) => p.severity === 'error').length;
    const searchReadyMs = core.engine.timings.searchReadyMs;
    if (json) {
      io.out(JSON.stringify({
        entities: r.entities, relationships: r.relationships, placeholders: r.placeholders, problems: problems.length, ms: r.ms,
        errors, full: r.full, changedFiles: r.changedFiles, searchReadyMs: searchReadyMs === null ? null : Math.round(searchReadyMs),
      }));
    } else {
      io.out(`${r.entities} entities, ${r.relationships} relationships, ${r.placeholders} placeholders, ${problems.length} problems (${errors} errors) in ${r.ms} ms` +
        ` (${r.full ? 'full rebuild' : `${r.changedFiles} changed files`})`);
      printProblems(problems, io);
    }
    return errors > 0 ? 1 : 0;
  } catch (err) {
    reportError(err, io, json);
    return 1;
  } finally {
    await core.close();
  }
}

/** Errors in full, warnings counted by rule (lorecraft validate lists everything). */
function printProblems(problems: Problem[], io: CliIo): void {
  const errs = problems.filter((p) => p.severity === 'error');
  const shown = errs.slice(0, 50);
  for (const p of shown) io.out(`  error ${p.file ?? ''}${p.line ? `:${p.line}` : ''} [${p.code}] ${p.message}`);
  if (errs.length > shown.length) io.out(`  ... and ${errs.length - shown.length} more errors (lorecraft validate lists all)`);
  const counts = new Map<string, number>();
  for (const p of problems) if (p.severity !== 'error') counts.set(`${p.severity} ${p.code}`, (counts.get(`${p.severity} ${p.code}`) ?? 0) + 1);
  for (const [k, n] of [...counts].sort()) io.out(`  ${n} × ${k}`);
}
