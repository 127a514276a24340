import { describe, expect, it } from 'vitest';
import { undoKey, type KeyLike } from './keys.js';

const k = (key: string, m: Partial<KeyLike> = {}): KeyLike => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...m });
/** a minimal Element stand-in: tag name, input type, and what closest() finds */
const el = (tag: string, opts: { type?: string; inProse?: boolean } = {}) =>
  ({ tagName: tag.toUpperCase(), type: opts.type, closest: () => (opts.inProse ? {} : null) }) as unknown as Element;

describe('undo keys', () => {
  it('maps Ctrl/Cmd+Z, Shift+Ctrl/Cmd+Z and Ctrl+Y', () => {
    expect(undoKey(k('z', { ctrlKey: true }), null)).toBe('undo');
    expect(undoKey(k('z', { metaKey: true }), null)).toBe('undo');
    expect(undoKey(k('Z', { ctrlKey: true, shiftKey: true }), null)).toBe('redo');
    expect(undoKey(k('z', { metaKey: true, shiftKey: true }), null)).toBe('redo');
    expect(undoKey(k('y', { ctrlKey: true }), null)).toBe('redo');
    expect(undoKey(k('z'), null)).toBeNull();
    expect(undoKey(k('z', { ctrlKey: true, altKey: true }), null)).toBeNull();
    expect(undoKey(k('x', { ctrlKey: true }), null)).toBeNull();
  });

  it('leaves text fields and the prose editor to their own undo', () => {
    const z = k('z', { ctrlKey: true });
    expect(undoKey(z, el('input', { type: 'text' }))).toBeNull();
    expect(undoKey(z, el('textarea'))).toBeNull();
    expect(undoKey(z, el('div', { inProse: true }))).toBeNull();
    expect(undoKey(z, el('input', { type: 'checkbox' }))).toBe('undo');
    expect(undoKey(z, el('button'))).toBe('undo');
    expect(undoKey(z, el('div'))).toBe('undo');
  });
});
