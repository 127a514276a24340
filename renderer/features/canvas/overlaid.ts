/**
 * The timeline overlay laid on the canvas's overlay-free elements
 * (elements.ts baseElements), and the difference between two overlays: what
 * a scrubber step must restyle, add or remove. Pure and O(size of the two
 * overlays), never O(graph): a step over a 1k-entity world touches the few
 * elements whose status changed, nothing else (tested in overlaid.test.ts
 * against toElements, which is built from the same two functions).
 */
import type { GraphSnapshot } from '../../../shared/types.js';
import {
  edgeElement, edgeId, edgeVisible, linksByDefault, strike,
  type CanvasElements, type EdgeElement, type ElementOptions, type NodeElement,
} from './elements.js';
import type { CanvasOverlay, OverlayEdge } from './overlay.js';

export type CanvasElement = NodeElement | EdgeElement;

/** The overlay-free elements by id, with what it takes to draw an edge only the overlay has. */
export interface ElementIndex {
  els: CanvasElements;
  node: ReadonlyMap<string, NodeElement>;
  edge: ReadonlyMap<string, EdgeElement>;
  /** the id an overlay edge is drawn under (symmetric types: one id for both directions) */
  idOf(e: OverlayEdge): string;
  /** an edge the notes do not have, drawn as added; null when its ends or its type are not shown */
  added(e: OverlayEdge): EdgeElement | null;
}

export function indexElements(els: CanvasElements, graph: GraphSnapshot, opts: Pick<ElementOptions, 'relTypes' | 'filters' | 'selectedId'> = {}): ElementIndex {
  const node = new Map(els.nodes.map((n) => [n.data.id, n]));
  const edge = new Map(els.edges.map((e) => [e.data.id, e]));
  const symmetric = new Set((opts.relTypes ?? []).filter((r) => r.symmetric).map((r) => r.name));
  const links = linksByDefault(graph);
  const f = opts.filters ?? {};
  const big = !!els.nodes[0]?.classes.split(' ').includes('big');
  const ends = (e: OverlayEdge): [string, string, boolean] => {
    const sym = symmetric.has(e.type);
    return sym && e.to < e.from ? [e.to, e.from, sym] : [e.from, e.to, sym];
  };
  return {
    els, node, edge,
    idOf(e) { const [a, b] = ends(e); return edgeId(a, e.type, b); },
    added(e) {
      if (!edgeVisible(e.type, f, links) || !node.has(e.from) || !node.has(e.to)) return null;
      const [a, b, sym] = ends(e);
      return edgeElement(a, e.type, b, sym, 'added', opts.selectedId ?? null, big);
    },
  };
}

/**
 * What `overlay` changes on the overlay-free elements, by id: nodes with a
 * status, edges of the notes it adds or removes (added wins), and edges only
 * it has. An id missing here is drawn as in the notes.
 */
export function overlayPatch(ix: ElementIndex, overlay: CanvasOverlay): Map<string, CanvasElement> {
  const out = new Map<string, CanvasElement>();
  if (!overlay) return out;
  for (const [id, o] of Object.entries(overlay.entities)) {
    const n = ix.node.get(id);
    if (!n) continue;
    const status = o.status;
    out.set(id, {
      ...n,
      data: { ...n.data, status, note: o.note ?? '', struck: status === 'dead' || status === 'destroyed' ? strike(n.data.label) : '' },
      classes: n.classes.replace('status-normal', `status-${status}`),
    });
  }
  const mark = (e: EdgeElement, status: 'added' | 'removed'): EdgeElement =>
    ({ ...e, data: { ...e.data, status }, classes: e.classes.replace(/status-\w+/, `status-${status}`) });
  for (const r of overlay.removedEdges) {
    const id = ix.idOf(r), e = ix.edge.get(id);
    if (e) out.set(id, mark(e, 'removed'));
  }
  for (const a of overlay.addedEdges) {
    const id = ix.idOf(a), e = ix.edge.get(id);
    if (e) { out.set(id, mark(e, 'added')); continue; }
    if (out.has(id)) continue;
    const n = ix.added(a);
    if (n) out.set(id, n);
  }
  return out;
}

/** Every element as `patch` draws it: the notes' elements in their order, then the edges only the overlay has. */
export function overlaid(ix: ElementIndex, patchOrOverlay: Map<string, CanvasElement> | CanvasOverlay): CanvasElements {
  const patch = patchOrOverlay instanceof Map ? patchOrOverlay : overlayPatch(ix, patchOrOverlay);
  if (!patch.size) return ix.els;
  const nodes = ix.els.nodes.map((n) => (patch.get(n.data.id) as NodeElement | undefined) ?? n);
  const edges = ix.els.edges.map((e) => (patch.get(e.data.id) as EdgeElement | undefined) ?? e);
  for (const [id, el] of patch) if (el.group === 'edges' && !ix.edge.has(id)) edges.push(el);
  return { nodes, edges };
}

/** The same classes and data (shallow): an element both overlays draw alike is left alone. */
function same(a: CanvasElement, b: CanvasElement): boolean {
  if (a.classes !== b.classes) return false;
  const x = a.data as unknown as Record<string, unknown>, y = b.data as unknown as Record<string, unknown>;
  for (const k in x) if (x[k] !== y[k]) return false;
  return true;
}

/** A scrubber step: elements to restyle (the new definition), edges to add, edge ids to remove. */
export interface StepDelta { set: CanvasElement[]; add: EdgeElement[]; remove: string[] }

/** the ids a step touches: restyled, added or removed */
export function deltaIds(d: StepDelta): string[] {
  return [...d.set.map((e) => e.data.id), ...d.add.map((e) => e.data.id), ...d.remove];
}

/** From the picture of patch `prev` to that of `next` (both from overlayPatch over the same index). */
export function stepDelta(ix: ElementIndex, prev: ReadonlyMap<string, CanvasElement>, next: ReadonlyMap<string, CanvasElement>): StepDelta {
  const d: StepDelta = { set: [], add: [], remove: [] };
  for (const [id, el] of next) {
    const was = prev.get(id);
    if (was && same(was, el)) continue;
    if (ix.node.has(id) || ix.edge.has(id) || prev.has(id)) d.set.push(el);
    else d.add.push(el as EdgeElement);
  }
  for (const id of prev.keys()) {
    if (next.has(id)) continue;
    const base = ix.node.get(id) ?? ix.edge.get(id);
    if (base) d.set.push(base); else d.remove.push(id);
  }
  return d;
}
