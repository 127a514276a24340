/**
 * The one edit path. Every writer (UI, canvas, timeline, MCP, CLI) calls these
 * commands: validate against the schema -> new bytes (lossless frontmatter
 * editor) -> conflict check against the hash the model last read -> atomic
 * writes (expectWrite first) -> applyPaths, so the graph holds the change and
 * one ChangeEvent went out before the command resolves.
 *
 * Commands run one at a time (a queue). An invalid command changes nothing.
 * History: commands with origin 'app' enter undo history by default; 'mcp'
 * commands do not (an assistant's edits are not the user's own undo steps),
 * unless `history: true` is passed. Changes from disk never do.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { posix } from 'node:path';
import type { ChangeEvent } from '../../shared/types.js';
import { CoreError } from '../domain/errors.js';
import { TaskQueue } from '../domain/queue.js';
import type { SyncEngine } from '../sync/types.js';
import { EditContext } from './context.js';
import { folderFor, newNote, typeMarker } from './create.js';
import { replaceBody, setField, unsetField } from './frontmatter.js';
import { planLink, planUnlink } from './relations.js';
import { planRelProperty, planRelUnset } from './rel-props.js';
import { planRename } from './rename.js';
import { checkEntityName, checkProperty, invalid, isReserved, propDef, requireType, typeDef } from './rules.js';
import { readVaultFile } from './safe-fs.js';
import { TRASH, listTrash, trashOrigin, type TrashItem } from './trash.js';
import { History, checkFiles, hashOf, mergeChanges, unifiedDiff, writeFiles, type EditResult, type FileChange, type HistoryEntry } from './tx.js';

export type { EditResult, Changed, HistoryEntry, FileChange } from './tx.js';

/** What the editor needs from the core: CoreHost satisfies it. */
export interface EditHost {
  readonly vaultDir: string;
  readonly engine: SyncEngine;
  /** refuses a write before anything is written (the core: app writes in the players' view) */
  guardWrite?(origin: 'app' | 'mcp'): void;
}

export interface EditOptions {
  origin?: 'app' | 'mcp';
  /** enter undo history (default: origin === 'app') */
  history?: boolean;
}

export interface Editor {
  createEntity(type: string, name: string, opts?: EditOptions & { layer?: string; properties?: Record<string, unknown> }): Promise<EditResult & { id: string; path: string }>;
  setProperty(name: string, field: string, value: unknown, opts?: EditOptions): Promise<EditResult>;
  unsetProperty(name: string, field: string, opts?: EditOptions): Promise<EditResult>;
  /**
   * `placeholder: true`: a `to` with no note is written by name (a link to a note not written yet); the field must be on `from`'s type.
   * `properties`: the relationship's own, set on the item written (or already there) in the same file change.
   */
  addRelationship(from: string, rel: string, to: string, opts?: EditOptions & { placeholder?: boolean; properties?: Record<string, unknown> }): Promise<EditResult>;
  removeRelationship(from: string, rel: string, to: string, opts?: EditOptions): Promise<EditResult>;
  /**
   * Set one of the relationship's own properties as `from`'s note writes it (`from -[rel]-> to`'s item in the
   * mapped field): a plain item becomes `{ to: …, key: value }`; only that item's bytes change. Checked against
   * the relationship type's declared properties (`since` / `until`: a session number or an event).
   */
  setRelationshipProperty(from: string, rel: string, to: string, key: string, value: unknown, opts?: EditOptions): Promise<EditResult>;
  /** Remove one; the item turns back into its plain form when no property is left. */
  unsetRelationshipProperty(from: string, rel: string, to: string, key: string, opts?: EditOptions): Promise<EditResult>;
  rename(oldName: string, newName: string, opts?: EditOptions): Promise<EditResult & { path: string }>;
  /** moves the note to <vault>/.lorecraft/trash/; `referrers` still point at it */
  delete(name: string, opts?: EditOptions): Promise<EditResult & { referrers: string[]; trashPath: string }>;
  /** what a delete would leave dangling: the entity and the notes that refer to it (for a confirmation) */
  deletePreview(name: string): Promise<{ id: string; name: string; path: string; referrers: Array<{ path: string; name: string }> }>;
  /** the files in the vault's trash, most recent first */
  trash(): Promise<TrashItem[]>;
  /** moves a file from the trash back to where it was (one undo step); refuses if a file is there now */
  restore(trashPath: string, opts?: EditOptions): Promise<EditResult & { path: string }>;
  replaceBody(name: string, body: string, opts?: EditOptions): Promise<EditResult>;
  /**
   * One user action made of several commands: `fn` calls this editor's commands (they run at once,
   * inside the transaction's turn of the queue). On success the whole is ONE undo entry labelled
   * `label` (when opts say it enters history); if `fn` throws, every file it wrote is put back as it
   * was (byte-identical) and the error is rethrown. A transaction inside a transaction is part of it.
   */
  transaction<T>(label: string, fn: () => Promise<T>, opts?: EditOptions): Promise<EditResult & { result: T }>;
  undo(): Promise<EditResult & { label: string }>;
  redo(): Promise<EditResult & { label: string }>;
  history(): ReturnType<History['list']>;
  dispose(): void;
}


