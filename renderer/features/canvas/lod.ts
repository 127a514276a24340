/**
 * Level of detail for the canvas: which node labels are drawn at a zoom, and
 * at what size (placeLabels, labelFont), and the hairline edges of a big graph
 * drawn as one path (installHairlineBatch). Pure over plain numbers where it
 * can be (tested in lod.test.ts); the Cytoscape side is in controller.ts.
 */

/** on-screen size (px) of a shown node label at zoomed-out views; from zoom LABEL_PX/LABEL_MODEL_FONT on, labels grow with the zoom */
export const LABEL_PX = 11;
/** the stylesheet's node font size (model units, style.ts) */
export const LABEL_MODEL_FONT = 9;
/** style.ts: node labels' text-outline-width and text-margin-y (model units) */
export const LABEL_OUTLINE = 2;
export const LABEL_MARGIN_Y = 3;
/** free space kept around each label (screen px): a legible map, not wall-to-wall text */
export const LABEL_GAP_PX = { x: 6, y: 2 };

/** The font size (model units) of a shown node label at `zoom`: LABEL_PX on screen, or the stylesheet's size once that is bigger. */
export function labelFont(zoom: number): number {
  return Math.max(LABEL_MODEL_FONT, LABEL_PX / Math.max(zoom, 1e-6));
}

/** how far (a factor either way) the shown labels' font may be from labelFont(zoom) before a pick gives them the new size */
export const LABEL_FONT_SLACK = 1.1;

/**
 * The font size for a label pick at `zoom` when the shown labels have `prev`: `prev` while it is within
 * LABEL_FONT_SLACK of labelFont(zoom) (on screen ~10-12 px instead of 11), else labelFont(zoom). A small
 * change of zoom (a fit, a wheel step back) then restyles only the labels that come or go: a new size
 * on every shown label made the renderer measure, bound and draw them all again (~0.1-0.4 s at 2k nodes).
 */
export function pickLabelFont(zoom: number, prev?: number): number {
  const font = labelFont(zoom);
  if (prev === undefined || !(prev >= LABEL_MODEL_FONT)) return font;
  const r = prev / font;
  return r <= LABEL_FONT_SLACK && r >= 1 / LABEL_FONT_SLACK ? prev : font;
}

export interface LabelCandidate {
  id: string;
  /** model position and diameter of the node */
  x: number; y: number; size: number;
  /** the label's width (model units) at font size 1 */
  width: number;
  /** higher goes first */
  rank: number;
}

/** Where a kept label goes: below its node (the stylesheet's place) or, when that spot is taken, above it, right of it, left of it. */
export type LabelSpot = 'below' | 'above' | 'right' | 'left';
const SPOTS: readonly LabelSpot[] = ['below', 'above', 'right', 'left'];

/**
 * The labels to draw at `zoom` so that none overlap: most important first, a
 * label is kept below its node, or else above, right or left of it, at the
 * first of these spots where its box (as
 * Cytoscape bounds it: centred on the node, text-margin-y away, grown by the
 * outline and Cytoscape's 2 units of margin, plus LABEL_GAP_PX on screen)
 * meets no kept one. Boxes are bucketed in a grid of cells about one label
 * high, so the pass is near-linear (run at the end of a zoom, not per frame).
 * `font`: the shown labels' size (model units), labelFont(zoom) unless given (see pickLabelFont).
 */
