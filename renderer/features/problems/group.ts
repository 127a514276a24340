/**
 * Pure view-model of the Problems panel: problems (sorted by file and line by
 * main) filtered by severity, errors first, and grouped by file, with a row budget so
 * a vault with thousands of problems still renders quickly.
 */
import type { Problem, Severity } from '../../../shared/types.js';

export interface SeverityCounts { error: number; warning: number; info: number }

export interface ProblemGroup {
  /** vault-relative path, or '' for problems not tied to a file */
  file: string;
  counts: SeverityCounts;
  problems: Problem[];
  /** problems of this file not shown because of the row budget */
  hidden: number;
}

export function countBySeverity(problems: Problem[]): SeverityCounts {
  const c: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const p of problems) c[p.severity]++;
  return c;
}

export function groupProblems(problems: Problem[], show: Record<Severity, boolean>, budget = Infinity): ProblemGroup[] {
  const groups: ProblemGroup[] = [];
  const byFile = new Map<string, ProblemGroup>();
  let left = budget;
  // errors before warnings before infos (stable: main's file and line order within a severity), so files with
  // errors come first and, within a file, its errors
  const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  const ordered = problems.map((p, i) => ({ p, i })).sort((a, b) => rank[a.p.severity] - rank[b.p.severity] || a.i - b.i).map((x) => x.p);
  for (const p of ordered) {
    if (!show[p.severity]) continue;
    const file = p.file ?? '';
    let g = byFile.get(file);
    if (!g) { g = { file, counts: { error: 0, warning: 0, info: 0 }, problems: [], hidden: 0 }; byFile.set(file, g); groups.push(g); }
    g.counts[p.severity]++;
    if (left > 0) { g.problems.push(p); left--; } else g.hidden++;
  }
  // problems without a file (vault-wide config problems) last, like the CLI
  return groups.filter((g) => g.file !== '').concat(groups.filter((g) => g.file === ''));
}

/** Where clicking a problem goes: an entity id or name the entity panel can open, or null. */
export function problemTarget(p: Problem): string | null {
  if (p.entityId) return p.entityId;
  if (p.file && p.file.endsWith('.md')) return p.file.slice(0, -3);
  return null;
}

/** `"` and `\` escaped for a CSS attribute selector value in double quotes. */
export function cssAttr(value: string): string {
  return value.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ');
}

/**
 * CSS selectors of the entity panel elements that show `field`: its property
 * row, the relation items a mapped field produced, or the header part for
 * reserved fields.
 */
export function fieldSelectors(field: string): string[] {
  const panel = '[data-testid="entity-panel"]';
  const f = cssAttr(field);
  const sel = [
    `${panel} tr[data-key="${f}"]`,
    `${panel} [data-testid="relation-item"][title*="field “${f}” in"]`,
  ];
  if (field === 'aliases' || field === 'alias') sel.push(`${panel} .aliases`);
  if (field === 'type') sel.push(`${panel} [data-testid="entity-type"]`);
  if (field === 'title') sel.push(`${panel} [data-testid="entity-name"]`);
  return sel;
}