export function createEditor(host: EditHost): Editor {
  return new EditorImpl(host);
}

const shared = new WeakMap<EditHost, Editor>();

/**
 * The editor of a core: one per CoreHost, shared by every writer in the process
 * (UI handlers, canvas, timeline, MCP), so they use one command queue and one
 * undo history.
 */
export function editorFor(host: EditHost): Editor {
  let ed = shared.get(host);
  if (!ed) {
    ed = createEditor(host);
    shared.set(host, ed);
  }
  return ed;
}

/** What a running transaction has written so far (in order), and the events its commands sent. */
interface TxFrame { files: FileChange[]; events: ChangeEvent[] }

class EditorImpl implements Editor {
  private readonly tasks = new TaskQueue();
  /** set while a transaction's fn runs: its commands neither queue (the transaction holds the turn) nor enter history */
  private readonly tx = new AsyncLocalStorage<TxFrame>();
  private readonly hist = new History();
  private readonly ctx: EditContext;
  private readonly off: () => void;

  constructor(private readonly host: EditHost) {
    this.ctx = new EditContext(host.vaultDir, () => host.engine.model);
    this.off = host.engine.onChange(() => this.ctx.invalidate());
  }

  private get model() { return this.host.engine.model; }
  private find(ref: string) { return this.ctx.find(ref); }
  private current(path: string) { return this.ctx.current(path); }
  private edit(path: string, fn: (t: string) => string) { return this.ctx.edit(path, fn); }
  dispose(): void { this.off(); }

  /** Serialise commands: each sees the graph as the previous one left it. */
  private queue<T>(fn: () => Promise<T>): Promise<T> {
    if (this.tx.getStore()) return fn();
    return this.tasks.run(fn);
  }

  private async commit(label: string, files: FileChange[], opts: EditOptions = {}): Promise<EditResult> {
    const origin = opts.origin ?? 'app';
    this.host.guardWrite?.(origin);
    const real = files.filter((f) => f.before !== f.after);
    if (!real.length) return { changed: [], event: emptyEvent(origin) };
    const res = await writeFiles(this.host.vaultDir, this.host.engine, real, origin);
    const frame = this.tx.getStore();
    if (frame) {
      frame.files.push(...real);
      frame.events.push(res.event);
    } else if (opts.history ?? origin === 'app') {
      this.hist.push(label, origin, real);
    }
    return res;
  }

  transaction<T>(label: string, fn: () => Promise<T>, opts: EditOptions = {}): Promise<EditResult & { result: T }> {
    const outer = this.tx.getStore();
    if (outer) return fn().then((result) => ({ result, changed: [], event: emptyEvent(opts.origin ?? 'app') }));
    return this.queue(async () => {
      const origin = opts.origin ?? 'app';
      const frame: TxFrame = { files: [], events: [] };
      let result: T;
      try {
        result = await this.tx.run(frame, fn);
      } catch (err) {
        await this.rollback(frame, origin);
        throw err;
      }
      const net = mergeChanges(frame.files);
      if (net.length && (opts.history ?? origin === 'app')) this.hist.push(label, origin, net);
      return { result, changed: net.map((f) => ({ path: f.path, diff: unifiedDiff(f) })), event: mergeEvents(origin, frame.events) };
    });
  }

  /** Put back every file a failed transaction wrote (newest first), then bring the graph up to date. */
  private async rollback(frame: TxFrame, origin: 'app' | 'mcp'): Promise<void> {
    const net = mergeChanges(frame.files);
    if (!net.length) return;
    await writeFiles(this.host.vaultDir, this.host.engine, net.map((f) => ({ path: f.path, before: f.after, after: f.before })), origin);
  }

