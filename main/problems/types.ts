/**
 * Contract of the problems module (main/problems): the rule registry, the
 * report that `lorecraft validate`, the Problems panel and MCP `get_problems`
 * all read.
 *
 * A rule is a pure function over the resolved model (ModelView) and, for the
 * layer/continuity rules, the timeline facts. Problems that other modules
 * already find (parser, config, model, timeline) are gathered, not recomputed;
 * every problem, gathered or computed, then gets the severity the schema's
 * `rules:` map gives its code (or is dropped when the code is `off`).
 */
import type { Problem, Severity } from '../../shared/types.js';
import type { ModelView } from '../sync/types.js';
import type { TimelineFacts } from './timeline-facts.js';

/** Which module finds problems with this code. */
export type RuleOrigin = 'parse' | 'config' | 'model' | 'timeline' | 'problems';

export interface RuleInfo {
  /** stable code, used in schema.yaml `rules:` and in every Problem */
  code: string;
  defaultSeverity: Severity;
  origin: RuleOrigin;
  /** one line: what the rule finds */
  summary: string;
  /** one line: the usual fix (a problem may carry a more specific hint) */
  hint: string;
}

/** What a computed rule sees. */
export interface RuleContext {
  model: ModelView;
  /** absent when the vault has no campaign layer or the timeline could not be built */
  timeline?: TimelineFacts;
}

/** A rule computed here (main/problems/rules/*). Problems it returns carry its default severity. */
export interface Rule extends RuleInfo {
  check(ctx: RuleContext): Problem[];
}

export interface SeverityCounts {
  error: number;
  warning: number;
  info: number;
}

export interface ProblemReport {
  /** sorted: by file (problems without a file last), then line, severity, code */
  problems: Problem[];
  counts: SeverityCounts;
  /** per file (vault-relative path; '' for problems not tied to a file) */
  files: Record<string, SeverityCounts>;
  /** per rule code that produced at least one problem: its effective severity and count */
  rules: Record<string, { severity: Severity; count: number }>;
}

export const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
