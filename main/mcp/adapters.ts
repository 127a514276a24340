/**
 * The small surfaces the MCP tools need from the write-back editor
 * (main/edit) and the timeline (main/timeline). The factory is handed objects
 * with these shapes; the timeline's are the timeline contract's own types.
 */
import type { EntityStateView, TimelineEvent, TimelineQuery } from '../core/index.js';

export interface WriteChange { path: string; diff: string }
export interface WriteResult { changed: WriteChange[]; entityId?: string }

export interface McpEditor {
  createEntity(a: { name: string; type: string; layer?: string; properties?: Record<string, unknown>; body?: string }): Promise<WriteResult>;
  updateEntity(a: { name: string; layer?: string; set?: Record<string, unknown>; unset?: string[] }): Promise<WriteResult>;
  addRelationship(a: { from: string; type: string; to: string; layer?: string; properties?: Record<string, unknown> }): Promise<WriteResult>;
  removeRelationship(a: { from: string; type: string; to: string; layer?: string }): Promise<WriteResult>;
  /** move a file from the vault's trash back to where it was */
  restoreFromTrash(a: { trash_path: string }): Promise<WriteResult & { path: string }>;
  recordEvent(a: {
    layer: string; title: string; session: number; date_in_world?: string;
    participants?: string[]; location?: string; consequences?: Record<string, unknown>[]; body?: string;
  }): Promise<WriteResult>;
}

type MaybePromise<T> = T | Promise<T>;

/** What the time tools call (main/timeline's TimelineIndex has exactly these). */
export interface McpTimeline {
  stateAt(entity: string, layer: string, session?: number | null): MaybePromise<EntityStateView | null>;
  timeline(layer: string, q?: TimelineQuery): MaybePromise<TimelineEvent[]>;
}
