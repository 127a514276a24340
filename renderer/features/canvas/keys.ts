/**
 * Canvas keyboard shortcuts (pure, tested). Keys typed into a field, or with
 * Ctrl/Cmd/Alt held, are never canvas shortcuts (Ctrl/Cmd+Z is the editor's
 * global undo; Ctrl+K is search).
 */
export type CanvasAction =
  | 'fit' | 'zoom-in' | 'zoom-out' | 'clear' | 'focus' | 'depth-1' | 'depth-2' | 'depth-3'
  | 'connect-mode' | 'delete' | 'unpin' | 'create' | 'help' | 'relayout';

export const SHORTCUTS: ReadonlyArray<{ keys: string; action: CanvasAction; text: string }> = [
  { keys: 'f', action: 'fit', text: 'fit the graph to the view' },
  { keys: '+ / =', action: 'zoom-in', text: 'zoom in' },
  { keys: '-', action: 'zoom-out', text: 'zoom out' },
  { keys: '.', action: 'focus', text: "focus on the selected entity's neighbourhood" },
  { keys: '1 2 3', action: 'depth-1', text: 'neighbourhood depth (hops)' },
  { keys: 'Esc', action: 'clear', text: 'clear focus, menus and edge selection' },
  { keys: 'c', action: 'connect-mode', text: 'connect mode: drag from any node to another (or drag the orange handle)' },
  { keys: 'Delete / Backspace', action: 'delete', text: 'remove the selected relationship from its note, or delete the selected entity (asks first)' },
  { keys: 'u', action: 'unpin', text: 'unpin the selected node' },
  { keys: 'n', action: 'create', text: 'new entity (or double-click empty canvas)' },
  { keys: 'l', action: 'relayout', text: 'lay out again (pinned nodes stay)' },
  { keys: '?', action: 'help', text: 'this help' },
];

export interface KeyLike { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }

export function isEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

export function canvasAction(e: KeyLike, editable: boolean): CanvasAction | null {
  if (editable || e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'f': return 'fit';
    case '+': case '=': return 'zoom-in';
    case '-': case '_': return 'zoom-out';
    case 'Escape': return 'clear';
    case '.': return 'focus';
    case '1': return 'depth-1';
    case '2': return 'depth-2';
    case '3': return 'depth-3';
    case 'c': return 'connect-mode';
    case 'Delete': case 'Backspace': return 'delete';
    case 'u': return 'unpin';
    case 'n': return 'create';
    case 'l': return 'relayout';
    case '?': return 'help';
    default: return null;
  }
}
