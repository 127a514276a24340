/**
 * What the canvas's edge panel and hover show for one drawn edge (issue 18):
 * the item of the note that writes it (each end's item holds that end's own
 * properties), the relationship's name as that note reads it (MEMBER_OF, or
 * HAS_MEMBER when the faction's note lists its members), and its properties.
 */
import type { RelItem } from '../../../shared/contract-edit.js';

export interface CanvasEdge { source: string; target: string; type: string }
export type EdgeInfo = RelItem;

export interface RelTypeView { name: string; properties?: Array<{ name: string; type: string; values?: Array<string | number | boolean> }> }

/**
 * The item the panel edits, of those that write the edge (edit-rel-items: one per end's note that writes it):
 * the one that already carries properties, else the edge's source end's; null for an edge no field writes (a body link).
 */
export function pickItem(edge: CanvasEdge, items: RelItem[]): EdgeInfo | null {
  const has = (i: RelItem) => Object.keys(i.properties).length > 0;
  return items.find(has) ?? items.find((i) => i.holder.id === edge.source) ?? items[0] ?? null;
}

/** `[[Oldmere Rises]]` -> Oldmere Rises, for display */
export function showValue(v: unknown): string {
  if (Array.isArray(v)) return v.map(showValue).join(', ');
  return String(v).replace(/\[\[([^\]|#]*)[^\]]*\]\]/g, '$1');
}

/**
 * The hover text: the type's declared properties first (the first one is the key property), then the rest
 * (since / until, undeclared ones); '' when the relationship has none.
 */
export function hoverText(info: EdgeInfo, type: RelTypeView | undefined): string {
  const declared = (type?.properties ?? []).map((p) => p.name);
  const keys = Object.keys(info.properties).sort((a, b) => rank(a, declared) - rank(b, declared));
  return keys.map((k) => `${k}: ${showValue(info.properties[k])}`).join(' · ');
}
function rank(k: string, declared: string[]): number {
  const i = declared.indexOf(k);
  return i >= 0 ? i : declared.length + (k === 'since' ? 0 : k === 'until' ? 1 : 2);
}

/** a form value -> the value written: numbers for integer/number (and a session number for since/until), '' = unset */
export function formValue(raw: string, type: string | undefined): string | number | boolean | null {
  const t = raw.trim();
  if (t === '') return null;
  if (type === 'integer' || type === 'number' || (type === undefined && /^\d+$/.test(t))) return Number.isFinite(Number(t)) ? Number(t) : t;
  if (type === 'boolean') return t === 'true';
  return t;
}
