/** Severity overrides, sorting and counting: pure functions over Problem lists. */
import type { Problem, Severity } from '../../shared/types.js';
import type { Schema } from '../config/types.js';
import type { ProblemReport, SeverityCounts } from './types.js';
import { SEVERITY_RANK } from './types.js';

export type RuleSetting = Schema['rules'][string];

/**
 * Apply schema.yaml `rules:` to problems: a severity replaces the problem's,
 * `off` / `false` drops it, `true` keeps the producer's severity.
 */
export function applySettings(problems: Problem[], settings: Record<string, RuleSetting>): Problem[] {
  const out: Problem[] = [];
  for (const p of problems) {
    const s = Object.prototype.hasOwnProperty.call(settings, p.code) ? settings[p.code] : undefined;
    if (s === 'off' || s === false) continue;
    if (s === 'error' || s === 'warning' || s === 'info') out.push(s === p.severity ? p : { ...p, severity: s });
    else out.push(p);
  }
  return out;
}

export function compareProblems(a: Problem, b: Problem): number {
  // problems without a file (config, vault-wide) come last
  if ((a.file === undefined) !== (b.file === undefined)) return a.file === undefined ? 1 : -1;
  if (a.file !== b.file) return (a.file ?? '') < (b.file ?? '') ? -1 : 1;
  const la = a.line ?? 0;
  const lb = b.line ?? 0;
  if (la !== lb) return la - lb;
  const sa = SEVERITY_RANK[a.severity];
  const sb = SEVERITY_RANK[b.severity];
  if (sa !== sb) return sa - sb;
  if (a.code !== b.code) return a.code < b.code ? -1 : 1;
  if ((a.field ?? '') !== (b.field ?? '')) return (a.field ?? '') < (b.field ?? '') ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

/** Same rule, same place, same text: one problem. */
export function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const p of problems) {
    const k = [p.code, p.file ?? '', p.line ?? '', p.field ?? '', p.message].join('\u0000');
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(p);
  }
  return out;
}

export function emptyCounts(): SeverityCounts {
  return { error: 0, warning: 0, info: 0 };
}

/** Sort, count per severity, per file and per rule. */
export function buildReport(problems: Problem[]): ProblemReport {
  const sorted = [...problems].sort(compareProblems);
  const counts = emptyCounts();
  const files: Record<string, SeverityCounts> = {};
  const rules: Record<string, { severity: Severity; count: number }> = {};
  for (const p of sorted) {
    counts[p.severity]++;
    const f = p.file ?? '';
    (files[f] ??= emptyCounts())[p.severity]++;
    const r = rules[p.code];
    // a code's severity is uniform after overrides; without one, report the most severe seen
    if (!r) rules[p.code] = { severity: p.severity, count: 1 };
    else { r.count++; if (SEVERITY_RANK[p.severity] < SEVERITY_RANK[r.severity]) r.severity = p.severity; }
  }
  return { problems: sorted, counts, files, rules };
}
