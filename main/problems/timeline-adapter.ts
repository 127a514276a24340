/** TimelineFacts over the timeline module's TimelineIndex (main/timeline). */
import type { VaultConfig } from '../config/types.js';
import type { TimelineIndex } from '../timeline/timeline-index.js';
import type { TimelineFacts } from './timeline-facts.js';

export function timelineFacts(index: TimelineIndex, config: VaultConfig): TimelineFacts {
  const campaign = config.layers.filter((l) => !l.canonical).map((l) => l.name);
  return {
    campaignLayers: () => index.layers().filter((l) => campaign.includes(l)),
    events: (layer) => index.timeline(layer),
    sessions: (layer) => index.sessions(layer).map((s) => s.session),
    stateAt: (layer, session) => index.graphAt(layer, session),
    problems: () => index.problems(),
  };
}
