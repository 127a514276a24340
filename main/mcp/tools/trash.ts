/**
 * The vault's trash (issue 20): list_trash (both modes) and restore_from_trash
 * (read-write mode only). A deleted note lives in `.lorecraft/trash/<time>/<its
 * path>` until it is restored; both tools go through the core (Core.trash,
 * the editor's restore: conflict-checked, origin 'mcp').
 */
import { z } from 'zod';
import type { McpEditor } from '../adapters.js';
import { clip, fitCount } from '../budget.js';
import { summary, type McpContext } from '../context.js';
import { MAX_NAME, WriteOutZ } from '../schemas.js';
import { READ_ONLY, tool, type AnySpec } from '../tool.js';

const TrashEntryZ = z.object({
  trash_path: z.string().describe('what restore_from_trash takes'),
  path: z.string().describe('where the note lived, and goes back to'),
  deleted_at: z.string().describe('ISO time of the deletion'),
  size: z.number().int(),
});

export function trashTools(ctx: McpContext, editor: McpEditor | undefined): AnySpec[] {
  const { host } = ctx;

  const listTrash = tool({
    name: 'list_trash',
    title: 'List the trash',
    description: 'Notes deleted from the vault (moved to its trash, .lorecraft/trash), most recently deleted first, with the path each goes back to.'
      + (editor ? ' Restore one with restore_from_trash.' : ''),
    input: {},
    output: { items: z.array(TrashEntryZ), total: z.number().int(), truncated: z.boolean() },
    annotations: READ_ONLY,
    run: async () => {
      const all = (await host.trash()).map((t) => ({ trash_path: t.trashPath, path: t.path, deleted_at: t.deletedAt, size: t.size }));
      const n = fitCount(all, ctx.maxChars, (s) => ({ items: s, total: all.length, truncated: true }));
      const data = { items: all.slice(0, n), total: all.length, truncated: n < all.length };
      const summary = all.length
        ? `${all.length} file(s) in the trash${data.truncated ? ` (the ${n} most recent shown)` : ''}: ${data.items.slice(0, 5).map((t) => t.path).join(', ')}${all.length > 5 ? ', …' : ''}.`
        : 'The trash is empty.';
      return { summary, data };
    },
  });
  if (!editor) return [listTrash];

  const restore = tool({
    name: 'restore_from_trash',
    title: 'Restore a deleted note',
    description: 'Move a file from the vault\'s trash back to the path it was deleted from (give trash_path from list_trash). Refused when a file is at that path again.',
    input: { trash_path: z.string().trim().min(1).max(MAX_NAME * 3).describe('trash_path from list_trash') },
    output: { ...WriteOutZ, restored: z.string().describe('the vault path the note is back at') },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async (a) => {
      const r = await editor.restoreFromTrash(a);
      const e = r.entityId ? await host.getEntity(r.entityId).catch(() => null) : null;
      const per = Math.max(200, Math.floor(ctx.maxChars / Math.max(1, r.changed.length)) - 200);
      const changed = r.changed.map((c) => { const d = clip(c.diff, per); return { path: c.path, diff: d.text, diff_truncated: d.clipped }; });
      const data = { paths: changed.map((c) => c.path), changed, entity: e ? summary(e) : null, restored: r.path };
      return { summary: `restored ${r.path} from the trash.`, data };
    },
  });
  return [listTrash, restore];
}
