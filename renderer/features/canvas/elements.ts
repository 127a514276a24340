/**
 * The canvas's view model: a pure function from the graph snapshot, the
 * schema's styles, the filters, the focus and the timeline overlay to
 * Cytoscape element definitions. The Canvas component only renders (and
 * diff-applies) what this returns.
 *
 * Every element carries `data.status` (nodes: 'normal' or an overlay status;
 * edges: 'normal' | 'added' | 'removed') and a matching `status-<s>` class.
 */
import type { SchemaView } from '../../../shared/contract.js';
import { LINK_REL, type EntitySummary, type GraphSnapshot } from '../../../shared/types.js';
import type { CanvasOverlay, OverlayStatus } from './overlay.js';
import { indexElements, overlaid } from './overlaid.js';

export type NodeStatus = 'normal' | OverlayStatus;
export type EdgeStatus = 'normal' | 'added' | 'removed';

export interface NodeData {
  id: string; label: string; type: string; layer: string; color: string; shape: string; icon: string;
  /** the icon as an SVG data URL ('' = none), so the stylesheet maps it with data() instead of a function */
  iconUrl: string;
  size: number; placeholder: boolean; status: NodeStatus; note: string;
  /** the label struck through with U+0336 (drawn for dead/destroyed: Cytoscape has no text-decoration) */
  struck: string;
  /** 0..1: PageRank when the core gave it, else degree (elements.ts importanceOf); decides size and which labels show */
  importance: number;
}
export interface EdgeData {
  id: string; source: string; target: string; type: string; label: string; symmetric: boolean; status: EdgeStatus;
}
export interface NodeElement { group: 'nodes'; data: NodeData; classes: string }
export interface EdgeElement { group: 'edges'; data: EdgeData; classes: string }
export interface CanvasElements { nodes: NodeElement[]; edges: EdgeElement[] }

/** Empty or missing list = no restriction. */
export interface CanvasFilters {
  types?: string[];
  layers?: string[];
  /** a node shows when it has any of these tags */
  tags?: string[];
  relTypes?: string[];
  /**
   * body [[links]] (LINKS_TO) as faint edges. Default (undefined): off when the
   * graph has typed relationships, on when body links are all it has (linksByDefault).
   */
  showLinks?: boolean;
  /** placeholders (names with no note yet); default true */
  showPlaceholders?: boolean;
}

export interface ElementOptions {
  styles?: SchemaView['entityTypes'];
  relTypes?: SchemaView['relationshipTypes'];
  selectedId?: string | null;
  filters?: CanvasFilters;
  /**
   * Only a neighbourhood; the root is marked. With `depth`: every node within
   * that many hops over the relationships the canvas shows (filters and the
   * body-link toggle apply), computed here, no round trip; else `ids`.
   */
  focus?: { root: string; ids?: readonly string[]; depth?: number } | null;
  overlay?: CanvasOverlay;
  /** ids of user-pinned nodes (class `pinned`) */
  pinned?: ReadonlySet<string>;
  /** from this many visible nodes every element gets class `big` (cheaper drawing: straight edges, no icons); default BIG_GRAPH */
  bigAt?: number;
  /** entity id -> importance score (PageRank); missing = rank by degree */
  rank?: ReadonlyMap<string, number> | null;
}

export const BIG_GRAPH = 1200;

/**
 * Whether the canvas draws these elements straight onto the canvas instead of
 * through Cytoscape's texture caches: yes for a big graph (class `big`). The
 * caches keep a bitmap per element and label per zoom level; on a software
 * canvas (headless Chromium, 2.4k nodes and 8k edges) a full frame drawn from
 * them cost 300-480 ms of script against 110-150 ms drawn directly: each copy
 * out of a texture just written to is a readback, and every new zoom level
 * re-rasterises thousands of bitmaps, refines them over the next frames and
 * redraws again.
 */
export function drawsDirect(els: CanvasElements): boolean {
  const first = els.nodes[0];
  return !!first && first.classes.split(' ').includes('big');
}

