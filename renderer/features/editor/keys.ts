/**
 * Which app-level history key a keydown is: 'undo', 'redo' or null. Keys typed
 * into a text field or a contenteditable (the prose editor) are left
 * to that control's own undo.
 */
export interface KeyLike { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }

export function inTextControl(el: Element | null): boolean {
  if (!el) return false;
  if (el.closest('[contenteditable="true"], .ProseMirror')) return true;
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea') return true;
  if (tag === 'input') {
    const t = ((el as HTMLInputElement).type || 'text').toLowerCase();
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(t);
  }
  return false;
}

export function undoKey(e: KeyLike, target: Element | null): 'undo' | 'redo' | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const k = e.key.toLowerCase();
  let what: 'undo' | 'redo' | null = null;
  if (k === 'z') what = e.shiftKey ? 'redo' : 'undo';
  else if (k === 'y' && !e.shiftKey) what = 'redo';
  if (!what || inTextControl(target)) return null;
  return what;
}
