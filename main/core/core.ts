/**
 * The Core facade over one vault: reads come from the in-memory model where
 * it answers exactly (entity, lookup, suggest, list, problems, graph) and from
 * the Kùzu store for traversals, paths, full-text search and Cypher.
 */
import { refTarget } from '../../shared/wikilinks.js';
import type {
  ChangeEvent, EntitySummary, EntityView, GraphSnapshot, PathResult, Problem, RelationView,
  SearchHit, SyncReport, SyncStatus, Traversal, TraversalStep, EntityRecord, RelationshipRecord,
} from '../../shared/types.js';
import type { Schema, VaultConfig } from '../config/types.js';
import type { SchemaIndex } from '../config/schema-index.js';
import type { GraphStore } from '../store/types.js';
import type { VaultSyncEngine } from '../sync/engine.js';
import { CoreError, type Core, type Direction, type EntityQuery, type ListFilter, type LookupMatch } from './api.js';
import type { VaultLock } from './lock.js';
import { NameLookup, summaryOf } from './lookup.js';
import { rankSearch } from './search.js';
import { problemsService, type ProblemsService } from '../problems/index.js';
import { AssetResolver, type VaultAsset } from '../assets/assets.js';
import { SchemaSetup } from './schema-setup.js';
import type { AllowedRel, EditForm, RelItem } from '../../shared/contract-edit.js';
import { editorFor, type EditOptions, type Editor } from '../edit/commands.js';
import { createTimeline, type TimelineService } from '../timeline/service.js';
import { changeCanvas, readCanvas, type CanvasChange, type CanvasFile } from './canvas.js';
import { recordEvent, type RecordEventArgs, type RecordEventResult } from './events.js';
import { allowedRelationships, editForm } from './forms.js';
import { ImportanceCache } from './importance.js';
import { relationshipItems } from './rel-items.js';
import { PLAYERS_READ_ONLY, PlayersLenses, entitiesInListOrder, firstInListOrder, knownLayer, PlayersView, playersTimeline, type Audience, type PlayersTimeline, type ViewQuery } from './audience.js';
import { defaultLayer } from '../visibility/world.js';
import { timelineInputFromModel } from '../timeline/service.js';
import { exportWorld, writeExport, type ExportOptions, type ExportResult } from '../export/index.js';
import { isAbsolute, relative, resolve as resolvePath } from 'node:path';

/** list(): a page ending within this many entities of the head is selected, not cut from the whole list sorted */
const FIRST_PAGES = 500;

export interface CoreHost extends Core {
  readonly engine: VaultSyncEngine;
  readonly store: GraphStore;
  readonly index: SchemaIndex;
  readonly dbDir: string;
  /** the held `<dbDir>/lock` (the MCP bridge adds its endpoint with lock.update) */
  readonly lock: VaultLock;
  /** resolves when the full-text index is built (search() waits for it too) */
  searchReady(): Promise<void>;
  /** resolve a name, alias, file name or id to one entity (null when none) */
  resolveEntity(nameOrId: string, q?: EntityQuery): EntityRecord | null;
  /** schema inference over the open vault's notes (propose / preview / accept: core/schema-setup.ts) */
  schemaSetup(): SchemaSetup;

  // ---- commands (one implementation each; every shell calls these) ----
  /**
   * The one editor of this vault: every edit command (create, set, unset, link, unlink, rename,
   * delete, body), transactions, undo/redo/history. One queue and one undo history for all writers.
   */
  readonly editor: Editor;
  /** Record an event with its participants, location, consequences and body: one transaction, one undo step. */
  recordEvent(a: RecordEventArgs, opts?: EditOptions): Promise<RecordEventResult>;
  /** Pin / unpin canvas nodes and save layout positions in <vault>/.lorecraft/canvas.json (main/canvas/positions.ts). */
  setCanvasPositions(change: CanvasChange): Promise<{ count: number; laidOut: number }>;

