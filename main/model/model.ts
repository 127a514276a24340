/**
 * VaultModel: the resolved vault in memory (notes -> entities, references ->
 * edges and placeholders, problems). `applyChanges` updates it incrementally
 * and returns the GraphDelta that brings a store holding the previous state to
 * the new one. Invariant (checked by the oracle test): after any sequence of
 * applyChanges the model equals one built from scratch from the same notes.
 *
 * Incrementality: each note's contribution (its entity, the edges it declares,
 * the placeholders it needs) is a function of the note and of the name index.
 * A reverse index maps every reference key ('n:<name>' / 'p:<path>') to the
 * notes that use it; when a key's holders change, those notes are re-resolved.
 */
import { refTarget, targetName } from '../../shared/wikilinks.js';
import type { EntityRecord, Problem, RelationshipRecord } from '../../shared/types.js';
import type { VaultConfig, Schema } from '../config/types.js';
import type { ParsedNote } from '../parse/types.js';
import type { GraphDelta } from '../store/types.js';
import type { ModelView } from '../sync/types.js';
import { hierarchyCycleProblems } from './cycles.js';
import { LayerMap } from './layers.js';
import { NameIndex, normKey, pathKey, type NameKind } from './names.js';
import { bodyRef, headRefs, noteProperties, noteRefs, refBatches, type Ref } from './refs.js';
import type { SchemaView } from './schema-view.js';

interface NoteState {
  note: ParsedNote;
  layer: string;
  type: string | null;
  typeProblems: Problem[];
  nameKey: string;
  id: string;
  /**
   * The note's references (noteRefs: a function of note, type and schema), kept once an incremental change
   * resolved the note; null after a bulk load, which makes them while it resolves the note and lets them go
   * (~50k short-lived objects at 10k notes instead of ones held through the load), and null in a state restored
   * from a snapshot (its refKeys came with it) until resolveNote first needs them.
   */
  refs: Ref[] | null;
  // contribution, valid while `resolved`
  resolved: boolean;
  record: EntityRecord | null;
  edges: RelationshipRecord[];
  /** edgeKey of each edge, same order (null in a state restored from a snapshot until keysOf first needs them) */
  edgeKeys: string[] | null;
  placeholders: Array<[string, string]>;
  targets: string[];
  /** reverse-index keys of `refs` (refKeysOf: computed when the reverse index first needs them) */
  refKeys: string[] | null;
  problems: Problem[];
}

const SEP = '\u0000';
/**
 * An edge's key (edgeCands, NoteState.edgeKeys): one flat string. Built with `+` it was a chain of four cons
 * strings, flattened when the key was hashed into the map but kept as a cons wrapper over the flat copy: ~290k
 * cons strings (8.9 MB) in the heap snapshot of a 10k web shell. Array join makes the flat string at once.
 */
function edgeKey(from: string, to: string, type: string): string {
  return [from, to, type].join(SEP);
}
/**
 * The one empty array of every note state without edges, placeholders, targets or problems (frozen: nothing adds
 * to a state's arrays once they are made; resolveNote makes new ones). An empty array is 32 bytes, three a note.
 */
export const NONE: never[] = Object.freeze([]) as unknown as never[];
/**
 * `a` as a state keeps it: NONE when empty, else at its exact size. An array grown by push keeps V8's slack (room
 * for 17 after the first push): a note's edges, targets and edge keys held ~150 bytes each for ~5 entries, ~1.5 MB
 * an array a note at 10k notes (rss15i, heap snapshot of the web shell).
 */
function exact<T>(a: T[]): T[] {
  return a.length === 0 ? NONE : a.slice();
}
/** resolveNote: up to this many edges of a note, a duplicate is found by a scan instead of a set of keys */
const SEEN_SCAN = 8;
/** edgesFrom/edgesTo questions answered by a pass over the edges after a bulk load, before the adjacency is built */
const ADJ_SCANS = 16;
/** edgeStep: notes' edges put into the edge maps per step, at least (~20-40 ms of the main thread on a quiet machine) */
const EDGE_SLICE = 20_000;
const sameEdge = (a: RelationshipRecord, b: RelationshipRecord) =>
  a.from === b.from && a.to === b.to && a.type === b.type && a.field === b.field && a.source === b.source && a.line === b.line
  && JSON.stringify(a.properties) === JSON.stringify(b.properties) && JSON.stringify(a.inverseProperties) === JSON.stringify(b.inverseProperties);
const edgeOrder = (a: RelationshipRecord, b: RelationshipRecord) =>
  a.source < b.source ? -1 : a.source > b.source ? 1 : a.line - b.line;

/** The reverse-index keys a note's references look up ('n:<name>', 'p:<path>'): a function of its refs alone. */
const NOTE = Symbol('lorecraft.recordNote');
/** The one getter of every note record's body (a getter per record, as an object literal's `get body()` makes,
 * turned each record into a dictionary-mode object: ~800 bytes more a record, heap snapshot at 10k). */
function recordBody(this: { [NOTE]: ParsedNote }): string {
  return this[NOTE].body;
}
/** `rec` with `body` read from `note` when asked (the note's body may live in its file: sync/body.ts). */
function withNoteBody(rec: Omit<EntityRecord, 'body'>, note: ParsedNote): EntityRecord {
  Object.defineProperty(rec, NOTE, { value: note });
  return Object.defineProperty(rec, 'body', { get: recordBody, enumerable: true, configurable: true }) as EntityRecord;
}

/** A restored or bulk-loaded record's properties: derived from its note when first read (lazyRecord); its note's body. */
const PROPS = Symbol('lorecraft.recordProps');
interface PropsSource { note: ParsedNote; type: string | null; sv: SchemaView; value: EntityRecord['properties'] | null; read: boolean }
/**
 * The one getter of every restored record's properties (a getter per record made each a dictionary-mode object).
 * Kept from the second read on: a cold open's store load reads every record's properties once (rows.ts), and
 * keeping them all then held one more object of every note's keys that a warm open never derives (rss15h).
 */
function recordProps(this: { [PROPS]: PropsSource }): EntityRecord['properties'] {
  const p = this[PROPS];
  if (p.value !== null) return p.value;
  const v = noteProperties(p.note, p.type, p.sv);
  if (p.read) p.value = v;
  p.read = true;
  return v;
}
/** The one getter of every restored record's body: its note's (read when asked, as withNoteBody's). */
function lazyBody(this: { [PROPS]: PropsSource }): string {
  return this[PROPS].note.body;
}
/**
 * The record noteRecord makes, its properties derived when first read: the same keys in the same order
 * (properties and body accessors with one shared getter each), so every such record shares one hidden class. Three
 * properties defined, the rest in the literal (the five defined before took ~2× as long: ~3 ms of a 10k open). A
 * restored note state's record, and a bulk load's: a cold open's model answers the first screen (list, lookup,
 * one entity) without deriving every note's properties (~0.1-0.2 s of CPU of the real-shaped 7k vault's model
 * build); the store's load and the panels read them after it, each once. noteRecord's literal has its keys in this
 * order too.
 */
function lazyRecord(st: NoteState, sv: SchemaView): EntityRecord {
  const note = st.note;
  const rec = { id: st.id, name: note.title, type: st.type, layer: st.layer, path: note.path, hash: note.hash, tags: note.tags, aliases: note.aliases, placeholder: false };
  Object.defineProperty(rec, PROPS, { value: { note, type: st.type, sv, value: null, read: false } satisfies PropsSource });
  // the accessors' descriptors are the same for every record: made once
  Object.defineProperty(rec, 'properties', PROPERTIES_DESC);
  return Object.defineProperty(rec, 'body', BODY_DESC) as unknown as EntityRecord;
}
const PROPERTIES_DESC: PropertyDescriptor = { get: recordProps, enumerable: true, configurable: true };
const BODY_DESC: PropertyDescriptor = { get: lazyBody, enumerable: true, configurable: true };

function refKeysOf(st: NoteState, sv: SchemaView): string[] {
  if (st.refKeys === null) {
    const into = new Set<string>();
    // without the note's refs kept (a bulk load lets them go): in batches (refs.ts refBatches)
    for (const refs of st.refs ? [st.refs] : refBatches(st.note, st.type, sv)) {
      for (const r of refs) {
        if (!r.key) continue;
        into.add('n:' + r.key);
        if (r.pathKey !== undefined) { into.add('p:' + r.pathKey); into.add('n:' + r.targetKey); }
      }
    }
    st.refKeys = [...into];
  }
  return st.refKeys;
}

