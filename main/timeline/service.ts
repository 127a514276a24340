/**
 * createTimeline(host): the timeline over a live vault. Reads the resolved
 * model (ModelView), builds the pure TimelineIndex lazily, and drops it on
 * every ChangeEvent so the next question rebuilds it once. All answers are
 * synchronous and cheap after the first (a scrubber step is a cached lookup
 * or one graph computation).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChangeEvent, Problem } from '../../shared/types.js';
import type { TimelineFacts } from '../problems/timeline-facts.js';
import type { ModelView } from '../sync/types.js';
import type { TimelineInput } from './compile.js';
import { eventSettings, type EventNoteInput } from './events.js';
import { readFrontmatterLines } from './source.js';
import { buildTimelineIndex, type TimelineIndex } from './timeline-index.js';
import type { TimelineOptions } from './types.js';

/** What the timeline needs from the core host (main/core/index.ts CoreHost satisfies it). */
export interface TimelineHost {
  readonly vaultDir: string;
  readonly engine: { readonly model: ModelView };
  onChange(fn: (e: ChangeEvent) => void): () => void;
}

/** The timeline of a live vault: the index's questions (rebuilt lazily on change), plus its lifecycle. */
export interface TimelineService extends Omit<TimelineIndex, 'resolve' | 'without' | 'baseRelationships'> {
  /** the adapter main/problems (validate) reads */
  facts(): TimelineFacts;
  /** the current index (rebuilt if the model changed since) */
  index(): TimelineIndex;
  /** event files' consequence lines by path and content hash (an index built over the same model reuses them) */
  readonly lines: LineCache;
  /** stop listening to the host */
  close(): void;
}

/**
 * Plain input for the pure index from a model. `vaultDir` lets event notes be
 * re-read for per-consequence line numbers (only when the bytes on disk still
 * hash to what the model read; otherwise the `consequences:` line is used).
 */
/** Consequence item lines by path, valid for one content hash: saves re-reading and re-parsing unchanged event files. */
export type LineCache = Map<string, { hash: string; itemLines: number[] }>;

export function timelineInputFromModel(model: ModelView, vaultDir?: string, options?: TimelineOptions, cache?: LineCache): TimelineInput {
  const schema = model.schema();
  const evType = eventSettings(schema).type;
  const events: EventNoteInput[] = [];
  for (const e of model.entities()) {
    if (e.type !== evType || e.placeholder || !e.path) continue;
    const note = model.note(e.path);
    if (!note) continue;
    const input: EventNoteInput = { id: e.id, name: e.name, path: e.path, layer: e.layer, frontmatter: note.frontmatter, fieldLines: note.fieldLines };
    const hit = cache?.get(e.path);
    if (hit && hit.hash === note.hash) input.itemLines = hit.itemLines;
    else if (vaultDir) {
      try {
        const bytes = readFileSync(path.join(vaultDir, e.path));
        if (createHash('sha256').update(bytes).digest('hex') === note.hash) {
          input.source = bytes.toString('utf8');
          if (cache) {
            input.itemLines = readFrontmatterLines(input.source).itemLines;
            cache.set(e.path, { hash: note.hash, itemLines: input.itemLines });
          }
        }
      } catch { /* file gone since the model read it: fall back to field lines */ }
    }
    events.push(input);
  }
  return {
    config: model.config(), schema,
    entities: [...model.entities()], relationships: [...model.edges()], events, options,
    fieldLine: (p, f) => model.note(p)?.fieldLines[f],
  };
}

/** Problems the timeline finds in a model (layer rules, event and consequence problems), for validate / Core. */
export function timelineProblems(model: ModelView, vaultDir?: string): Problem[] {
  return buildTimelineIndex(timelineInputFromModel(model, vaultDir)).problems();
}

/** TimelineFacts (main/problems/timeline-facts.ts) over an index. */
export function timelineFacts(ix: TimelineIndex, campaignLayers: string[]): TimelineFacts {
  return {
    campaignLayers: () => [...campaignLayers],
    events: (layer) => ix.timeline(layer),
    sessions: (layer) => ix.sessions(layer).map((s) => s.session),
    stateAt: (layer, session) => ix.graphAt(layer, session),
    problems: () => ix.problems(),
  };
}

export function createTimeline(host: TimelineHost, options?: TimelineOptions): TimelineService {
  let current: TimelineIndex | null = null;
  const lines: LineCache = new Map();
  const off = host.onChange(() => { current = null; });
  const index = (): TimelineIndex => {
    if (!current) current = buildTimelineIndex(timelineInputFromModel(host.engine.model, host.vaultDir, options, lines));
    return current;
  };
  return {
    layers: () => index().layers(),
    sessions: (layer) => index().sessions(layer),
    timeline: (layer, q) => index().timeline(layer, q),
    chronicle: (layer) => index().chronicle(layer),
    stateAt: (entity, layer, session) => index().stateAt(entity, layer, session),
    graphAt: (layer, session) => index().graphAt(layer, session),
    frame: (layer, session) => index().frame(layer, session),
    diff: (layer, from, to) => index().diff(layer, from, to),
    problems: () => index().problems(),
    relationshipHistory: (layer, a, b, type) => index().relationshipHistory(layer, a, b, type),
    facts: () => timelineFacts(index(), host.engine.model.config().layers.filter((l) => !l.canonical).map((l) => l.name)),
    index,
    lines,
    close: off,
  };
}
