/**
 * Filtering and paging over a ProblemReport: what MCP `get_problems` and the
 * app's `problems-list` call. Pure over the report.
 */
import { z } from 'zod';
import type { Problem } from '../../shared/types.js';
import type { ProblemReport, SeverityCounts } from './types.js';

export const ProblemQueryZ = z.object({
  /** only these severities (one or several); default all */
  severity: z.union([z.enum(['error', 'warning', 'info']), z.array(z.enum(['error', 'warning', 'info']))]).optional(),
  /** a vault-relative file path, or a folder prefix ending in '/' */
  file: z.string().optional(),
  /** only these rule codes */
  code: z.union([z.string(), z.array(z.string())]).optional(),
  /** only problems about this entity id */
  entityId: z.string().optional(),
  /** page size (default 100, max 1000) */
  limit: z.number().int().min(1).max(1000).optional(),
  /** opaque cursor from a previous page's nextCursor */
  cursor: z.string().optional(),
}).strict();

export type ProblemQuery = z.infer<typeof ProblemQueryZ>;

export interface ProblemPage {
  problems: Problem[];
  /** problems matching the filter (all pages) */
  total: number;
  /** counts of the matching problems by severity */
  counts: SeverityCounts;
  /** counts of the whole vault, unfiltered */
  vaultCounts: SeverityCounts;
  /** pass back as cursor for the next page; absent on the last page */
  nextCursor?: string;
}

const asList = <T>(v: T | T[] | undefined): T[] | null => (v === undefined ? null : Array.isArray(v) ? v : [v]);

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const n = /^o(\d+)$/.exec(cursor);
  if (!n) throw new Error(`invalid cursor '${cursor}': pass back the nextCursor of a previous page`);
  return Number(n[1]);
}

export function pageProblems(report: ProblemReport, query: ProblemQuery = {}): ProblemPage {
  const q = ProblemQueryZ.parse(query);
  const sev = asList(q.severity);
  const codes = asList(q.code);
  const file = q.file?.replace(/\\/g, '/').replace(/^\.\//, '');
  const match = (p: Problem) =>
    (!sev || sev.includes(p.severity)) &&
    (!codes || codes.includes(p.code)) &&
    (!q.entityId || p.entityId === q.entityId) &&
    (file === undefined || (file.endsWith('/') ? (p.file ?? '').startsWith(file) : p.file === file));
  const all = report.problems.filter(match);
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const p of all) counts[p.severity]++;
  const offset = decodeCursor(q.cursor);
  const limit = q.limit ?? 100;
  const page = all.slice(offset, offset + limit);
  const out: ProblemPage = { problems: page, total: all.length, counts, vaultCounts: report.counts };
  if (offset + limit < all.length) out.nextCursor = `o${offset + limit}`;
  return out;
}