export const DEFAULT_COLOR = '#8a8f98';
export const PLACEHOLDER_COLOR = '#c8ccd2';
/** Shapes Cytoscape draws; anything else in schema.yaml falls back to ellipse. */
export const SHAPES = new Set([
  'ellipse', 'triangle', 'round-triangle', 'rectangle', 'round-rectangle', 'bottom-round-rectangle', 'cut-rectangle',
  'barrel', 'rhomboid', 'right-rhomboid', 'diamond', 'round-diamond', 'pentagon', 'round-pentagon', 'hexagon',
  'round-hexagon', 'concave-hexagon', 'heptagon', 'round-heptagon', 'octagon', 'round-octagon', 'star', 'tag',
  'round-tag', 'vee',
]);
/** Default palette for types without a `ui.types` entry: stable per type name. */
const PALETTE = ['#3b6ea5', '#8e3b46', '#6b8e4e', '#b5651d', '#7a6a9e', '#c9a227', '#2f8f83', '#a0527a', '#5a6b7d'];

export function edgeId(from: string, type: string, to: string): string {
  return `${from}\u2192${type}\u2192${to}`;
}

/** 'MEMBER_OF' -> 'member of' */
export function relLabel(type: string): string {
  return type.toLowerCase().replace(/_/g, ' ');
}

export function defaultColor(type: string | null): string {
  if (!type) return DEFAULT_COLOR;
  let h = 0;
  for (const c of type) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}

