/**
 * The model snapshot (issue 15 point 6, warm open): the resolved model of the last whole-vault sync, kept in
 * one file (`<dbDir>/model.snap`, v8-serialised), so that opening a vault whose notes are all unchanged
 * restores the model instead of resolving every note again (references, validation, properties, ~183k edges
 * on the real-shaped 7k vault).
 *
 * What it holds, per note in the model's order: layer, type, name key, id, problems, placeholders,
 * its reverse-index keys (format 2: the reverse index is built without deriving the note's refs, which would
 * read its frontmatter and links), and its edges and reference targets as typed arrays over one id table (edge types and fields over a second
 * string table; the rare edge properties beside). Not the notes: they come from the note cache or the files
 * (sync/stat-cache.ts), and the snapshot names the path and content hash of every note it was built from.
 *
 * It is used only when it was built (a) by this format, (b) under the same key (the caller's fingerprint of
 * config, schema and model version, with the parser's format), and (c) from exactly the notes now read: the
 * same paths with the same content hashes (the hash is the truth, as for the graph). Anything else — a missing,
 * truncated, corrupt, foreign or older file, one note added, removed or changed — means "not used": the model
 * is built from the notes as without a snapshot. Never a wrong model: restoring validates every index first.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import type { Problem, RelationshipRecord } from '../../shared/types.js';
import type { ParsedNote } from '../parse/types.js';
import { NONE, type EdgeGroups, type ResolvedNote, type VaultModel } from './model.js';

/** Bump when the snapshot's layout or the meaning of a resolved state changes. */
export const SNAPSHOT_FORMAT = 3; // (properties are derived again from the notes, when first read; 2: refKeys; 3: edge groups)

/** The file as stored. Index arrays are Int32Array; -1 stands for null. */
interface Snap {
  format: number;
  key: string;
  /** every note the model was loaded from: path and content hash */
  inPaths: string[];
  inHashes: string[];
  /** entity ids (note entities and placeholders) */
  ids: string[];
  /** other strings: layers, types, edge types, fields */
  strs: string[];
  /** the model's id assignment order (indexes into ids) */
  idOrder: Int32Array;
  /** per resolved note, in the model's order */
  path: Int32Array; // into inPaths
  layer: Int32Array; // into strs
  type: Int32Array; // into strs, -1: untyped
  nameKey: string[];
  id: Int32Array; // into ids
  typeProblems: Problem[][];
  problems: Problem[][];
  placeholders: Array<Array<[number, string]>>; // [id index, name]
  targetOff: Int32Array; // n + 1
  targets: Int32Array; // into ids
  edgeOff: Int32Array; // n + 1
  eFrom: Int32Array;
  eTo: Int32Array;
  eType: Int32Array; // into strs
  eField: Int32Array; // into strs, -1: null
  eLine: Int32Array;
  /** the reverse-index keys of each note's refs: refKeys[refOff[i]..refOff[i+1]) into keys */
  keys: string[];
  refOff: Int32Array; // n + 1
  refKeys: Int32Array; // into keys
  /**
   * The edges grouped by key (format 3): group g's edges are gMem[gOff[g]..gOff[g+1]), the groups in the order
   * their keys first appear with the notes in path order (the model's edge maps' order), so a restore makes the
   * visible edges without a key string per edge (model.ts EdgeGroups).
   */
  gOff: Int32Array; // groups + 1
  gMem: Int32Array; // edge indexes
  /** edges with relationship properties: [edge index, properties, inverseProperties] */
  eProps: Array<[number, Record<string, unknown> | undefined, Record<string, unknown> | undefined]>;
  /**
   * The graph store's write generation when the snapshot was saved, with the store holding exactly these notes'
   * hashes (GraphStore.generation()); absent: not known. Optional, so a snapshot without it reads as before.
   */
  storeGen?: string;
}

class Table {
  readonly list: string[] = [];
  private readonly at = new Map<string, number>();
  of(s: string): number {
    let i = this.at.get(s);
    if (i === undefined) { i = this.list.length; this.list.push(s); this.at.set(s, i); }
    return i;
  }
}

/**
 * The snapshot of `model`, loaded from `notes` (the read it was built from), or null when the model does not
 * hold exactly them resolved (then nothing is saved).
 */
