import { describe, expect, it } from 'vitest';
import type { PropertyDefView } from '../../../shared/contract-edit.js';
import { asList, parseInput, parseListItem, refName, undeclaredDef, widgetOf } from './fields.js';

const p = (x: Partial<PropertyDefView> & { type: PropertyDefView['type'] }): PropertyDefView => ({ name: 'x', required: false, ...x });

describe('form fields', () => {
  it('picks a widget per property type', () => {
    expect(['enum', 'integer', 'number', 'boolean', 'date', 'list', 'string'].map((type) => widgetOf(p({ type: type as PropertyDefView['type'] }))))
      .toEqual(['select', 'number', 'number', 'checkbox', 'date', 'chips', 'text']);
  });

  it('refuses what the schema would refuse, with a message', () => {
    const int = p({ type: 'integer' });
    expect(parseInput(int, '1200')).toEqual({ ok: true, value: 1200 });
    expect(parseInput(int, 'abc')).toMatchObject({ ok: false, error: expect.stringMatching(/whole number/) });
    expect(parseInput(int, '3.5')).toMatchObject({ ok: false });
    expect(parseInput(p({ type: 'number' }), '3.5')).toEqual({ ok: true, value: 3.5 });
    expect(parseInput(p({ type: 'number' }), '3,5')).toMatchObject({ ok: false });
    expect(parseInput(p({ type: 'date' }), '1203-05-14')).toEqual({ ok: true, value: '1203-05-14' });
    expect(parseInput(p({ type: 'date' }), '1203-13')).toMatchObject({ ok: false });
    expect(parseInput(p({ type: 'enum', values: ['a', 'b'] }), 'c')).toMatchObject({ ok: false });
    expect(parseInput(p({ type: 'enum', values: [1, 2] }), '2')).toEqual({ ok: true, value: 2 });
  });

  it('empty means unset, unless required', () => {
    expect(parseInput(p({ type: 'integer' }), '')).toEqual({ ok: true, value: undefined, unset: true });
    expect(parseInput(p({ type: 'integer', required: true }), ' ')).toEqual({ ok: false, error: 'is required' });
    expect(parseInput(p({ type: 'string' }), ' x ')).toEqual({ ok: true, value: ' x ' });
  });

  it('list items and references', () => {
    expect(parseListItem(p({ type: 'list', items: 'integer' }), '4')).toEqual({ ok: true, value: 4 });
    expect(parseListItem(p({ type: 'list', items: 'integer' }), 'x')).toMatchObject({ ok: false });
    expect(parseListItem(p({ type: 'list', values: ['a'] }), 'b')).toMatchObject({ ok: false });
    expect(asList('[[A]]')).toEqual(['[[A]]']);
    expect(asList(undefined)).toEqual([]);
    expect(refName('[[setting/npcs/Captain Varo.md|the captain]]')).toBe('Captain Varo');
    expect(refName(' Oldmere ')).toBe('Oldmere');
  });
});

describe('undeclaredDef: keys the schema does not declare stay editable', () => {
  it('keeps the kind of the value the file holds', () => {
    expect(undeclaredDef('mood', 'grim')).toEqual({ name: 'mood', type: 'string', required: false });
    expect(undeclaredDef('age', 41)?.type).toBe('integer');
    expect(undeclaredDef('weight', 1.5)?.type).toBe('number');
    expect(undeclaredDef('alive', false)?.type).toBe('boolean');
    expect(undeclaredDef('kin', ['[[A]]', 'B'])?.type).toBe('list');
    expect(undeclaredDef('empty', null)?.type).toBe('string');
  });
  it('shows nested values as written (null: no control)', () => {
    expect(undeclaredDef('stats', { str: 3 })).toBeNull();
    expect(undeclaredDef('rows', [{ a: 1 }])).toBeNull();
  });
});