export interface ResolvedRef { path: string | undefined }

/**
 * The edges of a snapshot grouped by edge key (snapshot.ts computes them when it saves): group g's candidates are
 * all[mem[off[g]]..], in the order contribute() would add them, and the groups in the order their keys would enter
 * the edge maps (the notes in path order, each note's edges in order). With them, restoreResolved makes the
 * visible edges without building a key string or a map entry per edge.
 */
export interface EdgeGroups { off: Int32Array; mem: Int32Array; all: RelationshipRecord[] }

/**
 * A restored model's edges before its edge maps exist: the visible edge of each group, in the maps' order, and
 * the groups to build the maps from when something first needs them (ensureEdgeMaps).
 */
interface LazyEdges {
  visible: RelationshipRecord[];
  groups: EdgeGroups;
  cands: Array<RelationshipRecord[] | null>;
  /** the adjacency over `visible` (entity id -> indexes into it, in its order), once ensureAdj built it */
  out: Map<string, number[]> | null;
  in: Map<string, number[]> | null;
  /**
   * groups [0, built) are already in edgeCands/visibleEdges (warmStep builds them in slices, nothing reads the maps
   * until they are whole), with the key adjacency of their visible edges in keyOut/keyIn
   */
  built: number;
  keyOut: Map<string, Set<string>>;
  keyIn: Map<string, Set<string>>;
}

/** warmStep: edge groups put into the edge maps per step (~20-40 ms of the main thread on a quiet machine) */
const WARM_SLICE = 20_000;

/**
 * One note's resolved state, as a model snapshot keeps it (main/model/snapshot.ts): everything resolveNote and
 * noteRecord derived from the note, the schema and the rest of the vault. A function of the vault's notes
 * (all of them) and the config/schema; restoreResolved takes it back without re-resolving.
 */
export type ResolvedNote = Pick<NoteState,
  'note' | 'layer' | 'type' | 'typeProblems' | 'nameKey' | 'id' | 'edges' | 'placeholders' | 'targets' | 'problems'>
  /** the reverse-index keys of its refs (restored, the reverse index is built without deriving a note's refs) */
  & { refKeys: string[] };

export class VaultModel implements ModelView {
  readonly layers: LayerMap;
  private readonly index = new NameIndex();
  /**
   * Restored from a snapshot: the name index not built yet. names() builds it when
   * first needed (a lookup, an incremental change, warm() after the open): ~7,000 notes' keys and index entries
   * off the warm open's path.
   */
  private namesPending = false;
  /**
   * After a bulk load: the notes' path keys not in the name index yet (only a reference with a folder in it asks
   * them, or a change to the notes): withPaths() adds them, in the states' order, when first needed. A cold open's
   * 10k paths were ~3 ms of normalising and indexing before the first answers.
   */
  private pathsPending = false;
  private readonly states = new Map<string, NoteState>();
  private readonly idOwner = new Map<string, string>();
  private readonly records = new Map<string, EntityRecord>();
  private readonly phRefs = new Map<string, Map<string, string>>();
  /** edge key -> the notes' edges with that key (one record, or several: the first by edgeOrder is visible) */
  private readonly edgeCands = new Map<string, Cands>();
  private readonly visibleEdges = new Map<string, RelationshipRecord>();
  /**
   * Restored from a snapshot with its edge groups: the visible edges as a list, edgeCands and visibleEdges still
   * empty. Everything that reads or changes those maps calls ensureEdgeMaps() first (an incremental change, the
   * adjacency); edges(), counts() and problems() read the list. null once the maps hold the edges.
   */
  private lazyEdges: LazyEdges | null = null;
  /**
   * After loadEdgesLater (a cold open's first answers): every note's references looked up (its targets and
   * placeholders, so every entity record is there), but only the notes order[0, resolved) and those in `early` are
   * resolved (their edges and problems in their state), and only order[0, done) have their edges in edgeCands;
   * visibleEdges is empty. edgeStep() resolves the rest, then fills the maps, a slice per call; everything that
   * reads or changes the edges or problems finishes it first (finishEdges), except edgesFrom/edgesTo's first
   * questions, answered by a pass over the notes' edges (pendingScan: it resolves, ahead, the notes whose
   * references reach the entity asked about). null otherwise.
   */
  private pendingEdges: { order: string[]; done: number; resolved: number; early: Set<NoteState> } | null = null;
  // Derived indexes, built lazily after a bulk load (warm()) so a cold sync reaches "queryable" sooner.
  private outAdj = new Map<string, Set<string>>();
  private inAdj = new Map<string, Set<string>>();
  private adjValid = true;
  /** edgesFrom/edgesTo answered by a scan since the last bulk load (adjScan) */
  private adjScans = 0;
  /**
   * The other end of the last adjScan's entity (its pass found both): taken by the next question about that end of
   * it, at the same model version. null when none is kept.
   */
  private scanMemo: { id: string; version: number; out: RelationshipRecord[] | null; in: RelationshipRecord[] | null } | null = null;
  /**
   * reference key -> the notes (paths) whose references look it up: the one path itself while there is one, a Set
   * from the second on (a Set per key was ~150 bytes, and most keys have one referrer: rss15i)
   */
  private revIndex = new Map<string, string | Set<string>>();
  private revValid = true;
  /** true while loading into an empty model: nothing to diff against, so nothing is tracked */
  private bulk = false;
  private trackEnts = new Map<string, EntityRecord | undefined>();
  private trackEdges = new Map<string, RelationshipRecord | undefined>();
  private problemCache: Problem[] | null = null;
  /** while complete() resolves: layer -> name key -> the id a plain name reference resolves to (null: none) */
  private refMemo: Map<string, Map<string, string | null>> | null = null;
  private external = new Map<string, Problem[]>();
  /** incremented by every applyChanges: caches built over the model compare it */
  version = 0;
  /** resolveTargets' targets of the note it resolves, [0, n) of it (reused: its room is kept between notes) */
  private readonly scratch: string[] = [];

  constructor(
    private readonly cfg: VaultConfig,
    readonly sv: SchemaView,
    private readonly configProblems: Problem[] = [],
  ) {
    this.layers = new LayerMap(cfg);
  }

  // ---- ModelView -------------------------------------------------------
  config(): VaultConfig { return this.cfg; }
  schema(): Schema { return this.sv.schema; }
  layerOf(path: string): string | null { return this.layers.layerOf(path); }
  note(path: string): ParsedNote | undefined { return this.states.get(path)?.note; }
  *notes(): Iterable<ParsedNote> { for (const s of this.states.values()) yield s.note; }
  entity(id: string): EntityRecord | undefined { return this.records.get(id); }
  entities(): Iterable<EntityRecord> { return this.records.values(); }
  entityIdOfPath(path: string): string | undefined { return this.states.get(path)?.id; }
  edges(): Iterable<RelationshipRecord> { this.finishEdges(); return this.lazyEdges ? this.lazyEdges.visible : this.visibleEdges.values(); }
  edgesFrom(id: string): RelationshipRecord[] { return this.adjScan(id, true) ?? (this.ensureAdj(), this.lazyEdges ? lazyAdj(this.lazyEdges, this.lazyEdges.out!, id) : this.adj(this.outAdj, id)); }
  edgesTo(id: string): RelationshipRecord[] { return this.adjScan(id, false) ?? (this.ensureAdj(), this.lazyEdges ? lazyAdj(this.lazyEdges, this.lazyEdges.in!, id) : this.adj(this.inAdj, id)); }

