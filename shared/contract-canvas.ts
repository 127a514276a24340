/**
 * The `canvas-*` handler group: the canvas's node positions, kept in
 * `<vault>/.lorecraft/canvas.json` (never in the notes; written atomically):
 * user pins (`positions`, fixed for every layout) and where the last layout
 * put every other node (`layout`, so a reload never lays out again).
 * Keys are entity ids; a position is in Cytoscape model coordinates.
 */
import { z } from 'zod';
import { handler } from './schemas.js';
import { AudienceZ } from './contract-view.js';

export const PositionZ = z.object({ x: z.number().finite(), y: z.number().finite() }).strict();
export type Position = z.infer<typeof PositionZ>;
export const PositionsZ = z.record(z.string().min(1), PositionZ);
export type Positions = z.infer<typeof PositionsZ>;

/** The file's shape (version 1; `layout` added later, optional). */
export const CanvasFileZ = z.object({ version: z.literal(1), positions: PositionsZ, layout: PositionsZ.optional() });

const ChangesZ = z.record(z.string().min(1), PositionZ.nullable());

export const canvasHandlers = {
  /** every pin and saved layout position; `problem` says why an unreadable canvas.json was ignored */
  'canvas-positions-get': handler(z.object({ audience: AudienceZ.optional() }).strict(),
    z.object({ positions: PositionsZ, layout: PositionsZ, problem: z.string().optional() })),
  /**
   * Pin (a position) or unpin (null) entities, merged into what is saved;
   * `replace: true` drops every other pin first. `layout` likewise for the
   * saved layout positions (`replaceLayout: true`: the whole picture).
   * Returns how many are pinned and how many have a saved layout position.
   */
  'canvas-positions-set': handler(
    z.object({
      positions: ChangesZ, replace: z.boolean().optional(),
      layout: ChangesZ.optional(), replaceLayout: z.boolean().optional(),
    }).strict(),
    z.object({ count: z.number(), laidOut: z.number() }),
  ),
  /** node importance: entity id -> PageRank over every relationship (Kùzu), cached per model version */
  'canvas-importance': handler(z.object({ audience: AudienceZ.optional() }).strict(), z.object({ ranks: z.record(z.string(), z.number()) })),
};
