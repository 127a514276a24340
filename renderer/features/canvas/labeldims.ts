/**
 * Label sizes measured once per font and text (issue 19 point 1). Cytoscape keeps one measure per element and
 * label (rscratch.prefixedLabelDimsKey) and measures again (a canvas `font` parsed, `measureText`) whenever the
 * element's label text or font changes: a scrub step that restyles a node to another status and back measures
 * its label at every step. The measure depends only on the font (style, weight, size, family), the text-metrics
 * mode and the text, so it is kept here per that key, renderer-wide; a font that finishes loading (the page's
 * `document.fonts`) clears what was kept, as the same text may then measure differently.
 */

/** what Cytoscape's calculateLabelDimensions returns */
export interface LabelDims { width: number; height: number; labelActualAscent: number; labelActualDescent: number }

/** the part of an element read for the key (the properties calculateLabelDimensions itself reads) */
interface StyledEle { pstyle(name: string): { strValue?: string; pfValue?: number } }

interface LabelRenderer { calculateLabelDimensions(ele: StyledEle, text: string): LabelDims }

/** kept measures at most; the map starts again past it */
export const LABEL_DIMS_MAX = 20_000;

/** the font and text a measure depends on, as calculateLabelDimensions reads them */
export function labelDimsKey(ele: StyledEle, text: string): string {
  return `${ele.pstyle('font-style').strValue} ${ele.pstyle('font-weight').strValue} ${ele.pstyle('font-size').pfValue}px `
    + `${ele.pstyle('font-family').strValue}|${ele.pstyle('text-metrics').strValue || 'font'}|${text}`;
}

/**
 * Wrap the renderer's calculateLabelDimensions with the memo; returns the memo's `clear` (null when the renderer
 * has no such method: left alone). Each caller gets its own copy of a kept measure.
 */
export function installLabelDimsMemo(r: unknown, fonts?: { addEventListener(t: string, f: () => void): void }): { clear(): void; readonly size: number; hits: number } | null {
  const rr = r as Partial<LabelRenderer> | null;
  if (!rr || typeof rr.calculateLabelDimensions !== 'function') return null;
  const orig = rr.calculateLabelDimensions;
  const kept = new Map<string, LabelDims>();
  const memo = { clear: () => kept.clear(), get size() { return kept.size; }, hits: 0 };
  rr.calculateLabelDimensions = function (this: unknown, ele: StyledEle, text: string): LabelDims {
    const key = labelDimsKey(ele, text);
    let d = kept.get(key);
    if (d) memo.hits++;
    else {
      d = orig.call(this, ele, text);
      if (kept.size >= LABEL_DIMS_MAX) kept.clear();
      kept.set(key, d);
    }
    return { ...d };
  };
  fonts?.addEventListener('loadingdone', () => kept.clear());
  return memo;
}
