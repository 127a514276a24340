/**
 * The `view-*` and `export-*` handler groups (issue 17): the app's players' view and export from its menu.
 *
 * - `view-set` switches the open vault's view between the GM's and the players' at (layer, session). While it
 *   is 'players' the core refuses every write the app makes ('forbidden') and forms (`edit-form`); the reads
 *   that take `audience` (entity-*, search-query, graph-snapshot, relations-get, problems-list, timeline-*,
 *   canvas-importance, canvas-positions-get) answer as the players see the world at that layer and session,
 *   through the same redaction as the exports. A read made while the view is the players' is the players'
 *   whatever `audience` it names.
 * - `export-run` is `lorecraft export` for the open vault: the same export, written to `out` (an absolute
 *   path outside the vault: a folder for `site`, a file otherwise).
 */
import { z } from 'zod';
import { EXPORT_FORMAT_NAMES } from './export-formats.js';
import { handler } from './schemas.js';

export const AudienceZ = z.enum(['gm', 'players']);
export type AudienceName = z.infer<typeof AudienceZ>;

export const ViewStateZ = z.object({ audience: AudienceZ, layer: z.string().nullable(), session: z.number().int().nullable() });
export type ViewState = z.infer<typeof ViewStateZ>;

export { EXPORT_FORMAT_NAMES } from './export-formats.js';

export const viewHandlers = {
  'view-set': handler(
    z.object({ audience: AudienceZ, layer: z.string().min(1).nullable().optional(), session: z.number().int().nullable().optional() }).strict(),
    ViewStateZ,
  ),
  'view-get': handler(z.object({}).strict(), ViewStateZ),
  'export-run': handler(
    z.object({
      format: z.enum(EXPORT_FORMAT_NAMES), audience: AudienceZ,
      layer: z.string().min(1).optional(), session: z.number().int().min(0).nullable().optional(),
      focus: z.string().min(1).optional(), depth: z.number().int().min(1).max(6).optional(),
      out: z.string().min(1),
    }).strict(),
    z.object({ format: z.string(), audience: AudienceZ, layer: z.string(), session: z.number().nullable(), entities: z.number(), written: z.array(z.string()), out: z.string() }),
  ),
};