  // ---- reads for the app's forms and views ----
  /** The timeline of this vault (sessions, events, state at a session, diff); rebuilt lazily after changes. */
  readonly timeline: TimelineService;
  editForm(nameOrId: string): Promise<EditForm>;
  allowedRelationships(fromId: string, toId: string): AllowedRel[];
  /** the notes' items that write the edge `from -[type]-> to`, each with its own properties (rel-items.ts) */
  relationshipItems(from: string, type: string, to: string): RelItem[];
  canvasPositions(): Promise<CanvasFile & { problem?: string }>;
  /** entity id -> PageRank (canvas node importance), cached per model version (importance.ts) */
  importance(): Promise<Record<string, number>>;
  // ---- audiences (main/core/audience.ts) ----
  /**
   * The reads as one audience sees them: the core itself for the GM, a PlayersView (the lens of main/visibility
   * at layer and session: the redaction the exports use) for players. Cached per model version.
   */
  view(q?: ViewQuery): Core & { importance(): Promise<Record<string, number>> };
  /** the timeline as players see it (GM-only events never applied); `cap`: the latest session it may show */
  playersTimeline(cap?: number | null): PlayersTimeline;
  /** the app's view: while 'players', every write made with origin 'app' is refused ('forbidden') */
  readonly audience: Audience;
  /** switch the app's view; `at`: the campaign layer and session the players' reads show (default: the only campaign layer, after every event) */
  setAudience(a: Audience, at?: { layer?: string | null; session?: number | null }): void;
  /** the layer and session of the app's view (what `view({ audience: 'players' })` shows when not told otherwise) */
  viewAt(): { layer: string; session: number | null };
  /**
   * `lorecraft export` for the open vault (main/export: the same exportWorld and writeExport the CLI runs, on the
   * live model). `out` must be an absolute path outside the vault.
   */
  exportTo(o: ExportOptions, out: string): Promise<{ result: Omit<ExportResult, 'files'>; written: string[] }>;
  /**
   * Keep the players' view built off the interactive path (the app's session turns this on): after the open's
   * background load, after every change and whenever the GM view is set at a session, the players' index and
   * the lens at the view's (layer, session) are built a moment later, so a switch finds them ready. Until the
   * players' view is first shown, only what every lens of a model version shares (PlayersLenses.prepare: not
   * the lenses, which hold more memory). Returns the function that turns it off.
   */
  warmPlayersView(): () => void;
  /**
   * Resolves once warmPlayersView's background build has nothing scheduled or running (at once when it has
   * none): CoreSession waits for it, after the open's background work, before its one GC after the open.
   */
  playersIdle(): Promise<void>;
  /** called by the editor before it writes: refuses app writes in the players' view */
  guardWrite(origin: 'app' | 'mcp'): void;
}

export class CoreImpl implements CoreHost {
  private lookupCache: { version: number; l: NameLookup } | null = null;
  private closed = false;
  private problemsSvc: ProblemsService | null = null;
  private assets: AssetResolver | null = null;
  private setup: SchemaSetup | null = null;
  private timelineSvc: TimelineService | null = null;
  private importanceCache: ImportanceCache | null = null;
  private mode: Audience = 'gm';
  private at: { layer: string | null; session: number | null } = { layer: null, session: null };
  private readonly players = new PlayersLenses(this);
  /** warmPlayersView() is on: the players' view is kept built in the background */
  private warmed = false;
  /**
   * the players' view was shown in this session: only then is it kept built in the background. Built ahead
   * for a GM who never opens it, its lenses held ~70–90 MB at 10k and ~260 MB on the real-shaped 7k vault.
   */
  private playersShown = false;

  constructor(
    readonly vaultDir: string,
    readonly dbDir: string,
    readonly engine: VaultSyncEngine,
    readonly store: GraphStore,
    readonly index: SchemaIndex,
    readonly lock: VaultLock,
  ) {}

  config(): VaultConfig { return this.engine.model.config(); }
  schema(): Schema { return this.engine.model.schema(); }
  status(): SyncStatus { return this.engine.status(); }
  sync(opts?: { full?: boolean }): Promise<SyncReport> { return this.engine.syncAll(opts); }
  watch(): Promise<void> { return this.engine.startWatching(); }
  onChange(fn: (e: ChangeEvent) => void): () => void { return this.engine.onChange(fn); }
  searchReady(): Promise<void> { return this.engine.searchReady(); }
  importance(): Promise<Record<string, number>> {
    return (this.importanceCache ??= new ImportanceCache(this.store, () => this.engine.model.version)).ranks();
  }
  /** every problem: the model's plus the rules of main/problems (timeline, continuity...), schema.yaml `rules:` applied; cached until the next change */
  problems(): Problem[] { return (this.problemsSvc ??= problemsService(this)).report().problems; }

