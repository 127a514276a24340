/**
 * Static pictures of a graph for the site export: positions in a 0..1 square
 * (a radial layout around one entity, or a small deterministic force layout),
 * drawn as an SVG with a link per node. No script, no external resource.
 */
import type { WorldEntity, WorldRelationship } from '../visibility/world.js';

export type Positions = Map<string, { x: number; y: number }>;

export function radialLayout(center: string, around: string[]): Positions {
  const pos: Positions = new Map([[center, { x: 0.5, y: 0.5 }]]);
  around.forEach((id, i) => {
    const a = (2 * Math.PI * i) / Math.max(1, around.length) - Math.PI / 2;
    pos.set(id, { x: 0.5 + 0.38 * Math.cos(a), y: 0.5 + 0.38 * Math.sin(a) });
  });
  return pos;
}

/** Fruchterman–Reingold, 150 iterations from a circle: deterministic for the same input. */
export function forceLayout(ids: string[], edges: Array<Pick<WorldRelationship, 'from' | 'to'>>): Positions {
  const n = ids.length;
  const index = new Map(ids.map((id, i) => [id, i]));
  const x = ids.map((_, i) => 0.5 + 0.4 * Math.cos((2 * Math.PI * i) / Math.max(1, n)));
  const y = ids.map((_, i) => 0.5 + 0.4 * Math.sin((2 * Math.PI * i) / Math.max(1, n)));
  const k = Math.sqrt(1 / Math.max(1, n));
  const links = edges.map((e) => [index.get(e.from), index.get(e.to)]).filter((p): p is [number, number] => p[0] !== undefined && p[1] !== undefined && p[0] !== p[1]);
  for (let it = 0, t = 0.1; it < 150; it++, t *= 0.97) {
    const dx = new Float64Array(n), dy = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const ddx = x[i]! - x[j]!, ddy = y[i]! - y[j]!;
        const d2 = Math.max(1e-6, ddx * ddx + ddy * ddy);
        const f = (k * k) / d2;
        dx[i]! += ddx * f; dy[i]! += ddy * f; dx[j]! -= ddx * f; dy[j]! -= ddy * f;
      }
    }
    for (const [a, b] of links) {
      const ddx = x[a]! - x[b]!, ddy = y[a]! - y[b]!;
      const d = Math.max(1e-3, Math.hypot(ddx, ddy));
      const f = d / k;
      dx[a]! -= ddx * f; dy[a]! -= ddy * f; dx[b]! += ddx * f; dy[b]! += ddy * f;
    }
    for (let i = 0; i < n; i++) {
      const len = Math.max(1e-9, Math.hypot(dx[i]!, dy[i]!));
      x[i]! += (dx[i]! / len) * Math.min(len, t);
      y[i]! += (dy[i]! / len) * Math.min(len, t);
    }
  }
  // fit into the square with a margin
  const minX = Math.min(...x), maxX = Math.max(...x), minY = Math.min(...y), maxY = Math.max(...y);
  const sx = maxX - minX || 1, sy = maxY - minY || 1;
  return new Map(ids.map((id, i) => [id, { x: 0.08 + (0.84 * (x[i]! - minX)) / sx, y: 0.08 + (0.84 * (y[i]! - minY)) / sy }]));
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function svgGraph(pos: Positions, nodes: WorldEntity[], edges: WorldRelationship[], href: (e: WorldEntity) => string | null, focus: string | null, size = 640): string {
  const at = (id: string) => pos.get(id);
  const lines = edges.map((e) => {
    const a = at(e.from), b = at(e.to);
    return a && b ? `<line x1="${(a.x * size).toFixed(1)}" y1="${(a.y * size).toFixed(1)}" x2="${(b.x * size).toFixed(1)}" y2="${(b.y * size).toFixed(1)}"><title>${esc(e.type)}</title></line>` : '';
  }).join('');
  const dots = nodes.map((n) => {
    const p = at(n.id);
    if (!p) return '';
    const body = `<circle cx="${(p.x * size).toFixed(1)}" cy="${(p.y * size).toFixed(1)}" r="${n.id === focus ? 9 : 6}"></circle><text x="${(p.x * size + 10).toFixed(1)}" y="${(p.y * size + 4).toFixed(1)}">${esc(n.name)}</text>`;
    const link = href(n);
    return `<g${n.id === focus ? ' class="focus"' : ''}>${link ? `<a href="${esc(link)}">${body}</a>` : body}</g>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img">${lines}${dots}</svg>`;
}
