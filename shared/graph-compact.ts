/**
 * The graph snapshot in a compact wire form for the canvas (`graph-compact`): strings that repeat (types,
 * layers, tags, relationship types, fields) sent once in tables, nodes as parallel arrays, edges as node
 * index pairs. At 6k nodes / 20k edges the JSON is ~3x smaller than `graph-snapshot`'s (2.9 MB) and cheaper
 * to validate, serialise and parse. `encodeGraph` runs in main on the snapshot the core gives;
 * `decodeGraph` gives the renderer the same GraphSnapshot back (decode(encode(g)) equals g: tested).
 */
import { z } from 'zod';
import type { GraphSnapshot } from './types.js';

/**
 * A list of integers / of strings, checked in one loop: zod's per-element schemas cost ~250 ms on the shell's
 * first (cold) parse of a 6k-node, 20k-edge graph (~100k numbers), the loop a few ms. Still refused, naming the
 * field: anything but such a list.
 */
const Ints = z.custom<number[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!Number.isInteger(v[i])) return false;
  return true;
}, { message: 'expected a list of integers' });
const Strs = z.custom<string[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false;
  return true;
}, { message: 'expected a list of strings' });
const IntLists = z.custom<number[][]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) {
    const l: unknown = v[i];
    if (!Array.isArray(l)) return false;
    for (let j = 0; j < l.length; j++) if (!Number.isInteger(l[j])) return false;
  }
  return true;
}, { message: 'expected a list of lists of integers' });
const NullableStrs = z.custom<Array<string | null>>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (v[i] !== null && typeof v[i] !== 'string') return false;
  return true;
}, { message: 'expected a list of strings or nulls' });

export const CompactGraphZ = z.object({
  /** string tables */
  types: Strs, layers: Strs, tags: Strs, relTypes: Strs, fields: Strs,
  /** per node (same index): id, name, type (index into types, -1: none), layer (index), path (null: none) */
  ids: Strs, names: Strs, type: Ints, layer: Ints, path: NullableStrs,
  /** indices of placeholder nodes */
  placeholders: Ints,
  /** per node: its tags as indices into `tags` */
  nodeTags: IntLists,
  /** per edge (same index): from / to (node indices), type (index into relTypes), field (index into fields, -1: none) */
  from: Ints, to: Ints, rel: Ints, field: Ints,
});
export type CompactGraph = z.infer<typeof CompactGraphZ>;

function table(): { list: string[]; at(s: string): number } {
  const list: string[] = [], ix = new Map<string, number>();
  return {
    list,
    at(s) {
      let i = ix.get(s);
      if (i === undefined) { i = list.length; list.push(s); ix.set(s, i); }
      return i;
    },
  };
}

/**
 * The snapshot in compact form. An edge whose end is not among the nodes (a snapshot has none: the core and the
 * players' view keep an edge only between nodes they keep) cannot be indexed and is left out; the canvas draws
 * no such edge either (elements.ts keeps edges between shown nodes only).
 */
export function encodeGraph(g: GraphSnapshot): CompactGraph {
  const types = table(), layers = table(), tags = table(), rels = table(), fields = table();
  const at = new Map<string, number>();
  const n = g.nodes.length;
  const out: CompactGraph = {
    types: types.list, layers: layers.list, tags: tags.list, relTypes: rels.list, fields: fields.list,
    ids: new Array<string>(n), names: new Array<string>(n), type: new Array<number>(n), layer: new Array<number>(n),
    path: new Array<string | null>(n), placeholders: [], nodeTags: new Array<number[]>(n),
    from: [], to: [], rel: [], field: [],
  };
  g.nodes.forEach((v, i) => {
    at.set(v.id, i);
    out.ids[i] = v.id; out.names[i] = v.name; out.type[i] = v.type === null ? -1 : types.at(v.type);
    out.layer[i] = layers.at(v.layer); out.path[i] = v.path; out.nodeTags[i] = v.tags.map((t) => tags.at(t));
    if (v.placeholder) out.placeholders.push(i);
  });
  for (const e of g.edges) {
    const a = at.get(e.from), b = at.get(e.to);
    if (a === undefined || b === undefined) continue;
    out.from.push(a); out.to.push(b); out.rel.push(rels.at(e.type)); out.field.push(e.field === null ? -1 : fields.at(e.field));
  }
  return out;
}

export { decodeGraph } from './graph-compact-decode.js';