  schemaSetup(): SchemaSetup {
    return (this.setup ??= new SchemaSetup(this.vaultDir, async () => ({ key: this.engine.model.version, notes: [...this.engine.model.notes()], titleField: this.schema().title_field })));
  }

  get editor(): Editor { return editorFor(this); }
  get timeline(): TimelineService { return (this.timelineSvc ??= createTimeline(this)); }
  recordEvent(a: RecordEventArgs, opts?: EditOptions): Promise<RecordEventResult> { return recordEvent(this, this.editor, a, opts); }
  relationshipItems(from: string, type: string, to: string): RelItem[] {
    this.guardWrite('app');
    return relationshipItems(this, from, type, to);
  }
  async editForm(nameOrId: string): Promise<EditForm> {
    // the form is the note as written (secrets included) and is only for editing
    this.guardWrite('app');
    return editForm(this, nameOrId);
  }
  allowedRelationships(fromId: string, toId: string): AllowedRel[] {
    this.guardWrite('app');
    return allowedRelationships(this, fromId, toId);
  }
  canvasPositions() { return readCanvas(this.vaultDir); }
  trash() { return this.editor.trash(); }
  setCanvasPositions(change: CanvasChange) { return changeCanvas(this.vaultDir, change); }

  get audience(): Audience { return this.mode; }
  setAudience(a: Audience, at: { layer?: string | null; session?: number | null } = {}): void {
    const layer = at.layer ?? null;
    if (layer !== null) knownLayer(this.config(), layer);
    this.mode = a;
    this.at = { layer, session: at.session ?? null };
    if (a === 'players') this.playersShown = true;
    // the GM's timeline rests here: have the players' view of it ready
    if (a === 'gm' && this.warmed && this.playersShown) this.players.warm(() => this.viewAt());
  }
  viewAt(): { layer: string; session: number | null } {
    return { layer: this.at.layer ?? defaultLayer({ config: this.config() }), session: this.at.session };
  }
  async exportTo(o: ExportOptions, out: string): Promise<{ result: Omit<ExportResult, 'files'>; written: string[] }> {
    if (!isAbsolute(out)) throw new CoreError('bad-arguments', `${out}: give the export's destination as an absolute path`, { field: 'out' });
    const rel = relative(this.vaultDir, resolvePath(out));
    if (!rel || (!rel.startsWith('..') && !isAbsolute(rel))) throw new CoreError('bad-arguments', `${out} is inside the vault: export to a folder outside it`, { field: 'out' });
    const { files, ...result } = exportWorld(timelineInputFromModel(this.engine.model, this.vaultDir), o);
    const written = await writeExport({ ...result, files }, out);
    return { result, written };
  }
  guardWrite(origin: 'app' | 'mcp'): void {
    if (origin === 'app' && this.mode === 'players') throw new CoreError('forbidden', PLAYERS_READ_ONLY);
  }
  view(q: ViewQuery = {}): Core & { importance(): Promise<Record<string, number>> } {
    if ((q.audience ?? 'gm') === 'gm') return this;
    const at = this.viewAt();
    return new PlayersView(this, this.players.lens(q.layer ?? at.layer, q.session !== undefined ? q.session : at.session));
  }
  playersTimeline(cap: number | null = null): PlayersTimeline { return playersTimeline(this.players, cap); }
  warmPlayersView(): () => void {
    this.warmed = true;
    // before the players' view is first shown, only what every lens shares and that holds little memory
    const build = () => {
      if (!this.warmed) return;
      if (this.playersShown) this.players.warm(() => this.viewAt());
      else this.players.prepare(() => this.viewAt().layer);
    };
    // after the open's background load (the store, search), then after every change, each once what was queued
    // then is over and the search index is built: the opening sync's end announces a change before its index is
    // built, and a preparation started then (steps of 100-600 ms each at 5k under load, from 0.3 s after the
    // open) held the app's page, bundle, socket and first calls behind it in the shell's event loop (issue 19 point 2)
    const warm = () => void this.engine.syncedAndIndexed().then(build);
    warm();
    const off = this.engine.onChange(warm);
    return () => { off(); this.warmed = false; this.players.stop(); };
  }
  // a build waiting for the syncs (warmPlayersView) is scheduled before this resolves: its wait began earlier
  playersIdle(): Promise<void> { return this.engine.syncedAndIndexed().then(() => this.players.idle()); }
  private names(): NameLookup {
    const m = this.engine.model;
    if (!this.lookupCache || this.lookupCache.version !== m.version) {
      this.lookupCache = { version: m.version, l: new NameLookup(m.entities()) };
    }
    return this.lookupCache.l;
  }

