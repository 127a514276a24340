import { describe, expect, it } from 'vitest';
import type { EntityStateData, TimelineSessions } from '../../../shared/contract-timeline.js';
import { markersOf, relationRows, stateRows, step, stopIndex, stopsOf, toOverlay } from './model.js';

const ev = (id: string, session: number | null, kinds: string[] = []) => ({
  id, name: id.toUpperCase(), path: `campaign/${id}.md`, layer: 'campaign', session, date: null,
  participants: [], location: null, order: 0, tags: [],
  consequences: kinds.map((k) => ({ kind: k as 'set', entityName: 'X', entity: 'x', line: 3, valid: true, text: `X ${k}` })),
});

const T: TimelineSessions = {
  layer: 'campaign', before: 0, lanes: ['changes', 'sessions'],
  sessions: [
    { session: 1, dateLabel: '1203-03-02', label: 'Session 1 · 1203-03-02', events: ['a', 'b'] },
    { session: 4, dateLabel: '', label: 'Session 4', events: ['c'] },
  ],
  events: [ev('a', 1, ['set']), ev('b', 1, ['add']), ev('c', 4), ev('u', null)],
  laneOf: { a: 'changes', b: 'changes', c: 'sessions', u: 'sessions' },
};

describe('timeline model', () => {
  it('stops: before play, then each session with its date (or S<n>) as the short label', () => {
    expect(stopsOf(T).map((s) => [s.session, s.short, s.before])).toEqual([[0, 'start', true], [1, '1203-03-02', false], [4, 'S4', false]]);
  });

  it('step moves between stops and clamps at both ends; a session between stops belongs to the earlier one', () => {
    const st = stopsOf(T);
    expect(step(st, 0, 1)).toBe(1);
    expect(step(st, 1, 1)).toBe(4);
    expect(step(st, 4, 1)).toBe(4);
    expect(step(st, 0, -1)).toBe(0);
    expect(stopIndex(st, 3)).toBe(1);
    expect(step(st, 3, 1)).toBe(4);
    expect(stopIndex(st, -5)).toBe(0);
    expect(step(st, null, 1)).toBe(0);
    expect(step(st, null, -1)).toBe(4);
  });

  it('markers: one per scheduled event, same-session events of a lane get distinct slots, titles list consequences', () => {
    const m = markersOf(T);
    expect(m.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(m.filter((x) => x.session === 1).map((x) => [x.slot, x.of])).toEqual([[0, 2], [1, 2]]);
    expect(m[0]!.title).toBe('A — session 1\nX set');
  });

  it('toOverlay keeps statuses and notes, and strips edge notes to the canvas edge shape', () => {
    const o = toOverlay({
      layer: 'campaign', session: 5, changed: [],
      entities: { v: { status: 'dead', note: 'dead ← D, session 5' } },
      addedEdges: [{ from: 'a', to: 'b', type: 'HOSTILE_TO', note: 'added ← P, session 4' }],
      removedEdges: [{ from: 'a', to: 'c', type: 'ALLIED_WITH' }],
    });
    expect(o).toEqual({
      session: 5, entities: { v: { status: 'dead', note: 'dead ← D, session 5' } },
      addedEdges: [{ from: 'a', to: 'b', type: 'HOSTILE_TO' }], removedEdges: [{ from: 'a', to: 'c', type: 'ALLIED_WITH' }],
    });
  });

  it('stateRows: provenance for changed values, lifecycle and death first, unset values kept as a dash', () => {
    const p = { event: 'e', name: 'The Death of Captain Varo', path: 'p.md', session: 5, line: 9 };
    const s: EntityStateData = {
      id: 'v', name: 'Captain Varo', type: 'npc', layer: 'setting', placeholder: false, virtual: false,
      lifecycle: 'destroyed', exists: false, dead: true, destroyed: p, died: p,
      properties: { role: 'captain', status: 'dead' },
      provenance: { status: p, honorific: { ...p, name: 'Disgrace', session: 2 } },
      relationships: [], removedRelationships: [],
    };
    expect(stateRows(s).map((r) => `${r.key}: ${r.value}${r.source ? ` ${r.source}` : ''}`)).toEqual([
      'lifecycle: destroyed ← The Death of Captain Varo, session 5',
      'dead: yes ← The Death of Captain Varo, session 5',
      'role: captain',
      'status: dead ← The Death of Captain Varo, session 5',
      'honorific: — ← Disgrace, session 2',
    ]);
  });

  it('relationRows: event-added and removed relationships with their events, named from this entity', () => {
    const p = { event: 'e', name: 'The Broken Pact', path: 'p.md', session: 4, line: 9 };
    const s = {
      id: 'rh', name: 'Red Hand', type: 'faction', layer: 'setting', placeholder: false, virtual: false,
      lifecycle: 'exists' as const, exists: true, dead: false, properties: {}, provenance: {},
      relationships: [
        { from: 'rh', to: 'cb', type: 'HOSTILE_TO', origin: 'event' as const, provenance: p },
        { from: 'rh', to: 'x', type: 'LEADS', origin: 'base' as const },
      ],
      removedRelationships: [{ from: 'cb', to: 'rh', type: 'ALLIED_WITH', origin: 'base' as const, removedBy: p }],
    };
    const names: Record<string, string> = { cb: 'Corsair Brotherhood' };
    expect(relationRows(s, (id) => names[id] ?? id).map((r) => `${r.text} ${r.source}`)).toEqual([
      '+ HOSTILE_TO → Corsair Brotherhood ← The Broken Pact, session 4',
      '− ALLIED_WITH ← Corsair Brotherhood ← The Broken Pact, session 4',
    ]);
    // symmetric, ended both ways (written on both ends): one row
    const both = { ...s, relationships: [], removedRelationships: [...s.removedRelationships, { from: 'rh', to: 'cb', type: 'ALLIED_WITH', origin: 'base' as const, removedBy: p }] };
    expect(relationRows(both, (id) => names[id] ?? id, new Set(['ALLIED_WITH'])).map((r) => r.text)).toEqual(['− ALLIED_WITH ↔ Corsair Brotherhood']);
  });
});
