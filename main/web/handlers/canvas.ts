/**
 * The `canvas-*` group (shared/contract-canvas.ts): pins and saved layout
 * positions in `<vault>/.lorecraft/canvas.json`, stored by the domain module
 * main/canvas/positions.ts; the node importance (PageRank) from the core.
 */
import type { canvasHandlers } from '../../../shared/contract-canvas.js';
import { changeCanvas, readCanvas } from '../../canvas/positions.js';
import type { CoreSession } from '../session.js';
import type { Group } from './vault.js';

export { CANVAS_FILE } from '../../canvas/positions.js';

export function canvasGroup(session: CoreSession): Group<typeof canvasHandlers> {
  return {
    'canvas-positions-get': async () => readCanvas(session.current().vaultDir),
    'canvas-positions-set': async (change) => changeCanvas(session.current().vaultDir, change),
    'canvas-importance': async () => ({ ranks: await session.current().importance() }),
  };
}