  resolveEntity(nameOrId: string, q: EntityQuery = {}): EntityRecord | null {
    const m = this.engine.model;
    const fits = (e: EntityRecord) => (!q.type || e.type?.toLowerCase() === q.type.toLowerCase()) && (!q.layer || e.layer === q.layer);
    const direct = m.entity(nameOrId.trim());
    if (direct && fits(direct)) return direct;
    const text = refTarget(nameOrId);
    const layerOrder = m.config().layers.map((l) => l.name);
    const matches = this.names().exactMatches(text.slice(text.lastIndexOf('/') + 1))
      .map((x) => m.entity(x.entity.id)!)
      .filter((e) => e && fits(e));
    if (text.includes('/')) {
      for (const e of m.entities()) if (e.path && e.path.replace(/\.md$/i, '').toLowerCase() === text.replace(/\.md$/i, '').toLowerCase() && fits(e)) return e;
    }
    if (!matches.length) return null;
    // real notes before placeholders, then canonical layer order, then exact name before alias/file name
    matches.sort((a, b) => Number(a.placeholder) - Number(b.placeholder) || layerOrder.indexOf(a.layer) - layerOrder.indexOf(b.layer));
    return matches[0]!;
  }

  private mustResolve(nameOrId: string, q?: EntityQuery): EntityRecord {
    const e = this.resolveEntity(nameOrId, q);
    if (!e) throw new CoreError('not-found', `no entity named '${nameOrId}'`, { name: nameOrId });
    return e;
  }

  async getEntity(nameOrId: string, q?: EntityQuery): Promise<EntityView | null> {
    const e = this.resolveEntity(nameOrId, q);
    if (!e) return null;
    const m = this.engine.model;
    const relations: RelationView[] = [];
    const view = (r: RelationshipRecord, dir: 'out' | 'in'): void => {
      const otherId = dir === 'out' ? r.to : r.from;
      const other = m.entity(otherId);
      if (!other) return;
      const sym = this.index.isSymmetric(r.type);
      const label = dir === 'out' || sym ? r.type : this.index.inverseOf(r.type) ?? r.type;
      const props = dir === 'out' || sym ? r.properties : r.inverseProperties;
      relations.push({ type: r.type, label, direction: sym ? 'both' : dir, other: summaryOf(other), field: r.field, source: r.source, ...(props ? { properties: props } : {}) });
    };
    for (const r of m.edgesFrom(e.id)) view(r, 'out');
    for (const r of m.edgesTo(e.id)) if (r.from !== e.id) view(r, 'in');
    relations.sort((a, b) => a.label.localeCompare(b.label) || a.other.name.localeCompare(b.other.name) || a.direction.localeCompare(b.direction) || a.other.id.localeCompare(b.other.id));
    return { ...e, relations };
  }

  async lookup(name: string, limit = 10): Promise<LookupMatch[]> {
    return this.names().lookup(name, limit);
  }

  async suggest(prefix: string, limit = 10): Promise<LookupMatch[]> {
    return this.names().suggest(prefix, limit);
  }

