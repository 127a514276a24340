/** Human-readable rendering of a ProblemReport (lorecraft validate). Pure. */
import type { ProblemReport, SeverityCounts } from './types.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summaryLine(c: SeverityCounts): string {
  const total = c.error + c.warning + c.info;
  if (total === 0) return 'no problems';
  return `${plural(total, 'problem')}: ${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${c.info} info`;
}

/**
 * Problems grouped by file (in report order), each as
 * `  LINE[:FIELD]  SEVERITY  CODE  message` with the fix hint on the next line.
 */
export function formatReport(report: ProblemReport): string[] {
  const lines: string[] = [];
  let current: string | null = null;
  for (const p of report.problems) {
    const file = p.file ?? '(vault)';
    if (file !== current) {
      if (current !== null) lines.push('');
      lines.push(file);
      current = file;
    }
    const where = `${p.line ?? '-'}${p.field ? `:${p.field}` : ''}`;
    lines.push(`  ${where.padEnd(14)} ${p.severity.padEnd(7)} ${p.code.padEnd(24)} ${p.message}`);
    if (p.hint) lines.push(`  ${''.padEnd(14)} ${''.padEnd(7)} ${''.padEnd(24)} fix: ${p.hint}`);
  }
  if (lines.length) lines.push('');
  lines.push(summaryLine(report.counts));
  return lines;
}