export function placeLabels(nodes: readonly LabelCandidate[], zoom: number, font = labelFont(zoom)): Map<string, LabelSpot> {
  const gx = LABEL_GAP_PX.x / zoom, gy = LABEL_GAP_PX.y / zoom;
  const grow = LABEL_OUTLINE + 2;
  const kept = new Map<string, LabelSpot>();
  const cellW = font * 8, cellH = font * 2;
  const grid = new Map<number, number[]>();
  const boxes: number[] = [];
  const key = (cx: number, cy: number) => cx * 1_000_003 + cy;
  const free = (x1: number, y1: number, x2: number, y2: number): boolean => {
    for (let cx = Math.floor(x1 / cellW); cx <= Math.floor(x2 / cellW); cx++) {
      for (let cy = Math.floor(y1 / cellH); cy <= Math.floor(y2 / cellH); cy++) {
        for (const b of grid.get(key(cx, cy)) ?? []) {
          if (boxes[b]! < x2 && x1 < boxes[b + 2]! && boxes[b + 1]! < y2 && y1 < boxes[b + 3]!) return false;
        }
      }
    }
    return true;
  };
  const take = (x1: number, y1: number, x2: number, y2: number): void => {
    const at = boxes.length;
    boxes.push(x1, y1, x2, y2);
    for (let cx = Math.floor(x1 / cellW); cx <= Math.floor(x2 / cellW); cx++) {
      for (let cy = Math.floor(y1 / cellH); cy <= Math.floor(y2 / cellH); cy++) {
        const k = key(cx, cy);
        const l = grid.get(k);
        if (l) l.push(at); else grid.set(k, [at]);
      }
    }
  };
  const order = nodes.map((_, i) => i).sort((a, b) => nodes[b]!.rank - nodes[a]!.rank);
  for (const i of order) {
    const n = nodes[i]!;
    const w = Math.ceil(n.width * font);
    for (const spot of SPOTS) {
      const [bx1, by1, bx2, by2] = labelBox(n, w, font, spot);
      const b: [number, number, number, number] = [bx1 - grow - gx, by1 - grow - gy, bx2 + grow + gx, by2 + grow + gy];
      if (free(...b)) { take(...b); kept.set(n.id, spot); break; }
    }
  }
  return kept;
}

/**
 * The text's box (model units, before outline and margin) of a label `w` wide
 * in `font` at `spot`, as Cytoscape places it with style.ts's rules: below and
 * above centred, text-margin-y away; right and left centred on the node's
 * middle, text-margin-y as far from its side.
 */
export function labelBox(n: { x: number; y: number; size: number }, w: number, font: number, spot: LabelSpot): [number, number, number, number] {
  const r = n.size / 2, m = LABEL_MARGIN_Y;
  switch (spot) {
    case 'below': return [n.x - w / 2, n.y + r + m, n.x + w / 2, n.y + r + m + font];
    case 'above': return [n.x - w / 2, n.y - r - m - font, n.x + w / 2, n.y - r - m];
    case 'right': return [n.x + r + m, n.y - font / 2, n.x + r + m + w, n.y + font / 2];
    case 'left': return [n.x - r - m - w, n.y - font / 2, n.x - r - m, n.y + font / 2];
  }
}

let measureCtx: CanvasRenderingContext2D | null | undefined;
const widths = new Map<string, number>();
/** A label's width at font size 1 in `font` (a CSS font without the size, e.g. 'normal normal "Helvetica Neue", sans-serif'). */
export function textWidth(label: string, font: string): number {
  const k = `${font}|${label}`;
  let w = widths.get(k);
  if (w !== undefined) return w;
  if (measureCtx === undefined) measureCtx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (measureCtx) {
    const [style, weight, ...family] = font.split(' ');
    measureCtx.font = `${style} ${weight} 100px ${family.join(' ')}`;
    w = measureCtx.measureText(label).width / 100;
  } else {
    w = [...label].length * 0.6;
  }
  if (widths.size > 50_000) widths.clear();
  widths.set(k, w);
  return w;
}

/** The parts of Cytoscape's canvas renderer (3.x) the hairline batch uses. */
interface Renderer {
  drawCachedElements(ctx: CanvasRenderingContext2D, eles: ArrayLike<Ele>, pxRatio: number, extent: Box): void;
  drawCachedElement(ctx: CanvasRenderingContext2D, ele: Ele, pxRatio: number, extent: Box): void;
}
interface Box { x1: number; y1: number; x2: number; y2: number }
interface Ele {
  isEdge(): boolean; visible(): boolean; boundingBox(): Box & { w: number; h: number };
  pstyle(name: string): { value: unknown; pfValue: number; strValue: string };
  _private: { rscratch: { edgeType?: string; allpts?: number[] | null; badLine?: boolean } };
}