const svgCache = new Map<string, string>();
/** A glyph as an SVG data URL (Cytoscape draws images, not two labels per node). */
export function iconSvg(glyph: string): string {
  if (!glyph) return '';
  let url = svgCache.get(glyph);
  if (!url) {
    const esc = glyph.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><text x="16" y="22" font-size="18" font-family="sans-serif" font-weight="bold" text-anchor="middle" fill="#ffffff">${esc}</text></svg>`;
    url = `data:image/svg+xml;utf8,${encodeURIComponent(svg)}`;
    svgCache.set(glyph, url);
  }
  return url;
}

/** One glyph drawn inside the node: the schema's `icon` if short, else the type's initial. */
export function iconOf(type: string | null, icon: string | undefined): string {
  if (icon && [...icon].length <= 2) return icon;
  return type ? type[0]!.toUpperCase() : '';
}

/** Body links show by default only where they are the world's only relationships (issue 20.4). */
export function linksByDefault(graph: GraphSnapshot): boolean {
  return !graph.edges.some((e) => e.type !== LINK_REL);
}

/** A vault without types is coloured by top-level folder: the colour key of a node. */
export function colourKey(n: EntitySummary, typed: boolean): string | null {
  if (typed || !n.path) return n.type;
  const i = n.path.indexOf('/');
  return i > 0 ? `folder:${n.path.slice(0, i)}` : 'folder:';
}

/** The label with a combining long stroke after each character: a strike-through Cytoscape draws. */
export function strike(label: string): string {
  return [...label].map((c) => `${c}\u0336`).join('');
}

/**
 * Node diameter (model units) from how many nodes are visible and the node's
 * importance (0..1): small graphs get big discs, thousands get small ones so
 * the fitted view is not a solid blob; important nodes up to 3x the least.
 */
export function nodeSize(visible: number, importance: number): number {
  const base = visible <= 60 ? 22 : visible <= 300 ? 16 : visible <= 1500 ? 11 : 8;
  return Math.round(base * (1 + 2 * Math.sqrt(Math.max(0, Math.min(1, importance)))));
}

const some = (xs: string[] | undefined): xs is string[] => !!xs && xs.length > 0;

export function nodeVisible(n: EntitySummary, f: CanvasFilters): boolean {
  if (n.placeholder && f.showPlaceholders === false) return false;
  if (some(f.types) && !f.types.includes(n.type ?? '')) return false;
  if (some(f.layers) && !f.layers.includes(n.layer)) return false;
  if (some(f.tags) && !n.tags.some((t) => f.tags!.includes(t))) return false;
  return true;
}

export function edgeVisible(type: string, f: CanvasFilters, links: boolean): boolean {
  if (type === LINK_REL && !(f.showLinks ?? links)) return false;
  if (some(f.relTypes) && !f.relTypes.includes(type)) return false;
  return true;
}

/**
 * Per graph snapshot, built once: node index by id, and each node's edges (indices into graph.edges).
 * A focus then costs O(its neighbourhood), not O(graph) (issue 19: a 2-hop focus in a 10k world).
 */
interface GraphIndex { at: Map<string, number>; incident: Map<string, number[]> }
const graphIndexes = new WeakMap<GraphSnapshot, GraphIndex>();
function graphIndex(graph: GraphSnapshot): GraphIndex {
  let gi = graphIndexes.get(graph);
  if (gi) return gi;
  const at = new Map<string, number>();
  graph.nodes.forEach((n, i) => at.set(n.id, i));
  const incident = new Map<string, number[]>();
  const put = (id: string, i: number) => { let l = incident.get(id); if (!l) incident.set(id, l = []); l.push(i); };
  graph.edges.forEach((e, i) => { put(e.from, i); if (e.to !== e.from) put(e.to, i); });
  graphIndexes.set(graph, gi = { at, incident });
  return gi;
}

/** The root and every node within `depth` hops over the visible relationships (either direction), among the visible nodes. */
function hops(graph: GraphSnapshot, root: string, depth: number, f: CanvasFilters, links: boolean, overlay: CanvasOverlay): Set<string> {
  const gi = graphIndex(graph);
  const shown = (id: string) => {
    if (id === root) return true;
    const i = gi.at.get(id);
    return i !== undefined && nodeVisible(graph.nodes[i]!, f);
  };
  // the overlay's added edges (a few): their own adjacency
  const extra = new Map<string, string[]>();
  for (const e of overlay?.addedEdges ?? []) {
    if (!edgeVisible(e.type, f, links)) continue;
    let l = extra.get(e.from); if (!l) extra.set(e.from, l = []); l.push(e.to);
    let m = extra.get(e.to); if (!m) extra.set(e.to, m = []); m.push(e.from);
  }
  const out = new Set([root]);
  let ring = [root];
  for (let d = 0; d < depth && ring.length; d++) {
    const next: string[] = [];
    const reach = (m: string) => { if (!out.has(m) && shown(m)) { out.add(m); next.push(m); } };
    for (const id of ring) {
      for (const i of gi.incident.get(id) ?? []) {
        const e = graph.edges[i]!;
        if (edgeVisible(e.type, f, links)) reach(e.from === id ? e.to : e.from);
      }
      for (const m of extra.get(id) ?? []) reach(m);
    }
    ring = next;
  }
  return out;
}

/**
 * The canvas's elements: the overlay-free picture (every status 'normal';
 * the overlay only widens a focus's hops) with the timeline overlay's
 * statuses and edges laid on it (overlaid.ts). A scrubber step changes only
 * that second part, so the canvas restyles just what it changes.
 */
export function toElements(graph: GraphSnapshot, opts: ElementOptions = {}): CanvasElements {
  const base = baseElements(graph, opts);
  return opts.overlay ? overlaid(indexElements(base, graph, opts), opts.overlay) : base;
}

/** toElements without the overlay's statuses and edges (sizes and the selection's neighbours come from the notes alone). */
export function baseElements(graph: GraphSnapshot, opts: ElementOptions = {}): CanvasElements {
  const f: CanvasFilters = opts.filters ?? {};
  const style = new Map((opts.styles ?? []).map((t) => [t.name, t]));
  const symmetric = new Set((opts.relTypes ?? []).filter((r) => r.symmetric).map((r) => r.name));
  const overlay = opts.overlay ?? null;
  const links = linksByDefault(graph);
  const focus = opts.focus?.depth !== undefined ? hops(graph, opts.focus.root, opts.focus.depth, f, links, overlay)
    : opts.focus ? new Set(opts.focus.ids ?? []).add(opts.focus.root) : null;
  const typed = graph.nodes.some((n) => n.type !== null);

  // a focus walks its own nodes and their edges (in the graph's order), not the whole graph
  const gi = focus ? graphIndex(graph) : null;
  const focusNodes = gi && focus ? [...focus].map((id) => gi.at.get(id)).filter((i): i is number => i !== undefined).sort((a, b) => a - b).map((i) => graph.nodes[i]!) : null;
  const focusEdges = gi && focus ? [...new Set([...focus].flatMap((id) => gi.incident.get(id) ?? []))].sort((a, b) => a - b).map((i) => graph.edges[i]!) : null;
  const nodeIds = new Set<string>();
  for (const n of focusNodes ?? graph.nodes) {
    if (focus && !focus.has(n.id)) continue;
    // the focus root and the selection stay visible whatever the filters say
    if (nodeVisible(n, f) || n.id === opts.focus?.root) nodeIds.add(n.id);
  }

  const edges: EdgeElement[] = [];
  const seen = new Set<string>();
  const degree = new Map<string, number>();
  const push = (from: string, type: string, to: string) => {
    if (!edgeVisible(type, f, links) || !nodeIds.has(from) || !nodeIds.has(to)) return;
    const sym = symmetric.has(type);
    // a symmetric pair stored both ways is one undirected edge
    const [a, b] = sym && to < from ? [to, from] : [from, to];
    const id = edgeId(a, type, b);
    if (seen.has(id)) return;
    seen.add(id);
    degree.set(a, (degree.get(a) ?? 0) + 1);
    degree.set(b, (degree.get(b) ?? 0) + 1);
    edges.push(edgeElement(a, type, b, sym, 'normal', opts.selectedId ?? null, false));
  };
  for (const e of focusEdges ?? graph.edges) push(e.from, e.type, e.to);
  // the selected node's neighbours (class `near`): drawn to stand out, labels always shown
  const near = new Set<string>();
  if (opts.selectedId) for (const e of edges) {
    if (e.data.source === opts.selectedId) near.add(e.data.target);
    else if (e.data.target === opts.selectedId) near.add(e.data.source);
  }

  const big = nodeIds.size >= (opts.bigAt ?? BIG_GRAPH);
  if (big) for (const e of edges) e.classes += ' big';
  const nodes: NodeElement[] = [];
  // importance: PageRank scaled to the visible maximum, else degree likewise
  let maxDeg = 1, maxRank = 0;
  for (const d of degree.values()) maxDeg = Math.max(maxDeg, d);
  if (opts.rank) for (const id of nodeIds) maxRank = Math.max(maxRank, opts.rank.get(id) ?? 0);
  const importanceOf = (id: string) => (maxRank > 0 ? (opts.rank!.get(id) ?? 0) / maxRank : (degree.get(id) ?? 0) / maxDeg);
  for (const n of focusNodes ?? graph.nodes) {
    if (!nodeIds.has(n.id)) continue;
    const s = n.type ? style.get(n.type) : undefined;
    const classes = [n.placeholder ? 'placeholder' : 'note', 'status-normal'];
    if (n.id === opts.selectedId) classes.push('selected');
    else if (near.has(n.id)) classes.push('near');
    if (n.id === opts.focus?.root) classes.push('focus-root');
    if (opts.pinned?.has(n.id)) classes.push('pinned');
    if (big) classes.push('big');
    nodes.push({
      group: 'nodes',
      data: {
        id: n.id,
        label: n.name,
        type: n.type ?? '',
        layer: n.layer,
        color: n.placeholder ? PLACEHOLDER_COLOR : s?.color ?? defaultColor(colourKey(n, typed)),
        shape: s?.shape && SHAPES.has(s.shape) ? s.shape : 'ellipse',
        icon: iconOf(n.type, s?.icon),
        iconUrl: big ? '' : iconSvg(iconOf(n.type, s?.icon)),
        size: nodeSize(nodeIds.size, importanceOf(n.id)),
        placeholder: n.placeholder,
        status: 'normal',
        note: '',
        struck: '',
        importance: Math.round(importanceOf(n.id) * 1000) / 1000,
      },
      classes: classes.join(' '),
    });
  }
  return { nodes, edges };
}

/** One edge element (canonical ends `a`, `b`); `big`: the lean style of a big graph. */
export function edgeElement(a: string, type: string, b: string, symmetric: boolean, status: EdgeStatus, selectedId: string | null, big: boolean): EdgeElement {
  const classes = [type === LINK_REL ? 'link' : 'rel', `status-${status}`];
  if (symmetric) classes.push('symmetric');
  if (selectedId && (a === selectedId || b === selectedId)) classes.push('touching');
  if (big) classes.push('big');
  return {
    group: 'edges',
    data: { id: edgeId(a, type, b), source: a, target: b, type, label: type === LINK_REL ? '' : relLabel(type), symmetric, status },
    classes: classes.join(' '),
  };
}

/** What the filter menus offer: every type, layer, tag and relationship type in the graph, sorted. */
export function filterChoices(graph: GraphSnapshot): { types: string[]; layers: string[]; tags: string[]; relTypes: string[] } {
  const types = new Set<string>(), layers = new Set<string>(), tags = new Set<string>(), rels = new Set<string>();
  for (const n of graph.nodes) {
    if (n.type) types.add(n.type);
    layers.add(n.layer);
    for (const t of n.tags) tags.add(t);
  }
  for (const e of graph.edges) rels.add(e.type);
  const sort = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
  return { types: sort(types), layers: sort(layers), tags: sort(tags), relTypes: sort(rels) };
}