  /**
   * Right after a bulk load (adjacency not built yet: warm() builds it off the interactive path), the first few
   * questions are answered by one pass over the edges (~ms) instead of building the whole adjacency first
   * (~0.3-0.6 s on 50-180k edges): the first entity panel does not wait for it. Same edges in the same order
   * as the index gives (it is built by one pass over the same map). Bounded: then the index is built.
   */
  private adjScan(id: string, out: boolean): RelationshipRecord[] | undefined {
    if (this.adjValid || this.adjScans >= ADJ_SCANS) return undefined;
    this.adjScans++;
    // an entity's panel asks both ends of the same entity in a row: one pass answers both (scanMemo keeps the other)
    const memo = this.scanMemo;
    if (memo && memo.id === id && memo.version === this.version) {
      const found = out ? memo.out : memo.in;
      if (found) {
        if (out) memo.out = null; else memo.in = null;
        if (!memo.out && !memo.in) this.scanMemo = null;
        return found;
      }
    }
    const both = this.pendingEdges ? this.pendingScan(this.pendingEdges.order, id) : this.edgesScan(id);
    this.scanMemo = { id, version: this.version, out: out ? null : both.out, in: out ? both.in : null };
    return out ? both.out : both.in;
  }

  /** adjScan over the visible edges (the edge maps whole): the edges from `id` and the edges to it, in their order */
  private edgesScan(id: string): { out: RelationshipRecord[]; in: RelationshipRecord[] } {
    const from: RelationshipRecord[] = [];
    const to: RelationshipRecord[] = [];
    for (const e of this.edges()) {
      if (e.from === id) from.push(e);
      if (e.to === id) to.push(e);
    }
    return { out: from, in: to };
  }

  /**
   * adjScan while the edge maps are not whole (loadEdgesLater): the notes' edges with `id` at either end, grouped by
   * edge key in the order the keys enter the maps (per end), each group's visible edge as finalize picks it
   * (visibleOf over the candidates in contribution order): the edges edgesFrom/edgesTo give once the maps are
   * whole, in their order.
   */
  private pendingScan(order: string[], id: string): { out: RelationshipRecord[]; in: RelationshipRecord[] } {
    const outGroups = new Map<string, RelationshipRecord[]>();
    const inGroups = new Map<string, RelationshipRecord[]>();
    const add = (groups: Map<string, RelationshipRecord[]>, e: RelationshipRecord) => {
      const k = edgeKey(e.from, e.to, e.type);
      const g = groups.get(k);
      if (g) g.push(e); else groups.set(k, [e]);
    };
    const pend = this.pendingEdges!;
    for (let i = 0; i < order.length; i++) {
      const st = this.states.get(order[i]!)!;
      // a note not resolved yet has edges at `id` only if it is id's note or one of its references reaches id
      if (i >= pend.resolved && !pend.early.has(st) && (st.id === id || st.targets.includes(id))) {
        this.resolveLater(st);
        pend.early.add(st);
      }
      for (const e of st.edges) {
        if (e.from === id) add(outGroups, e);
        if (e.to === id) add(inGroups, e);
      }
    }
    const visible = (groups: Map<string, RelationshipRecord[]>) => {
      const found: RelationshipRecord[] = [];
      for (const g of groups.values()) found.push(visibleOf(g.length === 1 ? g[0] : g)!);
      return found;
    };
    return { out: visible(outGroups), in: visible(inGroups) };
  }

  /**
   * One slice of the edge maps a loadEdgesLater left for later: the edges of the next notes (at least EDGE_SLICE
   * edges, whole notes) into edgeCands, as contribute() puts them; after the last note, the visible edges as a
   * bulk finalize() makes them. Returns whether work is left. The sync engine runs it a slice per turn of the event
   * loop after an interactive cold open; anything that needs the maps finishes it at once (finishEdges).
   */
  edgeStep(slice = EDGE_SLICE): boolean {
    const pend = this.pendingEdges;
    if (!pend) return false;
    const { order } = pend;
    let n = 0;
    if (pend.resolved < order.length) {
      // first the notes' own resolution (edges, problems), in the order complete() resolves them
      while (pend.resolved < order.length && n < slice) {
        const st = this.states.get(order[pend.resolved++]!)!;
        if (!pend.early.has(st)) this.resolveLater(st);
        st.resolved = true;
        n += st.edges.length + 1;
      }
      if (pend.resolved === order.length) { pend.early.clear(); this.refMemo = null; }
      return true;
    }
    while (pend.done < order.length && n < slice) {
      const st = this.states.get(order[pend.done++]!)!;
      const keys = this.keysOf(st);
      for (let i = 0; i < keys.length; i++) this.addCandidate(keys[i]!, st.edges[i]!);
      n += keys.length;
    }
    if (pend.done < order.length) return true;
    for (const [k, c] of this.edgeCands) this.visibleEdges.set(k, visibleOf(c)!);
    this.pendingEdges = null;
    return false;
  }

  /** Whether edge maps are still left for edgeStep (after loadEdgesLater). */
  edgesPending(): boolean { return this.pendingEdges !== null; }

  /**
   * resolveNote after loadEdgesLater (the bulk load over, its targets and placeholders already in): as the bulk
   * load would have resolved the note, with the load's memo of name look-ups (names do not change while edges are
   * pending: any change finishes them first).
   */
  private resolveLater(st: NoteState): void {
    this.bulk = true;
    try { this.resolveNote(st); } finally { this.bulk = false; }
  }

  /** The edge maps whole (what loadEdgesLater left for later). */
  private finishEdges(): void {
    if (this.pendingEdges) while (this.edgeStep(Infinity));
  }

  /** Build the indexes a bulk load left for later (adjacency, reverse reference index). */
  warm(): void {
    this.names();
    this.ensureAdj();
    this.ensureRev();
  }

  /**
   * The name index, built first if a restore left it for later: the states in the model's order, each note's keys
   * added as restoreResolved added them before (so the index, its keys' order included, is the one it made).
   */
  private names(): NameIndex {
    if (this.namesPending) {
      this.namesPending = false;
      for (const st of this.states.values()) {
        addProvides(this.index, st);
      }
    }
    return this.index;
  }

  /** The name index with every note's path key in it: what a path reference or a change asks. */
  private withPaths(): NameIndex {
    const index = this.names();
    if (this.pathsPending) {
      this.pathsPending = false;
      for (const st of this.states.values()) index.add(st.layer, 'path', notePathKey(st.note), st.note.path);
    }
    return index;
  }

  private ensureAdj(): void {
    if (this.adjValid) return;
    this.finishEdges();
    const lazy = this.lazyEdges;
    if (lazy) {
      // restored, edge maps not built: the adjacency over the visible list's indexes (no key string per edge)
      const out = new Map<string, number[]>();
      const inn = new Map<string, number[]>();
      const v = lazy.visible;
      for (let g = 0; g < v.length; g++) {
        const e = v[g]!;
        const a = out.get(e.from);
        if (a) a.push(g); else out.set(e.from, [g]);
        const b = inn.get(e.to);
        if (b) b.push(g); else inn.set(e.to, [g]);
      }
      lazy.out = out;
      lazy.in = inn;
      this.adjValid = true;
      return;
    }
    this.outAdj = new Map();
    this.inAdj = new Map();
    for (const [k, e] of this.visibleEdges) { addAdj(this.outAdj, e.from, k); addAdj(this.inAdj, e.to, k); }
    this.adjValid = true;
  }

  private ensureRev(): void {
    if (this.revValid) return;
    this.revIndex = new Map();
    for (const st of this.states.values()) if (st.resolved) this.addRev(st);
    this.revValid = true;
  }

  private addRev(st: NoteState): void {
    const path = st.note.path;
    for (const k of refKeysOf(st, this.sv)) {
      const s = this.revIndex.get(k);
      if (s === undefined) this.revIndex.set(k, path);
      else if (typeof s !== 'string') s.add(path);
      else if (s !== path) this.revIndex.set(k, new Set([s, path]));
    }
  }
  referrers(id: string): string[] {
    const out: string[] = [];
    // edges pending (loadEdgesLater): every note's targets are in, resolved or not
    const all = this.pendingEdges !== null;
    for (const st of this.states.values()) if ((all || st.resolved) && st.targets.includes(id)) out.push(st.note.path);
    return out.sort();
  }

  resolve(name: string, fromLayer: string): EntityRecord | undefined {
    const t = refTarget(name);
    const seg = targetName(t);
    const p = this.lookupRef(fromLayer, {
      key: normKey(seg), ...(t.includes('/') ? { pathKey: pathKey(t), targetKey: normKey(t) } : {}),
    });
    return p === undefined ? undefined : this.records.get(this.states.get(p)!.id);
  }

