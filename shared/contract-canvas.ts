/**
 * The `canvas-*` handler group: the canvas's user-pinned node positions, kept
 * in `<vault>/.lorecraft/canvas.json` (never in the notes; written atomically).
 * Keys are entity ids; a position is in Cytoscape model coordinates.
 */
import { z } from 'zod';
import { handler } from './schemas.js';

export const PositionZ = z.object({ x: z.number().finite(), y: z.number().finite() }).strict();
export type Position = z.infer<typeof PositionZ>;
export const PositionsZ = z.record(z.string().min(1), PositionZ);
export type Positions = z.infer<typeof PositionsZ>;

/** The file's shape (version 1). */
export const CanvasFileZ = z.object({ version: z.literal(1), positions: PositionsZ });

export const canvasHandlers = {
  /** every pinned position; `problem` says why an unreadable canvas.json was ignored */
  'canvas-positions-get': handler(z.object({}).strict(), z.object({ positions: PositionsZ, problem: z.string().optional() })),
  /**
   * Pin (a position) or unpin (null) entities, merged into what is saved;
   * `replace: true` drops every other pin first. Returns how many are pinned.
   */
  'canvas-positions-set': handler(
    z.object({ positions: z.record(z.string().min(1), PositionZ.nullable()), replace: z.boolean().optional() }).strict(),
    z.object({ count: z.number() }),
  ),
};
