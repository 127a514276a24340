/**
 * The renderer's one zustand store, combined from feature slices
 * (`StateCreator<AppState, [], [], Slice>`). It caches views; the data of record
 * lives in main. Actions are callable outside React (`useApp.getState().x()`),
 * which is how push events from main reach it (see renderer/live.ts).
 *
 * Add a feature: write renderer/features/<name>/slice.ts exporting `XSlice` and
 * `createXSlice`, add the type to AppState and the creator below.
 */
import { create } from 'zustand';
import { createVaultSlice, type VaultSlice } from '../features/vault/slice.js';
import { createEntitiesSlice, type EntitiesSlice } from '../features/entities/slice.js';
import { createSearchSlice, type SearchSlice } from '../features/search/slice.js';
import { createGraphSlice, type GraphSlice } from '../features/canvas/slice.js';
import { createEntitySlice, type EntitySlice } from '../features/entity/slice.js';
import { createProblemsSlice, type ProblemsSlice } from '../features/problems/slice.js';
import { createEditorSlice, type EditorSlice } from '../features/editor/slice.js';
import { createTimelineSlice, type TimelineSlice } from '../features/timeline/slice.js';
import { createMcpSlice, type McpSlice } from '../features/mcp/slice.js';
import { createSchemaSetupSlice, type SchemaSetupSlice } from '../features/schema-setup/slice.js';
import { createTrashSlice, type TrashSlice } from '../features/trash/slice.js';
import { createViewSlice, type ViewSlice } from '../features/view/slice.js';

export type AppState = VaultSlice & EntitiesSlice & SearchSlice & GraphSlice & EntitySlice & ProblemsSlice & EditorSlice & TimelineSlice & McpSlice & SchemaSetupSlice & TrashSlice & ViewSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createVaultSlice(...a),
  ...createEntitiesSlice(...a),
  ...createSearchSlice(...a),
  ...createGraphSlice(...a),
  ...createEntitySlice(...a),
  ...createProblemsSlice(...a),
  ...createEditorSlice(...a),
  ...createTimelineSlice(...a),
  ...createMcpSlice(...a),
  ...createSchemaSetupSlice(...a),
  ...createTrashSlice(...a),
  ...createViewSlice(...a),
}));