  problems(): Problem[] {
    if (!this.problemCache) {
      this.finishEdges();
      const all: Problem[] = [...this.configProblems];
      for (const l of this.external.values()) all.push(...l);
      for (const s of this.states.values()) all.push(...s.problems);
      const hier = (t: string) => this.sv.isHierarchy(t);
      // restored (the edges a list): the hierarchy's few picked by an indexed pass, not an iterator over 183k
      all.push(...hierarchyCycleProblems(this.lazyEdges ? this.lazyEdges.visible.filter((e) => hier(e.type)) : this.visibleEdges.values(), hier));
      this.problemCache = applyRuleSettings(all, this.sv.schema.rules);
    }
    return this.problemCache;
  }

  /** Problems found outside the notes (walk: symlink loops, unreadable files), by source. */
  setExternalProblems(source: string, problems: Problem[]): void {
    if (problems.length) this.external.set(source, problems); else this.external.delete(source);
    this.problemCache = null;
  }

  /** Number of notes, entities, edges, placeholders. */
  counts(): { notes: number; entities: number; relationships: number; placeholders: number } {
    this.finishEdges();
    let placeholders = 0;
    for (const id of this.phRefs.keys()) if (!this.idOwner.has(id)) placeholders++;
    return { notes: this.states.size, entities: this.records.size, relationships: this.lazyEdges ? this.lazyEdges.visible.length : this.visibleEdges.size, placeholders };
  }

  /** The name index (names, file names, aliases, paths) for completion and lookup. */
  nameIndex(): NameIndex { return this.withPaths(); }

  // ---- updates -----------------------------------------------------------

  /** Replace the whole content (the model must be empty or is cleared first). */
  load(notes: Iterable<ParsedNote>): GraphDelta {
    return this.complete(this.stageAll(notes));
  }

  /**
   * load() into an empty model for a cold open's first answers: the same model, but the notes' own resolution
   * beyond their references' targets (their edges, duplicate checks, schema validation and problems) and the edge
   * maps (a key string and map entries per edge: ~40 % of the build on the real-shaped 7k vault) are left for
   * edgeStep() or the first read that needs them. Entities (placeholders too), names, lookups and referrers are
   * there at once; edgesFrom/edgesTo answer by a pass over the notes' edges meanwhile, resolving first the few
   * notes that reach the entity asked about. The delta lists the
   * entities and no edge (edges() gives them). Callers serialise model changes (the sync engine's queue).
   */
  loadEdgesLater(notes: Iterable<ParsedNote>): GraphDelta {
    if (this.states.size > 0 || this.lazyEdges) return this.load(notes);
    return this.complete(this.stageAll(notes), true);
  }

  /**
   * The resolved state of every note (the model's order) and the ids in the order they were assigned: what a
   * model snapshot stores (snapshot.ts). null while a note is not resolved (never after load/applyChanges).
   */
  resolvedState(): { notes: ResolvedNote[]; idOrder: string[] } | null {
    this.finishEdges();
    const notes: ResolvedNote[] = [];
    for (const st of this.states.values()) {
      if (!st.resolved || !st.record) return null;
      notes.push({
        note: st.note, layer: st.layer, type: st.type, typeProblems: st.typeProblems, nameKey: st.nameKey, id: st.id,
        edges: st.edges, placeholders: st.placeholders, targets: st.targets, problems: st.problems, refKeys: refKeysOf(st, this.sv),
      });
    }
    return { notes, idOrder: [...this.idOwner.keys()] };
  }

  /**
   * Into an empty model, the state resolvedState() gave for these very notes (same config and schema): the
   * model then equals load() of the notes (model.snapshot.test.ts) without resolving a reference. `idOrder`:
   * resolvedState's, so entities() iterates as after load(). A note's refs are derived again when an
   * incremental change first needs them. `groups` (the snapshot's, for these notes' edges): the edge maps are
   * built when first needed, not here (183k key strings and two map entries each on the real-shaped 7k vault).
   */
  restoreResolved(notes: ResolvedNote[], idOrder: string[], groups?: EdgeGroups): void {
    if (this.states.size > 0) throw new Error('restoreResolved: the model is not empty');
    const pathOf = new Map<string, string>();
    for (const r of notes) pathOf.set(r.id, r.note.path);
    const owners = idOrder.filter((id) => pathOf.has(id));
    if (pathOf.size !== notes.length || owners.length !== notes.length || new Set(owners).size !== owners.length) {
      throw new Error('restoreResolved: ids are not one per note, each in the id order once');
    }
    if (groups) checkGroups(notes, groups);
    this.trackEnts = new Map();
    this.trackEdges = new Map();
    this.problemCache = null;
    this.version++;
    this.bulk = true;
    this.lazyEdges = null;
    // the name index when first needed: names()
    this.namesPending = true;
    this.pendingEdges = null;
    this.revValid = false; this.adjValid = false; this.adjScans = 0; this.scanMemo = null; this.revIndex = new Map(); this.outAdj = new Map(); this.inAdj = new Map();
    const sv = this.sv;
    for (const r of notes) {
      const note = r.note;
      // refs derived when a change first needs them (null until then)
      const st: NoteState = {
        note, layer: r.layer, type: r.type, typeProblems: r.typeProblems, nameKey: r.nameKey, id: r.id,
        refs: null, resolved: false, record: null, edges: r.edges,
        edgeKeys: null, placeholders: r.placeholders, targets: r.targets,
        refKeys: r.refKeys, problems: r.problems,
      };
      this.states.set(note.path, st);
      // the record noteRecord makes, its properties derived when first read (most are read only by the store's load)
      st.record = lazyRecord(st, sv);
    }
    for (const id of owners) this.idOwner.set(id, pathOf.get(id)!);
    const order = [...this.states.keys()].sort();
    if (groups) {
      // the edges' part of contribute() + finalize, per group; the rest of contribute() per note
      for (const p of order) this.contribute(this.states.get(p)!, false);
      const { off, mem, all } = groups;
      const n = off.length - 1;
      const visible: RelationshipRecord[] = new Array(n);
      const cands: Array<RelationshipRecord[] | null> = new Array(n);
      for (let g = 0; g < n; g++) {
        const a = off[g]!;
        const b = off[g + 1]!;
        if (b - a === 1) { visible[g] = all[mem[a]!]!; cands[g] = null; continue; }
        const c: RelationshipRecord[] = [];
        for (let i = a; i < b; i++) c.push(all[mem[i]!]!);
        visible[g] = visibleOf(c)!;
        cands[g] = c;
      }
      this.lazyEdges = { visible, groups, cands, out: null, in: null, built: 0, keyOut: new Map(), keyIn: new Map() };
    } else {
      for (const p of order) this.contribute(this.states.get(p)!);
    }
    this.finalizeRestored();
  }

  /**
   * The edge maps of a model restored with edge groups, as contribute() + finalize() would have made them: the
   * same keys in the same order, the same candidates (sorted as visibleOf sorts them) and visible edges.
   */
  private ensureEdgeMaps(): void {
    this.finishEdges();
    while (this.warmStep(Infinity));
  }

  /**
   * The work a model restored with edge groups leaves for later, one slice of `slice` groups per call: the edge
   * maps and the adjacency over edge keys, as contribute() + finalize() and ensureAdj() would have made them (the
   * same keys in the same order, the same candidates, sorted as visibleOf sorts them). Once the last slice is in,
   * the model holds its edges in the maps as after load(). The sync engine runs it a slice per turn of the event
   * loop after an open; an incremental change first finishes it at once. Returns whether work is left.
   */
  warmStep(slice = WARM_SLICE): boolean {
    const lazy = this.lazyEdges;
    if (!lazy) return false;
    const { off, mem, all } = lazy.groups;
    const n = lazy.visible.length;
    const end = Math.min(n, lazy.built + slice);
    for (let g = lazy.built; g < end; g++) {
      const first = all[mem[off[g]!]!]!;
      const k = edgeKey(first.from, first.to, first.type);
      const e = lazy.visible[g]!;
      this.edgeCands.set(k, lazy.cands[g] ?? first);
      this.visibleEdges.set(k, e);
      addAdj(lazy.keyOut, e.from, k);
      addAdj(lazy.keyIn, e.to, k);
    }
    lazy.built = end;
    if (end < n) return true;
    this.lazyEdges = null;
    this.outAdj = lazy.keyOut;
    this.inAdj = lazy.keyIn;
    this.adjValid = true;
    return false;
  }