  // ---- commands ----------------------------------------------------------

  createEntity(type: string, name: string, opts: EditOptions & { layer?: string; properties?: Record<string, unknown> } = {}) {
    return this.queue(async () => {
      const schema = this.model.schema();
      const def = requireType(schema, type);
      const n = checkEntityName(name);
      const cfg = this.model.config();
      const layer = opts.layer ?? (cfg.layers.find((l) => l.canonical) ?? cfg.layers[0])!.name;
      if (!cfg.layers.some((l) => l.name === layer)) throw invalid(`unknown layer '${layer}' (layers: ${cfg.layers.map((l) => l.name).join(', ')})`, { field: 'layer' });
      const props = opts.properties ?? {};
      for (const [k, v] of Object.entries(props)) checkProperty(schema, def, k, v);
      const existing = this.model.resolve(n, layer);
      if (existing && !existing.placeholder && existing.layer === layer) {
        throw new CoreError('conflict', `${n} already exists in layer ${layer} (${existing.path})`, { name: n, path: existing.path });
      }
      const marker = typeMarker(schema, def.name);
      const folder = folderFor(this.model, def, layer, marker);
      // file-name collision with a differently named note: suffix, and keep the name in the title field
      let path = posix.join(folder || '.', `${n}.md`).replace(/^\.\//, '');
      for (let i = 2; (await readVaultFile(this.host.vaultDir, path)) !== null; i++) {
        path = posix.join(folder || '.', `${n} ${i}.md`).replace(/^\.\//, '');
      }
      const text = newNote(this.model, def, n, marker, props, !path.endsWith(`/${n}.md`) && path !== `${n}.md`);
      await checkFiles(this.host.vaultDir, [{ path, expect: null, mine: text }], 'already (refusing to overwrite)');
      const res = await this.commit(`create ${def.name} ${n}`, [{ path, before: null, after: text }], opts);
      return { ...res, id: this.model.entityIdOfPath(path) ?? '', path };
    });
  }

  setProperty(name: string, field: string, value: unknown, opts: EditOptions = {}) {
    return this.queue(async () => {
      const e = this.find(name);
      const schema = this.model.schema();
      const present = Object.prototype.hasOwnProperty.call(this.model.note(e.path)?.frontmatter ?? {}, field);
      checkProperty(schema, typeDef(schema, e.type), field, value, present);
      const ch = await this.edit(e.path, (t) => setField(t, field, value));
      return this.commit(`set ${field} on ${e.name}`, [ch], opts);
    });
  }

  unsetProperty(name: string, field: string, opts: EditOptions = {}) {
    return this.queue(async () => {
      const e = this.find(name);
      const schema = this.model.schema();
      const def = typeDef(schema, e.type);
      if (field === schema.title_field) throw invalid(`${field} is the note's name: use rename`, { field });
      const p = propDef(def, field);
      if (p?.required) throw invalid(`${def!.name}.${field} is required by the schema and cannot be unset`, { field });
      const present = field in (this.model.note(e.path)?.frontmatter ?? {});
      if (def && !p && !present && !isReserved(schema, field) && !def.field_mappings.some((m) => m.field === field)) {
        throw invalid(`type ${def.name} has no property '${field}' (known: ${def.properties.map((x) => x.name).join(', ') || '(none)'})`, { field });
      }
      const ch = await this.edit(e.path, (t) => unsetField(t, field));
      return this.commit(`unset ${field} on ${e.name}`, [ch], opts);
    });
  }

  addRelationship(from: string, rel: string, to: string, opts: EditOptions & { placeholder?: boolean; properties?: Record<string, unknown> } = {}) {
    return this.queue(async () => {
      const plan = await planLink(this.ctx, from, rel, to, opts.placeholder === true, opts.properties);
      return this.commit(plan.label, plan.files, opts);
    });
  }

  removeRelationship(from: string, rel: string, to: string, opts: EditOptions = {}) {
    return this.queue(async () => {
      const plan = await planUnlink(this.ctx, from, rel, to);
      return this.commit(plan.label, plan.files, opts);
    });
  }

  setRelationshipProperty(from: string, rel: string, to: string, key: string, value: unknown, opts: EditOptions = {}) {
    return this.queue(async () => {
      const plan = await planRelProperty(this.ctx, from, rel, to, key, value);
      return this.commit(plan.label, plan.files, opts);
    });
  }

  unsetRelationshipProperty(from: string, rel: string, to: string, key: string, opts: EditOptions = {}) {
    return this.queue(async () => {
      const plan = await planRelUnset(this.ctx, from, rel, to, key);
      return this.commit(plan.label, plan.files, opts);
    });
  }

  rename(oldName: string, newName: string, opts: EditOptions = {}) {
    return this.queue(async () => {
      const plan = await planRename(this.ctx, oldName, newName);
      const res = await this.commit(plan.label, plan.files, opts);
      return { ...res, path: plan.path };
    });
  }

  delete(name: string, opts: EditOptions = {}) {
    return this.queue(async () => {
      const e = this.find(name);
      const text = await this.current(e.path);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const trashPath = `${TRASH}/${stamp}/${e.path}`;
      const referrers = this.model.referrers(e.id).filter((p) => p !== e.path);
      const res = await this.commit(`delete ${e.name}`, [{ path: trashPath, before: null, after: text }, { path: e.path, before: text, after: null }], opts);
      return { ...res, referrers, trashPath };
    });
  }

  deletePreview(name: string) {
    return this.queue(async () => {
      const e = this.find(name);
      const byPath = new Map([...this.model.entities()].filter((x) => x.path).map((x) => [x.path!, x.name]));
      const referrers = this.model.referrers(e.id).filter((p) => p !== e.path).map((p) => ({ path: p, name: byPath.get(p) ?? p }));
      return { id: e.id, name: e.name, path: e.path, referrers };
    });
  }

  trash() { return listTrash(this.host.vaultDir); }

  restore(trashPath: string, opts: EditOptions = {}) {
    return this.queue(async () => {
      const { path } = trashOrigin(trashPath);
      const file = await readVaultFile(this.host.vaultDir, trashPath);
      if (!file) throw new CoreError('not-found', `${trashPath} is not in the trash`, { path: trashPath });
      if (await readVaultFile(this.host.vaultDir, path)) throw new CoreError('conflict', `${path} exists again: rename or delete it before restoring`, { path });
      const res = await this.commit(`restore ${path}`, [{ path, before: null, after: file.text }, { path: trashPath, before: file.text, after: null }], opts);
      return { ...res, path };
    });
  }

  replaceBody(name: string, body: string, opts: EditOptions = {}) {
    return this.queue(async () => {
      if (typeof body !== 'string') throw invalid('body must be a string', { field: 'body' });
      const e = this.find(name);
      const ch = await this.edit(e.path, (t) => replaceBody(t, body));
      return this.commit(`edit the text of ${e.name}`, [ch], opts);
    });
  }

  // ---- history -----------------------------------------------------------

  undo() { return this.queue(() => this.step('undo')); }
  redo() { return this.queue(() => this.step('redo')); }
  history() { return this.hist.list(); }

  private async step(dir: 'undo' | 'redo'): Promise<EditResult & { label: string }> {
    if (this.tx.getStore()) throw new CoreError('invalid', `cannot ${dir} inside a transaction`);
    const entry: HistoryEntry | undefined = dir === 'undo' ? this.hist.peekUndo() : this.hist.peekRedo();
    this.host.guardWrite?.('app');
    if (!entry) throw new CoreError('invalid', `nothing to ${dir}`);
    const files = entry.files.map((f) => (dir === 'undo' ? { path: f.path, before: f.after, after: f.before } : f));
    await checkFiles(this.host.vaultDir, files.map((f) => ({ path: f.path, expect: hashOf(f.before), mine: f.after })),
      `since "${entry.label}"; ${dir} refused so that change is not lost`);
    const res = await writeFiles(this.host.vaultDir, this.host.engine, files, entry.origin);
    if (dir === 'undo') this.hist.markUndone(); else this.hist.markRedone();
    return { ...res, label: entry.label };
  }
}

function mergeEvents(origin: ChangeEvent['origin'], events: ChangeEvent[]): ChangeEvent {
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    origin,
    paths: uniq(events.flatMap((e) => e.paths)),
    upserted: uniq(events.flatMap((e) => e.upserted)),
    removed: uniq(events.flatMap((e) => e.removed)),
  };
}

function emptyEvent(origin: ChangeEvent['origin']): ChangeEvent {
  return { origin, paths: [], upserted: [], removed: [] };
}
