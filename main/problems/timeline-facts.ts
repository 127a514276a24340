/**
 * What the continuity rules need from the timeline (main/timeline): per
 * campaign layer, its events in application order and the world state after a
 * session. The timeline module computes these; the rules only read them.
 */
import type { Problem } from '../../shared/types.js';
import type { GraphState, TimelineEvent } from '../timeline/types.js';

export interface TimelineFacts {
  /** non-canonical layers (those that have a timeline) */
  campaignLayers(): string[];
  /** events of the layer's scope, in application order (session, date, path) */
  events(layer: string): TimelineEvent[];
  /** sessions that have at least one event, ascending */
  sessions(layer: string): number[];
  /** state after every event up to and including `session` */
  stateAt(layer: string, session: number): GraphState;
  /** problems the timeline found (cross-layer edits, bad consequences, ...) */
  problems(): Problem[];
}