  /** The edge keys of a note state (made when first needed in a restored one). */
  private keysOf(st: NoteState): string[] {
    return (st.edgeKeys ??= st.edges.map((e) => edgeKey(e.from, e.to, e.type)));
  }

  /**
   * finalize() after restoreResolved: the same visible edges and records, in the same order, without the delta
   * nobody reads (a bulk finalize lists every entity and edge in it: 183k edges on the real-shaped 7k vault).
   */
  private finalizeRestored(): void {
    this.bulk = false;
    for (const [k, c] of this.edgeCands) this.visibleEdges.set(k, visibleOf(c)!);
    for (const id of this.idOwner.keys()) {
      const now = this.currentRecord(id);
      if (now) this.records.set(id, now);
    }
    for (const id of this.phRefs.keys()) {
      if (this.idOwner.has(id)) continue;
      const now = this.currentRecord(id);
      if (now) this.records.set(id, now);
    }
  }

  /**
   * load() in two steps for a bulk load into an empty model: `onNoteRecords` gets the record of every
   * note once ids are assigned, before references are resolved (the bulk of the work), then the event
   * loop turns once (a store can start copying them) before the rest. The records are the very objects
   * entities() returns. Callers serialise model changes (the sync engine's queue).
   */
  async loadInSteps(notes: Iterable<ParsedNote>, onNoteRecords: (records: EntityRecord[]) => void): Promise<GraphDelta> {
    const staged = this.stageAll(notes);
    if (this.bulk) {
      const recs: EntityRecord[] = [];
      for (const st of this.states.values()) recs.push(this.noteRecord(st));
      onNoteRecords(recs);
      await new Promise<void>((res) => setImmediate(res));
    }
    return this.complete(staged);
  }

  /**
   * stage() of a whole vault (load, loadEdgesLater, loadInSteps). Into an empty model, notes of distinct paths are
   * staged in path order, without the map of changes replacing() makes and the set of paths stage() keeps (a cold
   * open's 10k notes: two structures of 10k entries made to be thrown away). A walk gives them in path order within
   * each folder, its folders listed concurrently: sorting that (a few runs) is one pass. Notes repeating a path go
   * through replacing() (the last one of a path is kept).
   */
  private stageAll(notes: Iterable<ParsedNote>): Staged {
    if (this.states.size === 0) {
      let list = Array.isArray(notes) ? (notes as ParsedNote[]) : [...notes];
      let ordered = true;
      for (let i = 1; i < list.length; i++) if (!(list[i - 1]!.path < list[i]!.path)) { ordered = false; break; }
      if (!ordered) {
        const sorted = list.slice().sort(byPath);
        ordered = true;
        for (let i = 1; i < sorted.length; i++) if (sorted[i - 1]!.path === sorted[i]!.path) { ordered = false; break; }
        if (ordered) list = sorted;
      }
      if (ordered) { this.beginStage(); return this.stageBulk(list, true); }
      notes = list;
    }
    return this.stage(this.replacing(notes));
  }

  private replacing(notes: Iterable<ParsedNote>): Map<string, ParsedNote | null> {
    const changed = new Map<string, ParsedNote | null>();
    for (const p of this.states.keys()) changed.set(p, null);
    for (const n of notes) changed.set(n.path, n);
    return changed;
  }

  /** Apply created/changed (note) and deleted (null) files; returns the graph delta. */
  applyChanges(changed: Map<string, ParsedNote | null>): GraphDelta {
    return this.complete(this.stage(changed));
  }

  /** First step of applyChanges: note states in, names indexed, ids assigned. */
  private stage(changed: Map<string, ParsedNote | null>): Staged {
    if (this.beginStage()) return this.stageBulk(notesOf(changed));
    const index = this.withPaths();
    this.ensureRev(); this.ensureAdj();
    const affected = new Set<string>();
    const groups = new Map<string, [string, string]>();
    const toResolve = new Set<string>();

    for (const [path, note] of changed) {
      const old = this.states.get(path);
      if (old) {
        this.withdraw(old);
        for (const [kind, key] of providesIn(old)) { index.remove(old.layer, kind, key, path); affected.add(provKey(kind, key)); }
        groups.set(old.layer + SEP + old.nameKey, [old.layer, old.nameKey]);
        this.states.delete(path);
        if (this.idOwner.get(old.id) === path) this.idOwner.delete(old.id);
        this.touchEntity(old.id);
      }
      if (!note) continue;
      const layer = this.layers.layerOf(path);
      if (layer === null) continue;
      const st = this.prepare(note, layer);
      this.states.set(path, st);
      for (const [kind, key] of providesIn(st)) {
        index.add(layer, kind, key, path);
        if (!this.bulk) affected.add(provKey(kind, key)); // bulk: every note is resolved anyway
      }
      groups.set(layer + SEP + st.nameKey, [layer, st.nameKey]);
      toResolve.add(path);
    }

    // Ids: first holder of a name in a layer (path order) gets `<layer>/<key>`, the next `#2`, ...
    const assign: Array<[NoteState, string]> = [];
    for (const [layer, key] of groups.values()) {
      const holders = index.holders(layer, 'name', key);
      holders.forEach((p, i) => {
        const st = this.states.get(p)!;
        const id = `${layer}/${key}` + (i === 0 ? '' : `#${i + 1}`);
        if (st.id !== id || toResolve.has(p)) assign.push([st, id]);
      });
    }
    for (const [st, id] of assign) {
      if (st.id === id) continue;
      this.withdraw(st);
      if (this.idOwner.get(st.id) === st.note.path) this.idOwner.delete(st.id);
      this.touchEntity(st.id);
      if (!this.bulk) for (const [kind, key] of providesIn(st)) affected.add(provKey(kind, key));
      st.id = id;
      toResolve.add(st.note.path);
    }
    for (const [st, id] of assign) { this.idOwner.set(id, st.note.path); this.touchEntity(id); }
    return { affected, toResolve };
  }

  /**
   * What stage() does first, for every change: the edge maps whole, tracking begun, a new version; into an empty
   * model a bulk load (nothing to diff against: the derived indexes are dropped, built again later). Returns
   * whether it is one.
   */
  private beginStage(): boolean {
    this.ensureEdgeMaps();
    // the index as a restore would have made it
    this.names();
    this.trackEnts = new Map();
    this.trackEdges = new Map();
    this.problemCache = null;
    this.version++;
    this.bulk = this.states.size === 0;
    if (this.bulk) {
      this.revValid = false; this.adjValid = false; this.adjScans = 0; this.scanMemo = null; this.revIndex = new Map(); this.outAdj = new Map(); this.inAdj = new Map();
    }
    return this.bulk;
  }

  /**
   * stage() into an empty model (a cold open's whole vault): nothing to withdraw, no reverse index to ask, every
   * note resolved. The same states, name index and ids in the same order as stage's general path gives (the
   * groups in the order of their first note: index.add says when a name key gets its first holder), without its
   * per-note group keys, lookups of old states and id reassignment (model.bulk.test.ts compares the two).
   * `notes`: of distinct paths, resolved in the order they come (complete sorts them if need be); `inOrder`: they
   * are in path order.
   */
  private stageBulk(notes: Iterable<ParsedNote>, inOrder = false): Staged {
    const index = this.names();
    // the first holder of each (layer, name key), in the order it was added
    const firsts: NoteState[] = [];
    const toResolve: string[] = [];
    for (const note of notes) {
      const path = note.path;
      const layer = this.layers.layerOf(path);
      if (layer === null) continue;
      const st = this.prepare(note, layer);
      this.states.set(path, st);
      // the path keys when first asked (withPaths)
      if (addProvides(index, st, false)) firsts.push(st);
      toResolve.push(path);
    }
    this.pathsPending = true;
    // Ids: first holder of a name in a layer (path order) gets `<layer>/<key>`, the next `#2`, ...
    for (let g = 0; g < firsts.length; g++) {
      const first = firsts[g]!;
      const { layer, nameKey: key } = first;
      const holders = index.holdersOf(layer, 'name', key)!; // (the key's first holder was added above)
      if (typeof holders === 'string') {
        // one holder (nearly every name): that first one, no list of it made
        first.id = `${layer}/${key}`;
        this.idOwner.set(first.id, holders);
        continue;
      }
      for (let i = 0; i < holders.length; i++) {
        const p = holders[i]!;
        const st = this.states.get(p)!;
        st.id = i === 0 ? `${layer}/${key}` : `${layer}/${key}#${i + 1}`;
        this.idOwner.set(st.id, p);
      }
    }
    return { affected: new Set(), toResolve, inOrder };
  }

