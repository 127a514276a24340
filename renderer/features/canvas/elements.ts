/**
 * The canvas's view model: a pure function from the graph snapshot (and the
 * schema's styles and the selection) to Cytoscape element definitions. The
 * Canvas component only renders what this returns.
 */
import type { SchemaView } from '../../../shared/contract.js';
import { LINK_REL, type GraphSnapshot } from '../../../shared/types.js';

export interface NodeElement {
  group: 'nodes';
  data: { id: string; label: string; type: string; layer: string; color: string; shape: string; size: number; placeholder: boolean };
  classes: string;
}
export interface EdgeElement {
  group: 'edges';
  data: { id: string; source: string; target: string; type: string };
  classes: string;
}
export interface CanvasElements { nodes: NodeElement[]; edges: EdgeElement[] }

export interface ElementOptions {
  styles?: SchemaView['entityTypes'];
  selectedId?: string | null;
  /** body [[links]] (LINKS_TO) as faint edges; default true */
  showLinks?: boolean;
  /** placeholders (names with no note yet); default true */
  showPlaceholders?: boolean;
}

export const DEFAULT_COLOR = '#8a8f98';
export const PLACEHOLDER_COLOR = '#c8ccd2';

export function edgeId(from: string, type: string, to: string): string {
  return `${from}\u2192${type}\u2192${to}`;
}

export function toElements(graph: GraphSnapshot, opts: ElementOptions = {}): CanvasElements {
  const showLinks = opts.showLinks ?? true;
  const showPlaceholders = opts.showPlaceholders ?? true;
  const style = new Map((opts.styles ?? []).map((t) => [t.name, t]));

  const nodeIds = new Set<string>();
  for (const n of graph.nodes) if (showPlaceholders || !n.placeholder) nodeIds.add(n.id);

  const edges: EdgeElement[] = [];
  const seen = new Set<string>();
  const degree = new Map<string, number>();
  for (const e of graph.edges) {
    if (!showLinks && e.type === LINK_REL) continue;
    if (!nodeIds.has(e.from) || !nodeIds.has(e.to)) continue;
    const id = edgeId(e.from, e.type, e.to);
    if (seen.has(id)) continue;
    seen.add(id);
    degree.set(e.from, (degree.get(e.from) ?? 0) + 1);
    degree.set(e.to, (degree.get(e.to) ?? 0) + 1);
    const classes = [e.type === LINK_REL ? 'link' : 'rel'];
    if (opts.selectedId && (e.from === opts.selectedId || e.to === opts.selectedId)) classes.push('touching');
    edges.push({ group: 'edges', data: { id, source: e.from, target: e.to, type: e.type }, classes: classes.join(' ') });
  }

  const nodes: NodeElement[] = [];
  for (const n of graph.nodes) {
    if (!nodeIds.has(n.id)) continue;
    const s = n.type ? style.get(n.type) : undefined;
    const classes = [n.placeholder ? 'placeholder' : 'note'];
    if (n.id === opts.selectedId) classes.push('selected');
    nodes.push({
      group: 'nodes',
      data: {
        id: n.id,
        label: n.name,
        type: n.type ?? '',
        layer: n.layer,
        color: n.placeholder ? PLACEHOLDER_COLOR : s?.color ?? DEFAULT_COLOR,
        shape: s?.shape ?? 'ellipse',
        size: Math.round(14 + Math.min(26, 4 * Math.sqrt(degree.get(n.id) ?? 0))),
        placeholder: n.placeholder,
      },
      classes: classes.join(' '),
    });
  }
  return { nodes, edges };
}
