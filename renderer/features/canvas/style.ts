/**
 * The Cytoscape stylesheet. Element data and classes come from elements.ts:
 * type colour/shape/icon, `status-*` classes for the timeline overlay,
 * `symmetric` (no arrow), `link` (body [[links]]), `pinned`, `focus-root`,
 * and the edgehandles classes (`eh-*`) while a connection is being drawn.
 */
import type cytoscape from 'cytoscape';
import { LABEL_MARGIN_Y, LABEL_MODEL_FONT, LABEL_OUTLINE } from './lod.js';

/**
 * A 1x1 transparent GIF, drawn at size 0 (i.e. never drawn), as every node's
 * background image unless it has an icon. Cytoscape 3.34 recomputes a node's
 * `backgrounding` state on each draw and, for a node with NO background image,
 * flips it twice per draw (its second image pass counts an 'inside' slot the
 * first did not): each flip restyles the node and throws away its cached
 * textures, so every frame re-styled and re-rasterised every node (≈0.3-1 s a
 * frame at 2k nodes in headless Chromium). With one loaded image the count is
 * stable and the caches hold.
 */
export const BLANK_IMAGE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
const NO_ICON = { 'background-image': BLANK_IMAGE, 'background-width': 0, 'background-height': 0 } as const;

/**
 * Opacity stated on every node and edge (the default, 1). Cytoscape 3.34 treats an opacity change from or to
 * an unset value as a possible change of draw order (its zeroNonZero check: "null could be any value"), so a
 * timeline step that gave or took a status class with an opacity (not yet created, destroyed, removed) made
 * the renderer sort all elements again by z-order before its next frame: ~11 elements a step in the bench's
 * scrub, a full sort of 4,400 each time. Stated, 1 -> 0.18 is nonzero to nonzero: no re-sort.
 */
const OPAQUE = { opacity: 1 } as const;

/** edge width in big graphs (model units): under one screen pixel up to zoom 1/BIG_EDGE_WIDTH */
export const BIG_EDGE_WIDTH = 0.6;
/** node labels in big graphs show from this rendered font size (9 px labels: from zoom 2 on) */
export const BIG_LABEL_MIN_FONT = 19;

