/**
 * `--format mermaid | dot`: a neighbourhood diagram — the entities within
 * `depth` relationships of `focus` (both directions), or without a focus the
 * most important entities of the world — with the relationships among them.
 * Body links (LINKS_TO) are drawn dashed.
 */
import { CoreError } from '../domain/errors.js';
import { LINK_REL } from '../../shared/types.js';
import type { WorldEntity, WorldRelationship, WorldView } from '../visibility/world.js';
import { byImportance, importance } from './importance.js';
import { WorldNames } from './resolve.js';

export interface DiagramOptions { focus?: string; depth?: number; max?: number }

export function neighbourhood(view: WorldView, o: DiagramOptions): { nodes: WorldEntity[]; edges: WorldRelationship[]; focus: WorldEntity | null } {
  const max = o.max ?? 60;
  let keep: Set<string>;
  let focus: WorldEntity | null = null;
  if (o.focus) {
    focus = new WorldNames(view.entities).resolve(o.focus) ?? null;
    if (!focus) throw new CoreError('not-found', `--focus '${o.focus}': no entity of that name in this export (audience ${view.audience})`, { focus: o.focus });
    const adj = new Map<string, string[]>();
    for (const r of view.relationships) {
      adj.set(r.from, [...(adj.get(r.from) ?? []), r.to]);
      adj.set(r.to, [...(adj.get(r.to) ?? []), r.from]);
    }
    keep = new Set([focus.id]);
    let frontier = [focus.id];
    for (let d = 0; d < Math.max(1, o.depth ?? 1) && keep.size < max; d++) {
      const next: string[] = [];
      for (const id of frontier) for (const n of adj.get(id) ?? []) if (!keep.has(n) && keep.size < max) { keep.add(n); next.push(n); }
      frontier = next;
    }
  } else {
    keep = new Set(byImportance(view.entities, importance(view)).slice(0, max).map((e) => e.id));
  }
  const nodes = view.entities.filter((e) => keep.has(e.id));
  const edges = view.relationships.filter((r) => keep.has(r.from) && keep.has(r.to));
  return { nodes, edges, focus };
}

const mermaidText = (s: string) => s.replace(/"/g, '#quot;').replace(/[<>]/g, (c) => (c === '<' ? '#lt;' : '#gt;'));

export function mermaid(view: WorldView, o: DiagramOptions = {}): string {
  const { nodes, edges, focus } = neighbourhood(view, o);
  const id = new Map(nodes.map((n, i) => [n.id, `n${i}`]));
  const lines = ['graph LR'];
  for (const n of nodes) lines.push(`  ${id.get(n.id)}["${mermaidText(n.name)}${n.type ? ` (${mermaidText(n.type)})` : ''}"]`);
  for (const e of edges) lines.push(`  ${id.get(e.from)} ${e.type === LINK_REL ? '-.->' : '-->'}|${mermaidText(e.type)}| ${id.get(e.to)}`);
  if (focus) lines.push(`  style ${id.get(focus.id)} stroke-width:3px`);
  return lines.join('\n') + '\n';
}

const dotText = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

export function dot(view: WorldView, o: DiagramOptions = {}): string {
  const { nodes, edges, focus } = neighbourhood(view, o);
  const lines = [`digraph ${dotText(view.project)} {`, '  rankdir=LR;', '  node [shape=box, style=rounded];'];
  for (const n of nodes) lines.push(`  ${dotText(n.id)} [label=${dotText(n.type ? `${n.name}\n(${n.type})` : n.name)}${focus?.id === n.id ? ', penwidth=3' : ''}];`);
  for (const e of edges) lines.push(`  ${dotText(e.from)} -> ${dotText(e.to)} [label=${dotText(e.type)}${e.type === LINK_REL ? ', style=dashed' : ''}];`);
  lines.push('}');
  return lines.join('\n') + '\n';
}
