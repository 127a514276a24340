import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntitySummary, GraphSnapshot } from '../../../shared/types.js';
import { baseElements, edgeId, toElements, type CanvasElements } from './elements.js';
import { indexElements, overlaid, overlayPatch, stepDelta, type CanvasElement } from './overlaid.js';
import type { CanvasOverlay, OverlayStatus } from './overlay.js';

const N = 12;
const ids = Array.from({ length: N }, (_, i) => `setting/n${i}`);
const node = (i: number): EntitySummary => ({ id: ids[i]!, name: `N${i}`, type: i % 3 ? 'npc' : 'place', layer: 'setting', path: `n${i}.md`, placeholder: false, tags: [] });
const graph: GraphSnapshot = {
  nodes: ids.map((_, i) => node(i)),
  edges: [
    ...ids.slice(1).map((id, i) => ({ from: id, to: ids[i]!, type: 'KNOWS', field: 'knows' })),
    ...ids.slice(2).map((id, i) => ({ from: id, to: ids[i]!, type: 'MEMBER_OF', field: 'faction' })),
  ],
};
const relTypes = [{ name: 'KNOWS', symmetric: true }, { name: 'MEMBER_OF', inverse: 'HAS_MEMBER', symmetric: false }, { name: 'HOSTILE_TO', symmetric: true }];
const STATUSES: OverlayStatus[] = ['alive', 'dead', 'destroyed', 'not-yet-created', 'created'];

const edgeArb = fc.record({ from: fc.constantFrom(...ids), to: fc.constantFrom(...ids), type: fc.constantFrom('KNOWS', 'MEMBER_OF', 'HOSTILE_TO') });
const overlayArb: fc.Arbitrary<CanvasOverlay> = fc.option(fc.record({
  session: fc.integer({ min: 0, max: 60 }),
  entities: fc.dictionary(fc.constantFrom(...ids), fc.record({ status: fc.constantFrom(...STATUSES), note: fc.option(fc.constantFrom('slain', 'burned'), { nil: undefined }) }, { requiredKeys: ['status'] })),
  addedEdges: fc.array(edgeArb, { maxLength: 6 }),
  removedEdges: fc.array(edgeArb, { maxLength: 6 }),
}), { nil: null });

const byId = (els: CanvasElements) => new Map<string, CanvasElement>([...els.nodes, ...els.edges].map((e) => [e.data.id, e]));

describe('overlaid: the timeline overlay on the overlay-free elements', () => {
  it('a step applied to the previous picture gives the next picture, and touches only what the two overlays name', () => {
    const base = baseElements(graph, { relTypes, selectedId: ids[3] });
    const ix = indexElements(base, graph, { relTypes, selectedId: ids[3] });
    fc.assert(fc.property(fc.array(overlayArb, { minLength: 2, maxLength: 6 }), (seq) => {
      // a stand-in for the canvas: element id -> what is drawn
      const drawn = byId(overlaid(ix, seq[0]!));
      let prev = overlayPatch(ix, seq[0]!);
      for (const o of seq.slice(1)) {
        const next = overlayPatch(ix, o);
        const d = stepDelta(ix, prev, next);
        for (const el of d.set) { expect(drawn.has(el.data.id)).toBe(true); drawn.set(el.data.id, el); }
        for (const el of d.add) { expect(drawn.has(el.data.id)).toBe(false); drawn.set(el.data.id, el); }
        for (const id of d.remove) { expect(drawn.delete(id)).toBe(true); }
        expect(drawn).toEqual(byId(overlaid(ix, next)));
        expect(d.set.length + d.add.length + d.remove.length).toBeLessThanOrEqual(prev.size + next.size);
        prev = next;
      }
    }), { numRuns: 300 });
  });

  it('the same overlay twice is an empty step; toElements is the overlay laid on the overlay-free elements', () => {
    const ix = indexElements(baseElements(graph, { relTypes }), graph, { relTypes });
    const o: CanvasOverlay = {
      session: 4, entities: { [ids[2]!]: { status: 'dead', note: 'slain' }, [ids[5]!]: { status: 'destroyed' } },
      addedEdges: [{ from: ids[1]!, to: ids[7]!, type: 'HOSTILE_TO' }, { from: ids[0]!, to: ids[1]!, type: 'KNOWS' }],
      removedEdges: [{ from: ids[3]!, to: ids[1]!, type: 'MEMBER_OF' }],
    };
    expect(stepDelta(ix, overlayPatch(ix, o), overlayPatch(ix, o))).toEqual({ set: [], add: [], remove: [] });
    const full = toElements(graph, { relTypes, overlay: o });
    expect(full).toEqual(overlaid(ix, o));
    const m = byId(full);
    expect(m.get(ids[2]!)!.data).toMatchObject({ status: 'dead', note: 'slain', struck: 'N\u03362\u0336' });
    expect(m.get(ids[2]!)!.classes).toContain('status-dead');
    // an edge only the overlay has (symmetric: drawn once, ends in id order); a symmetric edge of the notes marked added either way round
    expect(m.get(edgeId(ids[1]!, 'HOSTILE_TO', ids[7]!))!.data.status).toBe('added');
    expect(m.get(edgeId(ids[0]!, 'KNOWS', ids[1]!))!.data.status).toBe('added');
    expect(m.get(edgeId(ids[3]!, 'MEMBER_OF', ids[1]!))!.classes).toContain('status-removed');
    // from that session back to the notes: every changed element restored, the overlay's own edge removed
    const back = stepDelta(ix, overlayPatch(ix, o), overlayPatch(ix, null));
    expect(back.remove).toEqual([edgeId(ids[1]!, 'HOSTILE_TO', ids[7]!)]);
    expect(back.add).toEqual([]);
    expect(back.set.map((e) => e.data.status).sort()).toEqual(['normal', 'normal', 'normal', 'normal']);
  });

  it('an edge the canvas does not show (filtered type, hidden end) is not drawn by the overlay either', () => {
    const filters = { relTypes: ['KNOWS'], types: ['npc'] };
    const ix = indexElements(baseElements(graph, { relTypes, filters }), graph, { relTypes, filters });
    const p = overlayPatch(ix, { session: 1, entities: { [ids[0]!]: { status: 'dead' } }, addedEdges: [{ from: ids[1]!, to: ids[2]!, type: 'HOSTILE_TO' }, { from: ids[1]!, to: ids[0]!, type: 'KNOWS' }], removedEdges: [] });
    // n0 is a place (filtered away); HOSTILE_TO is not among the shown relationship types
    expect(p.size).toBe(0);
  });
});
