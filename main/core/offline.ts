/**
 * What the core offers without opening a vault's database (no lock taken, so these run beside an
 * app holding it): the problem report and the timeline of the files alone (the one files-only
 * loader, main/sync/load-model.ts), the export, and the text formatters of reports.
 */
import type { LoadOptions } from '../config/load.js';
import { validate, type ProblemReport, type ProblemsHost } from '../problems/index.js';
import { loadVaultModel } from '../sync/load-model.js';
import { buildTimelineIndex, timelineInputFromModel, type TimelineIndex } from '../timeline/index.js';
import type { Problem } from '../../shared/types.js';
import type { VaultConfig } from '../config/types.js';
import { exportWorld, type ExportOptions, type ExportResult } from '../export/index.js';

export { CONFIG_FILE, SCHEMA_FILE, type LoadOptions } from '../config/load.js';
export { formatReport, type ProblemReport } from '../problems/index.js';
export { formatDiff, formatState, formatTimeline, type TimelineIndex } from '../timeline/index.js';

/** The full problem report (model + rules of main/problems) of an open core or of a files-only model. */
export function problemReport(host: ProblemsHost): ProblemReport {
  return validate(host);
}

/** The problem report of the vault's files alone, without the database. */
export async function problemReportOfFiles(vaultDir: string, opts: LoadOptions = {}): Promise<ProblemReport> {
  return validate(await loadVaultModel(vaultDir, opts));
}

/** The timeline of the vault's files alone, without the database. */
export async function timelineOfFiles(vaultDir: string, opts: LoadOptions = {}): Promise<{ index: TimelineIndex; config: VaultConfig; problems: Problem[] }> {
  const v = await loadVaultModel(vaultDir, opts);
  return { index: buildTimelineIndex(timelineInputFromModel(v.model, v.vaultDir)), config: v.model.config(), problems: v.problems };
}

export { EXPORT_FORMATS, writeExport, type ExportFormat, type ExportOptions, type ExportResult } from '../export/index.js';

/** Export the world from the vault's files alone (main/export), without the database. */
export async function exportOfFiles(vaultDir: string, opts: LoadOptions, o: ExportOptions): Promise<ExportResult> {
  const v = await loadVaultModel(vaultDir, opts);
  return exportWorld(timelineInputFromModel(v.model, v.vaultDir), o);
}