export function encodeSnapshot(model: VaultModel, notes: readonly ParsedNote[], key: string, storeGen: string | null = null): Snap | null {
  const state = model.resolvedState();
  if (!state) return null;
  const inIdx = new Map<string, number>();
  notes.forEach((n, i) => inIdx.set(n.path, i));
  if (inIdx.size !== notes.length) return null;
  const ids = new Table();
  const strs = new Table();
  const keys = new Table();
  const idOrder = Int32Array.from(state.idOrder, (id) => ids.of(id));
  const n = state.notes.length;
  const s: Snap = {
    format: SNAPSHOT_FORMAT, key, inPaths: notes.map((x) => x.path), inHashes: notes.map((x) => x.hash),
    ids: ids.list, strs: strs.list, idOrder,
    path: new Int32Array(n), layer: new Int32Array(n), type: new Int32Array(n), nameKey: [], id: new Int32Array(n),
    typeProblems: [], problems: [], placeholders: [],
    targetOff: new Int32Array(n + 1), targets: new Int32Array(0), edgeOff: new Int32Array(n + 1),
    eFrom: new Int32Array(0), eTo: new Int32Array(0), eType: new Int32Array(0), eField: new Int32Array(0), eLine: new Int32Array(0), eProps: [],
    keys: keys.list, refOff: new Int32Array(n + 1), refKeys: new Int32Array(0), gOff: new Int32Array(1), gMem: new Int32Array(0),
    ...(storeGen !== null ? { storeGen } : {}),
  };
  let nt = 0;
  let ne = 0;
  let nk = 0;
  for (const r of state.notes) { nt += r.targets.length; ne += r.edges.length; nk += r.refKeys.length; }
  s.refKeys = new Int32Array(nk);
  let k = 0;
  s.targets = new Int32Array(nt);
  s.eFrom = new Int32Array(ne); s.eTo = new Int32Array(ne); s.eType = new Int32Array(ne); s.eField = new Int32Array(ne); s.eLine = new Int32Array(ne);
  let t = 0;
  let e = 0;
  for (let i = 0; i < n; i++) {
    const r = state.notes[i]!;
    const p = inIdx.get(r.note.path);
    if (p === undefined || notes[p] !== r.note) return null;
    s.path[i] = p;
    s.layer[i] = strs.of(r.layer);
    s.type[i] = r.type === null ? -1 : strs.of(r.type);
    s.nameKey.push(r.nameKey);
    s.id[i] = ids.of(r.id);
    s.typeProblems.push(r.typeProblems);
    s.problems.push(r.problems);
    s.placeholders.push(r.placeholders.map(([id, name]): [number, string] => [ids.of(id), name]));
    s.targetOff[i] = t;
    for (const x of r.targets) s.targets[t++] = ids.of(x);
    s.refOff[i] = k;
    for (const x of r.refKeys) s.refKeys[k++] = keys.of(x);
    s.edgeOff[i] = e;
    for (const x of r.edges) {
      if (x.source !== r.note.path || !Number.isInteger(x.line)) return null;
      s.eFrom[e] = ids.of(x.from); s.eTo[e] = ids.of(x.to); s.eType[e] = strs.of(x.type);
      s.eField[e] = x.field === null ? -1 : strs.of(x.field); s.eLine[e] = x.line;
      if (x.properties !== undefined || x.inverseProperties !== undefined) s.eProps.push([e, x.properties, x.inverseProperties]);
      e++;
    }
  }
  s.targetOff[n] = t;
  s.edgeOff[n] = e;
  s.refOff[n] = k;
  edgeGroups(s, notes);
  return s;
}

/** gOff/gMem of `s` (see Snap): the notes in path order, each note's edges in order, grouped by (from, to, type). */
function edgeGroups(s: Snap, notes: readonly ParsedNote[]): void {
  const n = s.nameKey.length;
  const byPath = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
    const pa = notes[s.path[a]!]!.path;
    const pb = notes[s.path[b]!]!.path;
    return pa < pb ? -1 : pa > pb ? 1 : 0;
  });
  const groups = new Map<string, number[]>();
  for (const i of byPath) {
    for (let k = s.edgeOff[i]!; k < s.edgeOff[i + 1]!; k++) {
      // ids and strs are tables of distinct strings: equal indexes are equal keys
      const key = `${s.eFrom[k]!},${s.eTo[k]!},${s.eType[k]!}`;
      const g = groups.get(key);
      if (g) g.push(k); else groups.set(key, [k]);
    }
  }
  s.gOff = new Int32Array(groups.size + 1);
  s.gMem = new Int32Array(s.eFrom.length);
  let x = 0;
  let at = 0;
  for (const g of groups.values()) {
    s.gOff[x++] = at;
    for (const k of g) s.gMem[at++] = k;
  }
  s.gOff[x] = at;
}

