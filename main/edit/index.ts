/**
 * Write-back: the one edit path used by every writer (see docs/editing.md).
 * Use `editorFor(core)` so the UI, canvas, timeline and MCP of one process share
 * one command queue and one undo history.
 */
export { createEditor, editorFor, type Editor, type EditHost, type EditOptions, type EditResult, type Changed, type HistoryEntry, type FileChange } from './commands.js';
export { setField, unsetField, addListItem, removeListItem, replaceBody, readFrontmatter, getBody, mapStrings, splitNote } from './frontmatter.js';
export { listTrash, trashOrigin, TRASH, type TrashItem } from './trash.js';
export { resolveInVault, atomicWrite, readVaultFile, checkUnchanged, sha256 } from './safe-fs.js';
