/**
 * What the canvas's edge panel and hover show for one drawn edge (issue 18):
 * the note that writes it (an edge has one source note; each end's item holds
 * that end's own properties), the relationship's name as that note reads it
 * (MEMBER_OF, or HAS_MEMBER when the faction's note lists its members), and
 * its properties. Pure: built from the two ends' entity views.
 */
import type { RelationView } from '../../../shared/types.js';

/** the part of an entity view (entity-get) this reads */
export interface EndView { id: string; name: string; path: string | null; relations: RelationView[] }

export interface CanvasEdge { source: string; target: string; type: string }

export interface EdgeInfo {
  /** the entity whose note writes the item (edit-rel-set's `from`) and the name it reads the relationship by */
  holder: { id: string; name: string };
  rel: string;
  other: { id: string; name: string };
  field: string;
  path: string;
  properties: Record<string, unknown>;
}

export interface RelTypeView { name: string; properties?: Array<{ name: string; type: string; values?: Array<string | number | boolean> }> }

function written(view: EndView | null, edge: CanvasEdge, otherId: string): RelationView | undefined {
  return view?.relations.find((r) => r.type === edge.type && r.other.id === otherId && r.field !== null && r.source === view.path);
}

/** null for an edge no note's field writes (a body link) */
export function edgeInfo(edge: CanvasEdge, from: EndView | null, to: EndView | null): EdgeInfo | null {
  for (const [view, otherId] of [[from, edge.target], [to, edge.source]] as const) {
    const r = written(view, edge, otherId);
    if (view && r) {
      return { holder: { id: view.id, name: view.name }, rel: r.label, other: { id: r.other.id, name: r.other.name }, field: r.field!, path: r.source, properties: r.properties ?? {} };
    }
  }
  return null;
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
