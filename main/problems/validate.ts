/**
 * validate(): gather the problems other modules found, run the rules computed
 * here, apply schema.yaml `rules:` severities, and return a sorted report.
 * Pure over the model (+ timeline facts): it reads, never writes, never throws
 * because of one rule (a crashing rule becomes a `rule-failed` problem).
 */
import type { Problem } from '../../shared/types.js';
import type { ModelView } from '../sync/types.js';
import type { ProblemReport, Rule, RuleContext } from './types.js';
import type { TimelineFacts } from './timeline-facts.js';
import { allRules, computedRules } from './registry.js';
import { applySettings, buildReport, dedupe } from './report.js';

/** What validate needs: the model, and optionally the timeline. */
export interface ProblemsSource {
  model: ModelView;
  timeline?: TimelineFacts;
}

export interface ValidateOptions {
  /** run only these computed rules (tests); gathered problems are always included */
  rules?: Rule[];
  /** problems to add before severities are applied (e.g. a timeline that failed to build) */
  extra?: Problem[];
}

export function collectProblems(src: ProblemsSource, opts: ValidateOptions = {}): Problem[] {
  const gathered: Problem[] = [...src.model.problems(), ...(src.timeline?.problems() ?? [])];
  const ctx: RuleContext = src.timeline ? { model: src.model, timeline: src.timeline } : { model: src.model };
  const rules = opts.rules ?? computedRules();
  const computedCodes = new Set(rules.map((r) => r.code));
  // a code computed here supersedes the same code gathered from elsewhere (one finding, one problem)
  const out = gathered.filter((p) => !computedCodes.has(p.code));
  for (const rule of rules) {
    try {
      out.push(...rule.check(ctx));
    } catch (err) {
      out.push({
        severity: 'error', code: 'rule-failed',
        message: `rule ${rule.code} failed: ${err instanceof Error ? err.message : String(err)}`,
        hint: `turn it off with rules: { ${rule.code}: off } in schema.yaml meanwhile`,
      });
    }
  }
  return dedupe(out);
}

/** Codes in schema.yaml `rules:` that no rule knows and nothing reported. */
export function unknownRuleSettings(settings: Record<string, unknown>, seen: Iterable<string>): Problem[] {
  const known = new Set<string>([...allRules().map((r) => r.code), ...seen]);
  return Object.keys(settings).filter((c) => !known.has(c)).map((c) => ({
    severity: 'warning' as const, code: 'unknown-rule', field: `rules.${c}`,
    message: `schema.yaml rules: '${c}' is not a rule code`,
    hint: 'use a code listed by docs/validate.md (e.g. orphan, dangling-link, unknown-property)',
  }));
}

export function validateModel(src: ProblemsSource, opts: ValidateOptions = {}): ProblemReport {
  const settings = src.model.schema().rules;
  const raw = [...collectProblems(src, opts), ...(opts.extra ?? [])];
  const all = [...raw, ...unknownRuleSettings(settings, raw.map((p) => p.code))];
  return buildReport(applySettings(all, settings));
}
