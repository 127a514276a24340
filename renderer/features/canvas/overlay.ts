/**
 * The timeline's overlay on the canvas: what the world looked like at one
 * session. Engineer J's scrubber computes it and calls
 * `useApp.getState().setCanvasOverlay(o)`; `null` clears it. The canvas's
 * elements function (elements.ts) styles each status and edge change, and
 * every node/edge carries its status in `data.status`, mirrored as
 * `data-status` on the canvas's accessible list (tests read that).
 *
 * Contract (stable; add fields, don't change meanings):
 * - `session`: the session shown, or null for "a point not tied to a session".
 * - `entities[id].status`: 'alive' (exists and is active), 'dead' (a being who
 *   died), 'destroyed' (a thing/place destroyed), 'not-yet-created' (does not
 *   exist yet at that point), 'created' (came into being at that session).
 *   Entities missing from the map are drawn normally. `note` is shown as a
 *   tooltip (e.g. the event that changed it).
 * - `addedEdges`: relationships that hold at that point but not in the
 *   current files (or were added by that session) — drawn highlighted, and
 *   added to the canvas when absent from the current graph.
 * - `removedEdges`: relationships present now but not at that point (or
 *   ended by that session) — drawn dashed and faded.
 * Edge endpoints are entity ids; `type` is the stored relationship type.
 */
export type OverlayStatus = 'alive' | 'dead' | 'destroyed' | 'not-yet-created' | 'created';

export interface OverlayEdge { from: string; to: string; type: string }

export type CanvasOverlay = {
  session: number | null;
  entities: Record<string, { status: OverlayStatus; note?: string }>;
  addedEdges: OverlayEdge[];
  removedEdges: OverlayEdge[];
} | null;

export const OVERLAY_STATUSES: readonly OverlayStatus[] = ['alive', 'dead', 'destroyed', 'not-yet-created', 'created'];