  /** Second step: references resolved, contributions made, the delta. */
  private complete({ affected, toResolve, inOrder = false }: Staged, edgesLater = false): GraphDelta {
    // a bulk load's paths (an array, nothing affected) are taken as they are
    let order: string[];
    if (Array.isArray(toResolve)) order = toResolve;
    else {
      for (const k of affected) {
        const s = this.revIndex.get(k);
        if (typeof s === 'string') toResolve.add(s);
        else if (s) for (const p of s) toResolve.add(p);
      }
      order = [...toResolve];
    }
    // a whole vault comes in path order (stageAll's, its states in that order too: taken as they are); else
    // checked in one pass, sorted only when it is not
    if (!inOrder) {
      let sorted = true;
      for (let i = 1; i < order.length; i++) if (order[i - 1]! > order[i]!) { sorted = false; break; }
      if (!sorted) order.sort();
    }
    // a bulk load resolved nothing yet: nothing to withdraw
    if (!this.bulk) for (const p of order) { const st = this.states.get(p); if (st) this.withdraw(st); }
    // names and ids do not change while references are resolved: each (layer, name) is looked up once
    this.refMemo = new Map();
    const later = edgesLater && this.bulk;
    try {
      for (const st of inOrder ? this.states.values() : this.statesOf(order)) {
        // loadEdgesLater: only the targets and placeholders (entities and lookups answer from them); the rest of
        // the resolution (edges, problems) is edgeStep's
        if (later) this.resolveTargets(st);
        else { this.resolveNote(st); this.contribute(st); }
      }
    } finally {
      // kept for edgeStep's resolutions after loadEdgesLater (dropped when they are over)
      if (!later) this.refMemo = null;
    }
    if (later) this.pendingEdges = { order, done: 0, resolved: 0, early: new Set() };
    return this.finalize();
  }

  // ---- internals ----------------------------------------------------------

  /** The states of these paths, in their order (a path without one is skipped). */
  private *statesOf(paths: readonly string[]): Iterable<NoteState> {
    for (const p of paths) { const st = this.states.get(p); if (st) yield st; }
  }

  private prepare(note: ParsedNote, layer: string): NoteState {
    const { type, problems: typeProblems } = this.sv.resolveType(note);
    const nameKey = normKey(note.title) || normKey(note.basename) || 'untitled';
    return {
      note, layer, type, typeProblems, nameKey, id: '', refs: null,
      resolved: false, record: null, edges: NONE, edgeKeys: NONE, placeholders: NONE, targets: NONE, refKeys: null, problems: NONE,
    };
  }

  /** Path of the note a reference made in `layer` resolves to (see docs/architecture.md). */
  private lookupRef(layer: string, r: { key: string; pathKey?: string; targetKey?: string }): string | undefined {
    const order = this.layers.searchOrder(layer);
    const index = this.names();
    if (r.pathKey !== undefined) {
      const byPath = this.withPaths().first(order, 'path', r.pathKey);
      if (byPath !== undefined) return byPath;
    }
    if (!r.key) return undefined;
    const hit = index.firstNamed(order, r.key);
    if (hit !== undefined) return hit;
    if (r.targetKey !== undefined) return index.first(order, 'name', r.targetKey);
    return undefined;
  }

  private resolveNote(st: NoteState): void {
    const path = st.note.path;
    const problems: Problem[] = [...st.note.problems, ...st.typeProblems];
    if (st.type !== null) problems.push(...this.sv.validate(st.type, st.note));
    // Not `id.includes('#')`: a name may hold '#' itself ('# Racial Traits').
    if (!isFirstId(st.id, st.layer, st.nameKey)) {
      const first = this.names().holders(st.layer, 'name', st.nameKey)[0];
      problems.push({
        severity: 'warning', code: 'duplicate-name', file: path, line: st.note.fieldLines[this.sv.schema.title_field] ?? 1,
        entityId: st.id,
        message: `'${st.note.title}' is also the name of ${first} in layer '${st.layer}': kept apart as ${st.id}`,
        hint: 'rename one of the notes (or give it a distinct title)',
      });
    }
    const edges: RelationshipRecord[] = [];
    // the edges' keys once a set of them finds duplicates (else keysOf makes them when the edge maps need them: a
    // cold open's first answers do not wait for them, model.loadEdgesLater)
    let edgeKeys: string[] | null = null;
    // duplicates: a scan of the few edges so far, a set of their keys beyond SEEN_SCAN
    let seen: Set<string> | null = null;
    const placeholders: Array<[string, string]> = [];
    const targets: string[] = [];
    const memo = this.refMemo;
    let layerMemo = memo?.get(st.layer);
    if (memo && !layerMemo) { layerMemo = new Map(); memo.set(st.layer, layerMemo); }
    // a bulk load lets the refs go: a note of many links gives them in batches (refs.ts refBatches), so that its
    // references do not all live at once (a 9 MB note's 102k links: huge15g)
    let batches: Iterable<Ref[]>;
    if (st.refs !== null) batches = [st.refs];
    else if (this.bulk) batches = refBatches(st.note, st.type, this.sv);
    else batches = [st.refs = noteRefs(st.note, st.type, this.sv)];
    for (const refs of batches) for (const r of refs) {
      const key = r.key;
      if (!key) continue;
      let target = this.targetOf(st.layer, r, layerMemo);
      if (target === null) {
        target = `${st.layer}/${key}`;
        placeholders.push([target, r.name.trim()]);
        problems.push({
          severity: 'warning', code: 'dangling-link', file: path, line: r.line, entityId: st.id,
          ...(r.field ? { field: r.field } : {}),
          message: `'${r.name}' matches no note: a placeholder entity stands in for it`,
          hint: `create a note named '${r.name}', or fix the spelling`,
        });
      }
      targets.push(target);
      if (r.rel === 'LINKS_TO' && target === st.id) continue;
      const from = r.reversed ? target : st.id;
      const to = r.reversed ? st.id : target;
      if (seen === null && edges.length < SEEN_SCAN) {
        let dup = false;
        for (const e of edges) if (e.to === to && e.from === from && e.type === r.rel) { dup = true; break; }
        if (dup) continue;
      } else {
        if (seen === null || edgeKeys === null) {
          edgeKeys = edges.map((x) => edgeKey(x.from, x.to, x.type));
          seen = new Set(edgeKeys);
        }
        const ek = edgeKey(from, to, r.rel);
        if (seen.has(ek)) continue;
        seen.add(ek);
        edgeKeys.push(ek);
      }
      const e: RelationshipRecord = { from, to, type: r.rel, field: r.field, source: path, line: r.line };
      if (r.props) { if (r.reversed) e.inverseProperties = r.props; else e.properties = r.props; }
      edges.push(e);
    }
    st.edges = exact(edges);
    st.edgeKeys = edgeKeys && exact(edgeKeys);
    st.placeholders = exact(placeholders);
    st.targets = exact(targets);
    st.problems = exact(problems);
    this.noteRecord(st);
  }

  /** The id a reference `r` made in `layer` resolves to, null when it matches no note (with complete()'s memo). */
  private targetOf(layer: string, r: Ref, layerMemo: Map<string, string | null> | undefined): string | null {
    if (layerMemo && r.pathKey === undefined) {
      // a plain name: its target depends on (layer, key) alone
      const known = layerMemo.get(r.key);
      return known !== undefined ? known : this.memoTarget(layer, r.key, layerMemo);
    }
    const hit = this.lookupRef(layer, r);
    return hit === undefined ? null : this.states.get(hit)!.id;
  }