  async list(filter: ListFilter = {}): Promise<{ items: EntitySummary[]; total: number }> {
    const tag = filter.tag?.replace(/^#/, '').toLowerCase();
    const type = filter.type?.toLowerCase();
    const accept = (e: EntityRecord | EntitySummary): boolean => {
      if (e.placeholder && !filter.placeholders) return false;
      if (type && e.type?.toLowerCase() !== type) return false;
      if (filter.layer && e.layer !== filter.layer) return false;
      if (tag && !e.tags.some((t) => { const l = t.toLowerCase(); return l === tag || l.startsWith(tag + '/'); })) return false;
      return true;
    };
    const offset = Math.max(0, filter.offset ?? 0);
    // a page near the head of the list (the app's first screen): without sorting every entity first
    if (filter.limit !== undefined && offset + filter.limit <= FIRST_PAGES) {
      const { items, total } = firstInListOrder(this, accept, offset + filter.limit);
      return { items: items.slice(offset), total };
    }
    const items: EntitySummary[] = [];
    // every entity by name then id, sorted once per model version and shared with the players' view
    for (const e of entitiesInListOrder(this)) if (accept(e)) items.push(e);
    const limit = filter.limit ?? items.length;
    return { items: items.slice(offset, offset + limit), total: items.length };
  }

  async relations(nameOrId: string, opts: { depth?: number; type?: string; direction?: Direction } = {}): Promise<Traversal> {
    const e = this.mustResolve(nameOrId);
    const depth = Math.min(5, Math.max(1, Math.floor(opts.depth ?? 1)));
    let type = opts.type;
    if (type) {
      const canon = this.index.canonicalName(type.toUpperCase());
      if (!canon) throw new CoreError('unknown-relationship', `'${type}' is not a relationship type of the schema`, { type });
      type = canon;
    }
    const t = await this.store.neighbours(e.id, { depth, direction: opts.direction ?? 'both', ...(type ? { type } : {}) });
    return { ...t, steps: t.steps.map((s) => this.withProperties(s)) };
  }

  /** a traversal step with the relationship's own properties for the direction walked (from the model) */
  private withProperties(s: TraversalStep): TraversalStep {
    const m = this.engine.model;
    const find = (a: string, b: string) => m.edgesFrom(a).find((x) => x.to === b && x.type === s.type);
    const props = s.direction === 'in' ? find(s.to, s.from)?.inverseProperties
      : s.direction === 'out' ? find(s.from, s.to)?.properties
        : find(s.from, s.to)?.properties ?? find(s.to, s.from)?.properties;
    return props ? { ...s, properties: props } : s;
  }

  async path(from: string, to: string, maxDepth = 6): Promise<PathResult | null> {
    const a = this.mustResolve(from);
    const b = this.mustResolve(to);
    return this.store.shortestPath(a.id, b.id, Math.min(10, Math.max(1, Math.floor(maxDepth))));
  }

  async search(text: string, opts: { layer?: string; type?: string; limit?: number } = {}): Promise<SearchHit[]> {
    if (!text.trim()) return [];
    await this.engine.searchReady().catch(() => undefined);
    // the entity first: the name index's exact / prefix / fuzzy matches above the full-text hits (search.ts)
    const limit = opts.limit ?? 20;
    const filter = { ...(opts.layer ? { layer: opts.layer } : {}), ...(opts.type ? { type: opts.type } : {}) };
    const fts = await this.store.search(text, { limit, ...filter });
    return rankSearch(text, this.names().suggest(text, limit * 2 + 10), fts, { limit, ...filter });
  }

  async searchCount(text: string, opts: { layer?: string; type?: string } = {}): Promise<number> {
    if (!text.trim()) return 0;
    await this.engine.searchReady().catch(() => undefined);
    return this.store.searchCount(text, { ...(opts.layer ? { layer: opts.layer } : {}), ...(opts.type ? { type: opts.type } : {}) });
  }

  cypher(query: string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Record<string, unknown>[]> {
    return this.store.cypher(query, undefined, opts);
  }

  async graph(filter: { layer?: string } = {}): Promise<GraphSnapshot> {
    const m = this.engine.model;
    const nodes: EntitySummary[] = [];
    const keep = new Set<string>();
    for (const e of m.entities()) {
      if (filter.layer && e.layer !== filter.layer) continue;
      nodes.push(summaryOf(e));
      keep.add(e.id);
    }
    const edges: GraphSnapshot['edges'] = [];
    for (const r of m.edges()) if (keep.has(r.from) && keep.has(r.to)) edges.push({ from: r.from, to: r.to, type: r.type, field: r.field });
    return { nodes, edges };
  }

  readAsset(ref: string): Promise<VaultAsset> {
    return (this.assets ??= new AssetResolver(this.vaultDir)).read(ref);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.players.stop();
    this.problemsSvc?.close();
    this.timelineSvc?.close();
    editorFor(this).dispose();
    try {
      await this.engine.close();
      await this.store.close();
    } finally {
      this.lock.release();
      // what this core built over the model goes with it (the engine lets go of the model itself)
      this.lookupCache = null;
      this.importanceCache = null;
      this.problemsSvc = null;
      this.timelineSvc = null;
      this.setup = null;
      this.assets = null;
    }
  }
}
