/**
 * main/timeline: layers, events, consequences, state at (layer, session), diffs.
 * Pure core: buildTimelineIndex(plain data). Live vault: createTimeline(host).
 */
export { buildTimelineIndex, type TimelineIndex } from './timeline-index.js';
export { createTimeline, timelineFacts, timelineInputFromModel, timelineProblems, type TimelineHost, type TimelineService } from './service.js';
export type { TimelineInput } from './compile.js';
export type { EventNoteInput } from './events.js';
export { eventSettings } from './events.js';
export { parseInWorldDate, compareDates, parseSession } from './dates.js';
export { layerScope, layerProblems } from './layers.js';
export { heldAt } from './history.js';
export { formatDiff, formatState, formatTimeline } from './format.js';
export type * from './types.js';
