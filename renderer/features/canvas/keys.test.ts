import { describe, expect, it } from 'vitest';
import { SHORTCUTS, canvasAction } from './keys.js';

const k = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
  ({ key, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('canvasAction', () => {
  it('maps the documented keys', () => {
    expect(canvasAction(k('f'), false)).toBe('fit');
    expect(canvasAction(k('+'), false)).toBe('zoom-in');
    expect(canvasAction(k('='), false)).toBe('zoom-in');
    expect(canvasAction(k('-'), false)).toBe('zoom-out');
    expect(canvasAction(k('Escape'), false)).toBe('clear');
    expect(canvasAction(k('Delete'), false)).toBe('delete');
    expect(canvasAction(k('Backspace'), false)).toBe('delete');
    expect(canvasAction(k('2'), false)).toBe('depth-2');
    expect(canvasAction(k('?'), false)).toBe('help');
    expect(canvasAction(k('x'), false)).toBeNull();
  });
  it('never fires while typing or with a modifier (undo and search keys belong to others)', () => {
    expect(canvasAction(k('f'), true)).toBeNull();
    expect(canvasAction(k('z', { ctrlKey: true }), false)).toBeNull();
    expect(canvasAction(k('k', { metaKey: true }), false)).toBeNull();
    expect(canvasAction(k('f', { altKey: true }), false)).toBeNull();
  });
  it('the help lists every action the keys produce', () => {
    const listed = new Set(SHORTCUTS.map((s) => s.action));
    for (const key of ['f', '+', '-', 'Escape', '.', '1', 'c', 'Delete', 'u', 'n', 'l', '?']) {
      const a = canvasAction(k(key), false)!;
      expect(listed.has(a), `${key} -> ${a}`).toBe(true);
    }
  });
});
