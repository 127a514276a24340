/**
 * Oracle: the graph reached by stepping (from snapshots of earlier sessions, in
 * any visiting order) equals the graph computed from the base at that session.
 */
import { describe, expect, it } from 'vitest';
import { generateTimelineWorld } from '../../bench/timeline.js';
import { buildScope, compile } from './compile.js';
import { graphAt } from './state.js';
import { buildTimelineIndex } from './timeline-index.js';

const canon = (g: ReturnType<typeof graphAt>['graph']) => JSON.stringify({
  entities: g.entities,
  relationships: [...g.relationships].sort((a, b) => `${a.from}${a.type}${a.to}`.localeCompare(`${b.from}${b.type}${b.to}`)),
  removed: [...g.removedRelationships].sort((a, b) => `${a.from}${a.type}${a.to}`.localeCompare(`${b.from}${b.type}${b.to}`)),
});

describe('incremental scrubbing', () => {
  const input = generateTimelineWorld(300, 60, 20);
  const c = compile(input);
  const sc = buildScope(c, 'campaign');
  const cold = new Map(sc.sessions.map((s) => [s, canon(graphAt(c, sc, s).graph)]));

  it('stepping forward equals recomputing from the base', () => {
    const ix = buildTimelineIndex(input);
    for (const s of sc.sessions) expect(canon(ix.graphAt('campaign', s)), `session ${s}`).toBe(cold.get(s));
  });
  it('jumping around (back, forth, skipping) equals recomputing from the base', () => {
    const ix = buildTimelineIndex(input);
    const order = [7, 3, 15, 4, 20, 1, 12, 19, 2, 11, 8];
    for (const s of order) expect(canon(ix.graphAt('campaign', s)), `session ${s}`).toBe(cold.get(s));
  });
  it('the generated world has changes of every kind to compare', () => {
    const kinds = new Set(sc.events.flatMap((e) => e.consequences.filter((k) => k.valid).map((k) => k.kind)));
    expect([...kinds].sort()).toEqual(['add', 'created', 'destroyed', 'relationship-add', 'relationship-remove', 'remove', 'set', 'unset']);
  });
});
