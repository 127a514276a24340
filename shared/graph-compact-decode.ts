/**
 * decodeGraph (shared/graph-compact.ts re-exports it), in a module without zod: the renderer decodes the
 * canvas's graph without evaluating zod or the wire schema at start-up (main validates; issue 19 point 2).
 */
import type { CompactGraph } from './graph-compact.js';
import type { GraphSnapshot } from './types.js';

/** The GraphSnapshot a compact graph encodes; an inconsistent one (lengths, indices) throws naming the field. */
export function decodeGraph(c: CompactGraph): GraphSnapshot {
  const n = c.ids.length, m = c.from.length;
  const bad = (field: string, what: string) => new Error(`graph-compact: field '${field}': ${what}`);
  for (const [k, len] of [['names', c.names.length], ['type', c.type.length], ['layer', c.layer.length], ['path', c.path.length], ['nodeTags', c.nodeTags.length]] as const) {
    if (len !== n) throw bad(k, `${len} entries for ${n} nodes`);
  }
  for (const [k, len] of [['to', c.to.length], ['rel', c.rel.length], ['field', c.field.length]] as const) {
    if (len !== m) throw bad(k, `${len} entries for ${m} edges`);
  }
  const get = (list: readonly string[], i: number, field: string, k: number): string => {
    const s = list[i];
    if (s === undefined) throw bad(field, `index ${i} at ${k} is out of range`);
    return s;
  };
  const placeholder = new Uint8Array(n);
  for (const i of c.placeholders) {
    if (!(i >= 0 && i < n)) throw bad('placeholders', `node index ${i} is out of range`);
    placeholder[i] = 1;
  }
  const nodes: GraphSnapshot['nodes'] = new Array(n);
  for (let i = 0; i < n; i++) {
    nodes[i] = {
      id: c.ids[i]!, name: c.names[i]!, type: c.type[i] === -1 ? null : get(c.types, c.type[i]!, 'type', i),
      layer: get(c.layers, c.layer[i]!, 'layer', i), path: c.path[i]!, placeholder: placeholder[i] === 1,
      tags: c.nodeTags[i]!.map((t) => get(c.tags, t, 'nodeTags', i)),
    };
  }
  const edges: GraphSnapshot['edges'] = new Array(m);
  for (let k = 0; k < m; k++) {
    edges[k] = {
      from: get(c.ids, c.from[k]!, 'from', k), to: get(c.ids, c.to[k]!, 'to', k), type: get(c.relTypes, c.rel[k]!, 'rel', k),
      field: c.field[k] === -1 ? null : get(c.fields, c.field[k]!, 'field', k),
    };
  }
  return { nodes, edges };
}
