/**
 * The `canvas-*` group (shared/contract-canvas.ts): pinned node positions, kept by the core
 * (main/core/canvas.ts: `<vault>/.lorecraft/canvas.json`, read-merge-write in one queue).
 */
import type { canvasHandlers } from '../../../shared/contract-canvas.js';
import type { CoreSession } from '../../core/index.js';
import type { Group } from './vault.js';

export { CANVAS_FILE } from '../../core/index.js';

export function canvasGroup(session: CoreSession): Group<typeof canvasHandlers> {
  return {
    'canvas-positions-get': async () => session.current().canvasPositions(),
    'canvas-positions-set': async (change) => session.current().setCanvasPositions(change),
    'canvas-importance': async () => ({ ranks: await session.current().importance() }),
  };
}