const isI32 = (x: unknown, len?: number): x is Int32Array => x instanceof Int32Array && (len === undefined || x.length === len);
// indexed loops: for-of over a typed array allocated an iterator result per element until optimised (~1M here)
const inRange = (a: Int32Array, max: number, nullable = false) => {
  const min = nullable ? -1 : 0;
  for (let i = 0; i < a.length; i++) { const v = a[i]!; if (v >= max || v < min) return false; }
  return true;
};
const ascending = (a: Int32Array, end: number) => { for (let i = 1; i < a.length; i++) if (a[i]! < a[i - 1]!) return false; return a[0] === 0 && a[a.length - 1] === end; };

/** A list of `n` entries made at its exact size (filled by the caller), NONE when empty. */
function sized<T>(n: number): T[] {
  return n === 0 ? NONE : new Array<T>(n);
}

/**
 * The resolved notes of snapshot `s` for exactly `notes` (same paths, same hashes; any order), or null when it
 * was not built from them, under `key`, by this format, or is not well formed.
 */
export function decodeSnapshot(raw: unknown, notes: readonly ParsedNote[], key: string): { notes: ResolvedNote[]; idOrder: string[]; groups: EdgeGroups; storeGen: string | null } | null {
  const s = raw as Snap;
  if (!s || typeof s !== 'object' || s.format !== SNAPSHOT_FORMAT || s.key !== key) return null;
  if (!Array.isArray(s.inPaths) || !Array.isArray(s.inHashes) || s.inPaths.length !== notes.length || s.inHashes.length !== notes.length) return null;
  const byPath = new Map<string, ParsedNote>();
  for (const n of notes) byPath.set(n.path, n);
  if (byPath.size !== notes.length) return null;
  const inNotes: ParsedNote[] = [];
  for (let i = 0; i < s.inPaths.length; i++) {
    const n = byPath.get(s.inPaths[i]!);
    if (!n || n.hash !== s.inHashes[i]) return null;
    inNotes.push(n);
  }
  if (!Array.isArray(s.ids) || !Array.isArray(s.strs) || !Array.isArray(s.nameKey) || !isI32(s.idOrder)) return null;
  const n = s.nameKey.length;
  const ni = s.ids.length;
  const ns = s.strs.length;
  if (![s.path, s.layer, s.type, s.id].every((a) => isI32(a, n)) || !isI32(s.targetOff, n + 1) || !isI32(s.edgeOff, n + 1)) return null;
  if (![s.typeProblems, s.problems, s.placeholders].every((a) => Array.isArray(a) && a.length === n)) return null;
  const ne = s.eFrom?.length;
  if (!isI32(s.targets) || ![s.eFrom, s.eTo, s.eType, s.eField, s.eLine].every((a) => isI32(a, ne)) || !Array.isArray(s.eProps)) return null;
  if (!inRange(s.path, notes.length) || new Set(s.path).size !== n || !inRange(s.layer, ns) || !inRange(s.type, ns, true) || !inRange(s.id, ni)) return null;
  if (!inRange(s.idOrder, ni) || !inRange(s.targets, ni) || !inRange(s.eFrom, ni) || !inRange(s.eTo, ni) || !inRange(s.eType, ns) || !inRange(s.eField, ns, true)) return null;
  if (!ascending(s.targetOff, s.targets.length) || !ascending(s.edgeOff, ne)) return null;
  if (!Array.isArray(s.keys) || !isI32(s.refOff, n + 1) || !isI32(s.refKeys) || !ascending(s.refOff, s.refKeys.length) || !inRange(s.refKeys, s.keys.length)) return null;
  if (![s.ids, s.strs, s.keys].every((a) => a.every((x) => typeof x === 'string'))) return null;
  if (!isI32(s.gOff) || !isI32(s.gMem, ne) || !ascending(s.gOff, ne) || !inRange(s.gMem, ne)) return null;
  // edge indexes strictly ascending (as encodeSnapshot writes them): one entry per edge
  let lastProp = -1;
  for (const p of s.eProps) {
    if (!Array.isArray(p) || !Number.isInteger(p[0]) || p[0] <= lastProp || p[0] >= ne) return null;
    lastProp = p[0];
  }
  const ids = s.ids;
  const strs = s.strs;
  const out: ResolvedNote[] = new Array(n);
  const all: RelationshipRecord[] = new Array(ne);
  // the tables and columns as locals: this loop runs once per process, mostly before it is optimised (a fresh
  // process's warm open), where every property load and an array destructured per note cost their interpreted price
  const { placeholders: sPh, typeProblems: sTp, problems: sPr, nameKey, targetOff, targets: sTargets, refOff, refKeys: sRefKeys, keys, edgeOff } = s;
  const { eFrom, eTo, eType, eField, eLine } = s;
  for (let i = 0; i < n; i++) {
    const note = inNotes[s.path[i]!]!;
    const ph = sPh[i];
    const tp = sTp[i];
    const pr = sPr[i];
    if (!Array.isArray(ph) || !Array.isArray(tp) || !Array.isArray(pr) || typeof nameKey[i] !== 'string') return null;
    // every list at its exact size, an empty one the model's NONE (an array grown by push keeps room for 17: rss15i)
    const placeholders: Array<[string, string]> = sized(ph.length);
    for (let j = 0; j < ph.length; j++) {
      const x: unknown = ph[j];
      if (!Array.isArray(x) || !Number.isInteger(x[0]) || x[0] < 0 || x[0] >= ni || typeof x[1] !== 'string') return null;
      placeholders[j] = [ids[x[0]]!, x[1]];
    }
    const t0 = targetOff[i]!;
    const targets: string[] = sized(targetOff[i + 1]! - t0);
    for (let j = 0; j < targets.length; j++) targets[j] = ids[sTargets[t0 + j]!]!;
    const r0 = refOff[i]!;
    const refKeys: string[] = sized(refOff[i + 1]! - r0);
    for (let j = 0; j < refKeys.length; j++) refKeys[j] = keys[sRefKeys[r0 + j]!]!;
    const e0 = edgeOff[i]!;
    const e1 = edgeOff[i + 1]!;
    const edges: RelationshipRecord[] = sized(e1 - e0);
    const source = note.path;
    for (let k = e0; k < e1; k++) {
      const f = eField[k]!;
      const e: RelationshipRecord = { from: ids[eFrom[k]!]!, to: ids[eTo[k]!]!, type: strs[eType[k]!]!, field: f < 0 ? null : strs[f]!, source, line: eLine[k]! };
      edges[k - e0] = e;
      all[k] = e;
    }
    const t = s.type[i]!;
    out[i] = {
      note, layer: strs[s.layer[i]!]!, type: t < 0 ? null : strs[t]!, typeProblems: tp.length ? tp : NONE, nameKey: nameKey[i]!, id: ids[s.id[i]!]!,
      edges, placeholders, targets, problems: pr.length ? pr : NONE, refKeys,
    };
  }
  // the rare edges with relationship properties, set after (in the order a record made with them has its keys)
  for (const [k, props, inverse] of s.eProps) {
    const e = all[k]!;
    if (props !== undefined) e.properties = props;
    if (inverse !== undefined) e.inverseProperties = inverse;
  }
  return {
    notes: out, idOrder: Array.from(s.idOrder, (x) => ids[x]!), groups: { off: s.gOff, mem: s.gMem, all },
    storeGen: typeof s.storeGen === 'string' && s.storeGen ? s.storeGen : null,
  };
}

