/**
 * The problems module's surface: what `lorecraft validate`, the app's Problems
 * panel (`problems-list`) and MCP `get_problems` call.
 *
 *   validate(host, timeline?)        -> ProblemReport  (whole report, severities applied)
 *   listProblems(host, query, tl?)   -> ProblemPage    (filtered, paged)
 *   problemsService(host, tl?)       -> cached report, recomputed after a ChangeEvent
 *
 * `host` is the core host (main/core CoreHost): only its vault folder, its
 * engine's model and (for the service) onChange are used.
 */
import type { ChangeEvent, Problem } from '../../shared/types.js';
import type { ModelView } from '../sync/types.js';
import { timelineFacts, timelineInputFromModel } from '../timeline/service.js';
import { buildTimelineIndex } from '../timeline/timeline-index.js';
import { pageProblems, type ProblemPage, type ProblemQuery } from './list.js';
import type { TimelineFacts } from './timeline-facts.js';
import type { ProblemReport } from './types.js';
import { validateModel, type ValidateOptions } from './validate.js';

export type { ProblemReport, SeverityCounts, RuleInfo } from './types.js';
export type { ProblemPage, ProblemQuery } from './list.js';
export { ProblemQueryZ, pageProblems } from './list.js';
export { allRules } from './registry.js';
export { formatReport, summaryLine } from './format.js';
export type { TimelineFacts } from './timeline-facts.js';

export interface ProblemsHost {
  readonly vaultDir: string;
  /** `version` (the model's change counter, when it has one) also invalidates the service's cache */
  readonly engine: { readonly model: ModelView & { readonly version?: number } };
  onChange?(fn: (e: ChangeEvent) => void): () => void;
}

/** The timeline service (main/timeline createTimeline) or bare facts. */
export type TimelineLike = TimelineFacts | { facts(): TimelineFacts };

function factsOf(t: TimelineLike): TimelineFacts {
  return 'facts' in t ? t.facts() : t;
}

/** Timeline facts for a one-off validate when the caller has no timeline service. */
export function timelineFactsFor(host: ProblemsHost): TimelineFacts {
  const model = host.engine.model;
  const ix = buildTimelineIndex(timelineInputFromModel(model, host.vaultDir));
  return timelineFacts(ix, model.config().layers.filter((l) => !l.canonical).map((l) => l.name));
}

export function validate(host: ProblemsHost, timeline?: TimelineLike, opts: ValidateOptions = {}): ProblemReport {
  const model = host.engine.model;
  let facts: TimelineFacts | undefined;
  const extra: Problem[] = [...(opts.extra ?? [])];
  try {
    facts = timeline ? factsOf(timeline) : timelineFactsFor(host);
  } catch (err) {
    // the timeline could not be built: say so and validate the rest
    extra.push({
      severity: 'error', code: 'rule-failed',
      message: `the timeline could not be built: ${err instanceof Error ? err.message : String(err)}`,
      hint: 'continuity and layer rules were skipped; please report this',
    });
  }
  return validateModel(facts ? { model, timeline: facts } : { model }, { ...opts, extra });
}

export function listProblems(host: ProblemsHost, query: ProblemQuery = {}, timeline?: TimelineLike): ProblemPage {
  return pageProblems(validate(host, timeline), query);
}

export interface ProblemsService {
  /** the current report (computed on first use after a change) */
  report(): ProblemReport;
  list(query?: ProblemQuery): ProblemPage;
  close(): void;
}

/**
 * A cached report for long-lived hosts (app, MCP): dropped on every ChangeEvent,
 * recomputed once on the next question.
 */
export function problemsService(host: ProblemsHost, timeline?: TimelineLike): ProblemsService {
  let cached: ProblemReport | null = null;
  let version: number | undefined;
  const off = host.onChange ? host.onChange(() => { cached = null; }) : () => {};
  const report = () => {
    const v = host.engine.model.version;
    if (!cached || v !== version) { cached = validate(host, timeline); version = v; }
    return cached;
  };
  return {
    report,
    list: (q = {}) => pageProblems(report(), q),
    close: off,
  };
}