  /**
   * targetOf's memo miss for a plain name `key` (a reference without a path has no targetKey either: lookupRef asks
   * the key alone): looked up, then kept in the memo.
   */
  private memoTarget(layer: string, key: string, layerMemo: Map<string, string | null>): string | null {
    const hit = this.lookupRef(layer, { key });
    const target = hit === undefined ? null : this.states.get(hit)!.id;
    layerMemo.set(key, target);
    return target;
  }

  /**
   * A bulk load's note as loadEdgesLater first resolves it: its references' targets and placeholders (the same
   * resolveNote makes), its record, and its placeholders among the model's (contribute's part for them). Its
   * edges and problems wait for resolveNote (edgeStep, or pendingScan for a note reaching an entity asked about).
   */
  private resolveTargets(st: NoteState): void {
    let placeholders: Array<[string, string]> | null = null;
    const memo = this.refMemo!;
    let layerMemo = memo.get(st.layer);
    if (!layerMemo) { layerMemo = new Map(); memo.set(st.layer, layerMemo); }
    // the frontmatter's references, then the body's links (as noteRefs orders them); a body link to a plain name
    // without its Ref (a cold open's ~35k of the 10k vault's): its key is all its target depends on
    const head = headRefs(st.note, st.type, this.sv);
    const links = st.note.bodyLinks;
    // gathered in one scratch array for every note, then copied to size (a packed array: \`includes\` over a holey
    // one, as \`new Array(n)\` makes, took ~2.5× as long)
    const targets = this.scratch;
    let n = 0;
    for (const r of head) {
      const key = r.key;
      if (!key) continue;
      let target = this.targetOf(st.layer, r, layerMemo);
      if (target === null) {
        target = `${st.layer}/${key}`;
        (placeholders ??= []).push([target, r.name.trim()]);
      }
      targets[n++] = target;
    }
    for (const l of links) {
      let target: string | null;
      let key: string;
      if (l.target.includes('/')) {
        const r = bodyRef(l);
        key = r.key;
        if (!key) continue;
        target = this.targetOf(st.layer, r, layerMemo);
      } else {
        key = normKey(l.name);
        if (!key) continue;
        const known = layerMemo.get(key);
        target = known !== undefined ? known : this.memoTarget(st.layer, key, layerMemo);
      }
      if (target === null) {
        target = `${st.layer}/${key}`;
        (placeholders ??= []).push([target, l.name.trim()]);
      }
      targets[n++] = target;
    }
    st.targets = n === 0 ? NONE : targets.slice(0, n);
    // kept at its size for the next note (a note of many links lets its room go)
    if (targets.length > 4096) targets.length = 0;
    st.placeholders = placeholders === null ? NONE : exact(placeholders);
    this.noteRecord(st);
    this.addPlaceholders(st);
  }

  /** The note's entity record: made once per note state and id (it depends on nothing else). */
  private noteRecord(st: NoteState): EntityRecord {
    if (st.record && st.record.id === st.id) return st.record;
    // a bulk load (a cold open): the properties when first read, off the path to the first screen
    if (this.bulk) return (st.record = lazyRecord(st, this.sv));
    const n = st.note;
    // the body is the note's, read when asked: a note whose body is not kept in memory (sync/body.ts) reads
    // its file then, so a record never holds a copy of it
    // (the keys in lazyRecord's order)
    st.record = withNoteBody({
      id: st.id, name: n.title, type: st.type, layer: st.layer, path: n.path, hash: n.hash,
      tags: n.tags, aliases: n.aliases, placeholder: false, properties: noteProperties(n, st.type, this.sv),
    }, n);
    return st.record;
  }

  /** `edges` false: all but the edges (restoreResolved with edge groups adds those per group). */
  private contribute(st: NoteState, edges = true): void {
    this.touchEntity(st.id);
    const keys = edges ? this.keysOf(st) : [];
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      this.touchEdge(k);
      this.addCandidate(k, st.edges[i]!);
    }
    this.addPlaceholders(st);
    if (this.revValid) this.addRev(st);
    st.resolved = true;
  }

  /** contribute()'s part for the note's placeholders: each placeholder's referrers, the name this note gives it */
  private addPlaceholders(st: NoteState): void {
    const path = st.note.path;
    for (const [pid, name] of st.placeholders) {
      this.touchEntity(pid);
      let m = this.phRefs.get(pid);
      if (!m) { m = new Map(); this.phRefs.set(pid, m); }
      if (!m.has(path)) m.set(path, name);
    }
  }

  /** `e` among the candidates of edge key `k` (one record, or a list once there are several), after those there */
  private addCandidate(k: string, e: RelationshipRecord): void {
    const c = this.edgeCands.get(k);
    if (c === undefined) this.edgeCands.set(k, e);
    else if (Array.isArray(c)) c.push(e);
    else this.edgeCands.set(k, [c, e]);
  }

  private withdraw(st: NoteState): void {
    if (!st.resolved) return;
    const path = st.note.path;
    this.touchEntity(st.id);
    for (const k of this.keysOf(st)) {
      this.touchEdge(k);
      const c = this.edgeCands.get(k);
      if (c === undefined) continue;
      if (!Array.isArray(c)) { if (c.source === path) this.edgeCands.delete(k); continue; }
      const i = c.findIndex((x) => x.source === path);
      if (i >= 0) c.splice(i, 1);
      if (c.length === 1) this.edgeCands.set(k, c[0]!);
      else if (c.length === 0) this.edgeCands.delete(k);
    }
    for (const [pid] of st.placeholders) {
      this.touchEntity(pid);
      const m = this.phRefs.get(pid);
      if (m) { m.delete(path); if (m.size === 0) this.phRefs.delete(pid); }
    }
    if (this.revValid) {
      for (const k of refKeysOf(st, this.sv)) {
        const s = this.revIndex.get(k);
        if (typeof s === 'string') { if (s === path) this.revIndex.delete(k); } else if (s) { s.delete(path); if (s.size === 0) this.revIndex.delete(k); }
      }
    }
    st.resolved = false;
  }

  private touchEntity(id: string): void {
    if (!this.bulk && id && !this.trackEnts.has(id)) this.trackEnts.set(id, this.records.get(id));
  }

  private touchEdge(k: string): void {
    if (!this.bulk && !this.trackEdges.has(k)) this.trackEdges.set(k, this.visibleEdges.get(k));
  }

  private currentRecord(id: string): EntityRecord | undefined {
    const owner = this.idOwner.get(id);
    if (owner !== undefined) {
      const st = this.states.get(owner);
      if (st?.record && st.record.id === id) return st.record;
    }
    const refs = this.phRefs.get(id);
    if (!refs || refs.size === 0) return undefined;
    let minPath: string | undefined;
    for (const p of refs.keys()) if (minPath === undefined || p < minPath) minPath = p;
    const slash = id.indexOf('/');
    return {
      id, name: refs.get(minPath!)!, type: null, layer: id.slice(0, slash), path: null, hash: null,
      tags: [], aliases: [], properties: {}, body: '', placeholder: true,
    };
  }

  private finalize(): GraphDelta {
    const delta: GraphDelta = { removeEntities: [], upsertEntities: [], removeEdges: [], addEdges: [] };
    if (this.bulk) {
      // loaded into an empty model: everything is new (the notes' ids, then the placeholders', as a tracking
      // map of both would iterate them); adjacency waits for warm()
      this.bulk = false;
      for (const id of this.idOwner.keys()) this.addNew(id, delta);
      for (const id of this.phRefs.keys()) if (!this.idOwner.has(id)) this.addNew(id, delta);
      for (const [k, c] of this.edgeCands) {
        const e = visibleOf(c)!;
        this.visibleEdges.set(k, e);
        delta.addEdges.push(e);
      }
    }
    for (const [id, before] of this.trackEnts) {
      const now = this.currentRecord(id);
      if (now) this.records.set(id, now); else this.records.delete(id);
      if (!now) { if (before) delta.removeEntities.push(id); continue; }
      if (!before || (before !== now && recordSig(before) !== recordSig(now))) {
        delta.upsertEntities.push(now);
      }
    }
    for (const [k, before] of this.trackEdges) {
      const now = visibleOf(this.edgeCands.get(k));
      if (now) {
        this.visibleEdges.set(k, now);
        if (this.adjValid) { addAdj(this.outAdj, now.from, k); addAdj(this.inAdj, now.to, k); }
      } else if (before) {
        this.visibleEdges.delete(k);
        if (this.adjValid) { delAdj(this.outAdj, before.from, k); delAdj(this.inAdj, before.to, k); }
      }
      if (before && (!now || !sameEdge(before, now))) delta.removeEdges.push(before);
      if (now && (!before || !sameEdge(before, now))) delta.addEdges.push(now);
    }
    this.trackEnts = new Map();
    this.trackEdges = new Map();
    return delta;
  }

  /** finalize of a bulk load: entity `id` is new */
  private addNew(id: string, delta: GraphDelta): void {
    const now = this.currentRecord(id);
    if (!now) return;
    this.records.set(id, now);
    delta.upsertEntities.push(now);
  }

  private adj(m: Map<string, Set<string>>, id: string): RelationshipRecord[] {
    const out: RelationshipRecord[] = [];
    for (const k of m.get(id) ?? []) { const e = this.visibleEdges.get(k); if (e) out.push(e); }
    return out;
  }
}