export const CANVAS_STYLE: cytoscape.StylesheetJson = [
  { selector: 'node', style: {
    'background-color': 'data(color)', shape: 'data(shape)' as never, width: 'data(size)', height: 'data(size)',
    label: 'data(label)', 'font-size': LABEL_MODEL_FONT, color: '#1d232b', 'text-valign': 'bottom', 'text-margin-y': LABEL_MARGIN_Y,
    'text-outline-color': '#f7f7f5', 'text-outline-width': LABEL_OUTLINE, 'border-width': 1, 'border-color': '#ffffff',
    // below this on-screen size labels are not drawn: big graphs stay fast when zoomed out
    'min-zoomed-font-size': 7,
    ...NO_ICON, ...OPAQUE,
  } },
  { selector: 'node[iconUrl != ""]', style: {
    // the icon glyph sits in the node, the name below it (the glyph is a background SVG: elements.ts iconSvg)
    'background-image': 'data(iconUrl)', 'background-width': 'auto', 'background-height': 'auto', 'background-fit': 'contain', 'background-clip': 'none', 'background-image-opacity': 0.9,
  } },
  { selector: 'node.placeholder', style: { 'border-style': 'dashed', 'border-color': '#8a8f98', color: '#6b717a' } },
  { selector: 'node.pinned', style: { 'border-width': 2, 'border-color': '#111827', 'border-style': 'double' } },
  { selector: 'node.focus-root', style: { 'border-width': 3, 'border-color': '#d97706' } },
  // level of detail (controller.ts declutter): a shown label is drawn over the other nodes, above, right or left of its node when the spot below was taken
  { selector: 'node.lbl-on', style: { 'z-index': 5 } },
  { selector: 'node.lbl-above', style: { 'text-valign': 'top', 'text-margin-y': -LABEL_MARGIN_Y } },
  { selector: 'node.lbl-right', style: { 'text-valign': 'center', 'text-halign': 'right', 'text-margin-y': 0, 'text-margin-x': LABEL_MARGIN_Y } },
  { selector: 'node.lbl-left', style: { 'text-valign': 'center', 'text-halign': 'left', 'text-margin-y': 0, 'text-margin-x': -LABEL_MARGIN_Y } },
  { selector: 'node.selected', style: { 'border-width': 3, 'border-color': '#111827', 'font-weight': 'bold', 'z-index': 10 } },
  // timeline overlay
  { selector: 'node.status-dead', style: { 'background-color': '#4b5563', 'background-blacken': 0.3, 'border-color': '#111', 'border-width': 2, color: '#6b7280', label: 'data(struck)' } },
  // the strike-through: Cytoscape has no text-decoration (it rejects line-through), so the label itself is struck (elements.ts strike)
  { selector: 'node.status-destroyed', style: { 'background-color': '#7f1d1d', opacity: 0.55, 'border-style': 'dotted', 'border-color': '#7f1d1d', 'border-width': 2, color: '#7f1d1d', label: 'data(struck)' } },
  { selector: 'node.status-not-yet-created', style: { opacity: 0.18, 'border-style': 'dashed', 'border-color': '#9ca3af', 'text-opacity': 0.4 } },
  { selector: 'node.status-created', style: { 'border-color': '#16a34a', 'border-width': 4 } },
  { selector: 'edge', style: {
    width: 1.2, 'line-color': '#9aa3ad', 'curve-style': 'bezier', 'target-arrow-shape': 'triangle',
    'target-arrow-color': '#9aa3ad', 'arrow-scale': 0.7,
    label: 'data(label)', 'font-size': 7, color: '#6b717a', 'text-rotation': 'autorotate',
    'text-background-color': '#f7f7f5', 'text-background-opacity': 0.85, 'text-background-padding': '1px',
    'min-zoomed-font-size': 8, ...OPAQUE,
  } },
  // big graphs (elements.ts BIG_GRAPH): straight unlabelled edges without arrows — a full frame costs far less.
  // Thinner than a pixel at the zoom that shows most of such a graph (up to ~1.6), where the canvas draws
  // them as hairlines: rasterising 8k edges 1.2 px wide took ~200 ms a frame on a software canvas, ~70 ms as
  // hairlines. Before the rules below, so touching, timeline and selected edges keep their widths and colours.
  { selector: 'edge.big', style: { 'curve-style': 'haystack', 'haystack-radius': 0, 'target-arrow-shape': 'none', label: '', width: BIG_EDGE_WIDTH } },
  { selector: 'edge.symmetric', style: { 'target-arrow-shape': 'none', 'source-arrow-shape': 'none', 'line-color': '#7c8794' } },
  { selector: 'edge.link', style: { 'line-style': 'dotted', opacity: 0.45, 'target-arrow-shape': 'none' } },
  { selector: 'edge.touching', style: { 'line-color': '#1f2937', 'target-arrow-color': '#1f2937', width: 2, opacity: 1 } },
  { selector: 'edge.status-removed', style: { 'line-style': 'dashed', opacity: 0.35, 'line-color': '#b91c1c', 'target-arrow-color': '#b91c1c' } },
  { selector: 'edge.status-added', style: { width: 3, 'line-color': '#16a34a', 'target-arrow-color': '#16a34a', opacity: 1 } },
  { selector: 'edge:selected', style: { width: 3, 'line-color': '#2563eb', 'target-arrow-color': '#2563eb', 'z-index': 20 } },
  { selector: 'node.dim, edge.dim', style: { opacity: 0.15 } },
  { selector: 'edge.big:selected, edge.big.touching', style: { 'curve-style': 'straight', 'target-arrow-shape': 'triangle', label: 'data(label)' } },
  // labels from zoom 2 on (Cytoscape rounds the zoom up to a power of two for this test: 9 px x 4 >= 19):
  // at the zoom that fits a big graph they are a heap of 9 px text drawn with an outline, costly every frame.
  // The selection and the focus root keep theirs at any zoom.
  { selector: 'node.big', style: { ...NO_ICON, 'border-width': 0, 'min-zoomed-font-size': BIG_LABEL_MIN_FONT } },
  { selector: 'node.big.selected, node.big.pinned, node.big.focus-root', style: { 'border-width': 3 } },
  { selector: 'node.big.selected, node.big.focus-root', style: { 'min-zoomed-font-size': 0 } },
  // level of detail: labels that would overlap a more important one at this zoom are not drawn (controller.ts declutter;
  // the shown ones get their size, LABEL_PX on screen, and min-zoomed-font-size 0 there, so node.big's 19 holds only until the first pick)
  { selector: 'node.lbl-off', style: { 'text-opacity': 0 } },
  // the selected node's neighbourhood stands out and keeps its labels at any zoom
  { selector: 'node.near', style: { 'border-width': 2, 'border-color': '#111827', 'min-zoomed-font-size': 0, 'text-opacity': 1, 'z-index': 9 } },
  { selector: 'node.selected, node.focus-root', style: { 'min-zoomed-font-size': 0, 'text-opacity': 1 } },
  // drawing a connection (cytoscape-edgehandles)
  { selector: '.eh-handle', style: {
    'background-color': '#d97706', width: 12, height: 12, shape: 'ellipse', 'border-width': 2, 'border-color': '#fff',
    label: '', ...NO_ICON, 'overlay-opacity': 0, 'z-index': 100,
  } },
  { selector: '.eh-source, .eh-target, .eh-hover', style: { 'border-width': 3, 'border-color': '#d97706' } },
  { selector: '.eh-preview, .eh-ghost-edge', style: {
    'line-color': '#d97706', 'target-arrow-color': '#d97706', 'line-style': 'dashed', width: 2, label: '',
  } },
  { selector: '.eh-ghost-edge.eh-preview-active', style: { opacity: 0 } },
  { selector: '.eh-ghost-node', style: { opacity: 0, label: '', ...NO_ICON } },
];
