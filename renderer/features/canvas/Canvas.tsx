import cytoscape, { type Core as Cy, type ElementDefinition } from 'cytoscape';
import fcose from 'cytoscape-fcose';
import { useEffect, useMemo, useRef } from 'react';
import { useApp } from '../../store/index.js';
import { toElements, type CanvasElements } from './elements.js';

cytoscape.use(fcose);

/** Above this many nodes fcose would take too long: a grid is drawn instead. */
const FORCE_LAYOUT_LIMIT = 2500;

declare global {
  interface Window { __lorecraft?: { cy?: Cy } }
}

const STYLE: cytoscape.StylesheetJson = [
  { selector: 'node', style: {
    'background-color': 'data(color)', shape: 'data(shape)' as never, width: 'data(size)', height: 'data(size)',
    label: 'data(label)', 'font-size': 9, color: '#1d232b', 'text-valign': 'bottom', 'text-margin-y': 3,
    'text-outline-color': '#f7f7f5', 'text-outline-width': 2, 'border-width': 1, 'border-color': '#ffffff',
  } },
  { selector: 'node.placeholder', style: { 'border-style': 'dashed', 'border-color': '#8a8f98', color: '#6b717a' } },
  { selector: 'node.selected', style: { 'border-width': 3, 'border-color': '#111827', 'font-weight': 'bold', 'z-index': 10 } },
  { selector: 'edge', style: {
    width: 1.2, 'line-color': '#9aa3ad', 'curve-style': 'bezier', 'target-arrow-shape': 'triangle',
    'target-arrow-color': '#9aa3ad', 'arrow-scale': 0.7,
  } },
  { selector: 'edge.link', style: { 'line-style': 'dotted', opacity: 0.45, 'target-arrow-shape': 'none' } },
  { selector: 'edge.touching', style: { 'line-color': '#1f2937', 'target-arrow-color': '#1f2937', width: 2, opacity: 1 } },
];

/** Apply the new elements to the live graph: add, remove, update data and classes; lay out what is new. */
function apply(cy: Cy, els: CanvasElements, first: boolean): void {
  const wanted = new Map<string, ElementDefinition & { classes: string }>();
  for (const e of [...els.nodes, ...els.edges]) wanted.set(e.data.id, e);
  const added: string[] = [];
  cy.batch(() => {
    cy.elements().forEach((el) => { if (!wanted.has(el.id())) el.remove(); });
    for (const n of els.nodes) {
      const el = cy.getElementById(n.data.id);
      if (el.empty()) { cy.add(n); added.push(n.data.id); } else { el.data(n.data); el.classes(n.classes); }
    }
    for (const e of els.edges) {
      const el = cy.getElementById(e.data.id);
      if (el.empty()) cy.add(e); else el.classes(e.classes);
    }
  });
  if (first || added.length > cy.nodes().length / 2) {
    const n = cy.nodes().length;
    const layout = n > FORCE_LAYOUT_LIMIT
      ? { name: 'grid', avoidOverlap: true }
      : { name: 'fcose', quality: n > 800 ? 'draft' : 'default', randomize: true, animate: false, nodeRepulsion: 20000, idealEdgeLength: 90, nodeSeparation: 90, nodeDimensionsIncludeLabels: true, packComponents: true };
    cy.layout(layout as cytoscape.LayoutOptions).run();
  } else {
    // a few new nodes: place each beside a neighbour (or the centre) without moving the rest
    for (const id of added) {
      const node = cy.getElementById(id);
      const near = node.neighborhood().nodes().not(node)[0];
      const base = near ? near.position() : { x: cy.width() / 2, y: cy.height() / 2 };
      node.position({ x: base.x + 40 * (Math.random() - 0.5), y: base.y + 40 * (Math.random() - 0.5) });
    }
  }
}

export function Canvas() {
  const graph = useApp((s) => s.graph);
  const styles = useApp((s) => s.schemaView?.entityTypes);
  const selectedId = useApp((s) => s.selectedId);
  const host = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Cy | null>(null);
  const laidOut = useRef(false);
  const els = useMemo(() => (graph ? toElements(graph, { styles, selectedId }) : null), [graph, styles, selectedId]);

  useEffect(() => {
    const cy = cytoscape({ container: host.current, style: STYLE, minZoom: 0.05, maxZoom: 4 });
    cy.on('tap', 'node', (e) => void useApp.getState().select(e.target.id()));
    cyRef.current = cy;
    window.__lorecraft = { ...window.__lorecraft, cy };
    return () => { cy.destroy(); cyRef.current = null; };
  }, []);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || !els) return;
    apply(cy, els, !laidOut.current);
    if (els.nodes.length) laidOut.current = true;
  }, [els]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || !selectedId) return;
    const node = cy.getElementById(selectedId);
    if (node.nonempty()) cy.animate({ center: { eles: node } }, { duration: 200 });
  }, [selectedId]);

  return (
    <div
      className="canvas"
      ref={host}
      data-testid="canvas"
      data-node-count={els?.nodes.length ?? 0}
      data-edge-count={els?.edges.length ?? 0}
    />
  );
}