/**
 * Edge groups fit these notes' edges: `all` is their edges (in the notes' order), every edge in exactly one group,
 * a group's candidates of one key (the same from, to and type). Throws otherwise (the snapshot is then not used).
 * That the groups are those of distinct keys, in the order contribute() would add them, is the snapshot's
 * (encodeSnapshot derives them with the keys themselves; its format and key say it was built so).
 */
function checkGroups(notes: ResolvedNote[], g: EdgeGroups): void {
  const bad = (why: string) => new Error(`restoreResolved: edge groups ${why}`);
  let k = 0;
  for (const r of notes) for (const e of r.edges) if (g.all[k++] !== e) throw bad("are not the notes' edges");
  if (k !== g.all.length || g.mem.length !== k || g.off[0] !== 0 || g.off[g.off.length - 1] !== k) throw bad('do not cover the edges');
  const seen = new Uint8Array(k);
  for (let x = 0; x + 1 < g.off.length; x++) {
    const a = g.off[x]!;
    const b = g.off[x + 1]!;
    if (!(b > a)) throw bad('have an empty group');
    const first = g.all[g.mem[a]!];
    if (!first) throw bad('point outside the edges');
    for (let i = a; i < b; i++) {
      const m = g.mem[i]!;
      const e = g.all[m];
      if (!e || seen[m]) throw bad('repeat an edge or point outside them');
      seen[m] = 1;
      if (e.from !== first.from || e.to !== first.to || e.type !== first.type) throw bad('mix keys');
    }
  }
}

/**
 * What stage() hands complete(): the name and path keys whose holders changed (their referrers are resolved again)
 * and the notes to resolve; a bulk load's are an array of paths (nothing affected).
 */
interface Staged {
  affected: Set<string>;
  toResolve: Set<string> | string[];
  /** toResolve is every note staged, in path order, as the model's states hold them (a whole vault, stageAll) */
  inOrder?: boolean;
}

/** Candidates for one edge key: kept as the record itself while there is one (most keys), an array beyond. */
type Cands = RelationshipRecord | RelationshipRecord[];

/**
 * The visible edge among candidates: the first by edgeOrder. One fact written on both ends (`faction:` on the
 * member, `members:` on the faction) is one edge; each end's own properties are kept, for its direction.
 */
/** `id === \`${layer}/${nameKey}\`` without making that string (once per note of a load) */
function isFirstId(id: string, layer: string, nameKey: string): boolean {
  return id.length === layer.length + 1 + nameKey.length && id.startsWith(layer) && id.charCodeAt(layer.length) === 47 && id.endsWith(nameKey);
}

function visibleOf(c: Cands | undefined): RelationshipRecord | undefined {
  if (c === undefined || !Array.isArray(c)) return c;
  if (c.length > 1) c.sort(edgeOrder);
  const first = c[0];
  if (!first || c.length < 2) return first;
  const props = first.properties ?? c.find((x) => x.properties)?.properties;
  const inv = first.inverseProperties ?? c.find((x) => x.inverseProperties)?.inverseProperties;
  if (props === first.properties && inv === first.inverseProperties) return first;
  return { ...first, ...(props ? { properties: props } : {}), ...(inv ? { inverseProperties: inv } : {}) };
}

/**
 * What tells two records of one id apart, without the body: a note's body is a function of its file's content
 * (hash), and reading it here would read the file of every touched entity.
 */
function recordSig(r: EntityRecord): string {
  return JSON.stringify([r.name, r.type, r.layer, r.path, r.hash, r.tags, r.aliases, r.properties, r.placeholder]);
}

const byPath = (a: ParsedNote, b: ParsedNote): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The notes of a map of changes (replacing()'s), in its order: what a bulk load stages. */
function* notesOf(changed: Map<string, ParsedNote | null>): Iterable<ParsedNote> {
  for (const n of changed.values()) if (n) yield n;
}

/** The keys a note answers to: its name, file name, aliases and path, each given to `fn` in that order. */
function eachProvide(note: ParsedNote, nameKey: string, fn: (kind: NameKind, key: string) => void, paths = true): void {
  fn('name', nameKey);
  // a note titled by its file name (most are) has its name key for a file key ('untitled' is a name's fallback)
  const fileKey = note.basename === note.title && nameKey !== 'untitled' ? nameKey : normKey(note.basename);
  if (fileKey) fn('file', fileKey);
  for (const a of note.aliases) { const k = normKey(a); if (k) fn('alias', k); }
  if (paths) fn('path', notePathKey(note));
}

/** The key a note answers to by its path (eachProvide's last, and what withPaths() adds after a bulk load). */
function notePathKey(note: ParsedNote): string {
  return pathKey(note.path);
}

/** eachProvide's keys as [kind, key] pairs. */
function providesOf(note: ParsedNote, nameKey: string): Array<[NameKind, string]> {
  const provides: Array<[NameKind, string]> = [];
  eachProvide(note, nameKey, (kind, key) => { provides.push([kind, key]); });
  return provides;
}

/**
 * index.add of every key eachProvide gives, without [kind, key] pairs (a bulk load's 10k notes: ~7 MB of
 * short-lived arrays); true when the name key got its first holder.
 */
function addProvides(index: NameIndex, st: NoteState, paths = true): boolean {
  const { layer } = st;
  const path = st.note.path;
  let first = false;
  eachProvide(st.note, st.nameKey, (kind, key) => { if (index.add(layer, kind, key, path) && kind === 'name') first = true; }, paths);
  return first;
}

/**
 * The keys a state's note answers to, made each time they are asked for (a function of the note and its name key:
 * the same keys every time, so the name index removes what it added). Not kept in the state (rss15i, issue 15
 * point 6): an array of [kind, key] pairs per note was ~3 MB of a 10k web shell's heap, asked for only when a note
 * changes and when the name index is built; the index holds the keys themselves.
 */
function providesIn(st: NoteState): Array<[NameKind, string]> {
  return providesOf(st.note, st.nameKey);
}

function provKey(kind: NameKind, key: string): string {
  return (kind === 'path' ? 'p:' : 'n:') + key;
}
function lazyAdj(lazy: LazyEdges, m: Map<string, number[]>, id: string): RelationshipRecord[] {
  const out: RelationshipRecord[] = [];
  for (const g of m.get(id) ?? []) out.push(lazy.visible[g]!);
  return out;
}
function addAdj(m: Map<string, Set<string>>, id: string, k: string): void {
  let s = m.get(id);
  if (!s) { s = new Set(); m.set(id, s); }
  s.add(k);
}
function delAdj(m: Map<string, Set<string>>, id: string, k: string): void {
  const s = m.get(id);
  if (s) { s.delete(k); if (s.size === 0) m.delete(id); }
}

/** schema.yaml `rules`: per-code severity override, or off. */
export function applyRuleSettings(problems: Problem[], rules: Schema['rules']): Problem[] {
  if (!rules || Object.keys(rules).length === 0) return problems;
  const out: Problem[] = [];
  for (const p of problems) {
    const r = rules[p.code];
    if (r === undefined || r === true) out.push(p);
    else if (r === false || r === 'off') continue;
    else out.push({ ...p, severity: r });
  }
  return out;
}