/** The snapshot file of one database: restore from it, save into it (atomically: a temporary file renamed). */
export class ModelSnapshotFile {
  /**
   * After a restore() that returned true: the store generation the snapshot was saved with (null: none), so the
   * caller can tell whether the store was written since (GraphStore.generation()).
   */
  restoredStoreGen: string | null = null;

  constructor(readonly file: string, private readonly key: string) {}

  /**
   * Restore `model` (empty) from the file if it was built from exactly `notes` under this key; true when it was.
   * false (the model untouched) for a missing, unreadable, corrupt, foreign or outdated file.
   */
  restore(model: VaultModel, notes: readonly ParsedNote[]): boolean {
    this.restoredStoreGen = null;
    let decoded: ReturnType<typeof decodeSnapshot>;
    try {
      if (!existsSync(this.file)) return false;
      decoded = decodeSnapshot(deserialize(readFileSync(this.file)), notes, this.key);
    } catch {
      return false;
    }
    if (!decoded) return false;
    try {
      model.restoreResolved(decoded.notes, decoded.idOrder, decoded.groups); // checks ids and groups before it changes anything
    } catch {
      return false;
    }
    this.restoredStoreGen = decoded.storeGen;
    return true;
  }

  /**
   * Save the snapshot of `model` loaded from `notes`; a model that does not hold exactly them is not saved.
   * `storeGen`: the store's write generation, only when the store holds exactly these notes (their hashes).
   */
  save(model: VaultModel, notes: readonly ParsedNote[], storeGen: string | null = null): boolean {
    const snap = encodeSnapshot(model, notes, this.key, storeGen);
    if (!snap) return false;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, serialize(snap));
      renameSync(tmp, this.file);
      return true;
    } catch {
      rmSync(tmp, { force: true });
      return false;
    }
  }

  /** Remove the file (the model it describes is about to be outdated, or was refused). */
  drop(): void { rmSync(this.file, { force: true }); }
}
