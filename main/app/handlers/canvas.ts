/**
 * The `canvas-*` group (shared/contract-canvas.ts): pinned node positions, kept by the core
 * (main/core/canvas.ts: `<vault>/.lorecraft/canvas.json`, read-merge-write in one queue).
 */
import type { canvasHandlers } from '../../../shared/contract-canvas.js';
import type { CoreSession } from '../../core/index.js';
import type { Group } from './vault.js';
import { audienceOf, reads } from './view.js';

export { CANVAS_FILE } from '../../core/index.js';

export function canvasGroup(session: CoreSession): Group<typeof canvasHandlers> {
  return {
    'canvas-positions-get': async ({ audience }) => {
      const core = session.current();
      const all = await core.canvasPositions();
      if (audienceOf(core, audience) === 'gm') return all;
      // keys are entity ids, which carry names: only those of entities players see
      const ranks = await reads(session, 'players').graph();
      const seen = new Set(ranks.nodes.map((n) => n.id));
      const only = (p: Record<string, { x: number; y: number }> | undefined) => Object.fromEntries(Object.entries(p ?? {}).filter(([id]) => seen.has(id)));
      return { positions: only(all.positions), layout: only(all.layout) };
    },
    'canvas-positions-set': async (change) => session.current().setCanvasPositions(change),
    'canvas-importance': async ({ audience }) => ({ ranks: await reads(session, audience).importance() }),
  };
}