/**
 * The style of an edge that is a plain straight hairline (a big graph's
 * haystack edge: solid, no arrow, no label, no overlay), as a key that groups
 * edges drawn alike; null for anything else, drawn by Cytoscape as before.
 */
function hairlineKey(e: Ele): string | null {
  if (!e.isEdge()) return null;
  const rs = e._private.rscratch;
  if (rs.edgeType !== 'haystack' || rs.badLine || !rs.allpts || rs.allpts.length !== 4) return null;
  if (e.pstyle('line-style').value !== 'solid' || e.pstyle('line-fill').value !== 'solid' || e.pstyle('target-arrow-shape').value !== 'none'
    || e.pstyle('source-arrow-shape').value !== 'none' || e.pstyle('mid-target-arrow-shape').value !== 'none' || e.pstyle('mid-source-arrow-shape').value !== 'none'
    || e.pstyle('label').strValue || e.pstyle('source-label').strValue || e.pstyle('target-label').strValue
    || e.pstyle('overlay-opacity').value !== 0 || e.pstyle('underlay-opacity').value !== 0 || e.pstyle('line-outline-width').value !== 0) return null;
  const c = e.pstyle('line-color').value as number[];
  const a = (e.pstyle('opacity').value as number) * (e.pstyle('line-opacity').value as number);
  return `${e.pstyle('width').pfValue}|${e.pstyle('line-cap').value as string}|rgba(${c[0]},${c[1]},${c[2]},${a})`;
}

/**
 * While `on()`, draw runs of plain hairline edges (hairlineKey) as one path
 * and one stroke each instead of one path, stroke and a dozen style lookups
 * per edge: the bulk of a big graph's full frame on a software canvas. Paint
 * order is kept (a run ends at the first element drawn otherwise). Returns
 * false when the renderer lacks these internals (left alone).
 */
export function installHairlineBatch(r: unknown, on: () => boolean): boolean {
  const rr = r as Partial<Renderer> | null;
  if (!rr || typeof rr.drawCachedElements !== 'function' || typeof rr.drawCachedElement !== 'function') return false;
  const renderer = rr as Renderer;
  const orig = renderer.drawCachedElements;
  renderer.drawCachedElements = function (ctx, eles, pxRatio, extent) {
    if (!on()) { orig.call(renderer, ctx, eles, pxRatio, extent); return; }
    let run = '', count = 0;
    const flush = () => {
      if (!count) return;
      const [w, cap, colour] = run.split('|');
      ctx.lineWidth = Number(w);
      ctx.lineCap = cap as CanvasLineCap;
      ctx.strokeStyle = colour!;
      ctx.setLineDash([]);
      ctx.stroke();
      ctx.lineCap = 'butt';
      count = 0;
    };
    for (let i = 0; i < eles.length; i++) {
      const e = eles[i]!;
      // the bounding box first, as Cytoscape's drawCachedElement: it brings the edge's projection (rscratch) up to date
      const bb = e.isEdge() ? e.boundingBox() : null;
      const k = bb ? hairlineKey(e) : null;
      if (k === null || !bb) { flush(); renderer.drawCachedElement(ctx, e, pxRatio, extent); continue; }
      // and as there: nothing for an empty box, a hidden edge or one outside the view
      if (bb.w === 0 || bb.h === 0 || !e.visible() || (extent && !(bb.x1 <= extent.x2 && extent.x1 <= bb.x2 && bb.y1 <= extent.y2 && extent.y1 <= bb.y2))) continue;
      if (k.endsWith(',0)')) continue;
      if (k !== run || !count) { flush(); run = k; ctx.beginPath(); }
      const p = e._private.rscratch.allpts!;
      ctx.moveTo(p[0]!, p[1]!);
      ctx.lineTo(p[2]!, p[3]!);
      count++;
    }
    flush();
  };
  return true;
}
