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
import { posix } from 'node:path';
import { normaliseName } from '../../shared/names.js';
import type { ChangeEvent, EntityRecord, RelationshipRecord } from '../../shared/types.js';
import { CoreError } from '../core/api.js';
import type { SyncEngine } from '../sync/types.js';
import { folderFor, newNote, typeMarker } from './create.js';
import { addListItem, fieldNames, getBody, mapStrings, readFrontmatter, removeListItem, replaceBody, setField, unsetField } from './frontmatter.js';
import { rewriteBodyLinks, rewriteLinksInString } from './links.js';
import { checkEntityName, checkProperty, checkTargetType, invalid, isReserved, propDef, relInfo, requireType, typeDef, writeTarget } from './rules.js';
import { readVaultFile } from './safe-fs.js';
import { History, checkFiles, hashOf, writeFiles, type EditResult, type FileChange, type HistoryEntry } from './tx.js';

export type { EditResult, Changed, HistoryEntry, FileChange } from './tx.js';

/** What the editor needs from the core: CoreHost satisfies it. */
export interface EditHost {
  readonly vaultDir: string;
  readonly engine: SyncEngine;
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
  /** `placeholder: true`: a `to` with no note is written by name (a link to a note not written yet); the field must be on `from`'s type */
  addRelationship(from: string, rel: string, to: string, opts?: EditOptions & { placeholder?: boolean }): Promise<EditResult>;
  removeRelationship(from: string, rel: string, to: string, opts?: EditOptions): Promise<EditResult>;
  rename(oldName: string, newName: string, opts?: EditOptions): Promise<EditResult & { path: string }>;
  /** moves the note to <vault>/.lorecraft/trash/; `referrers` still point at it */
  delete(name: string, opts?: EditOptions): Promise<EditResult & { referrers: string[]; trashPath: string }>;
  replaceBody(name: string, body: string, opts?: EditOptions): Promise<EditResult>;
  undo(): Promise<EditResult & { label: string }>;
  redo(): Promise<EditResult & { label: string }>;
  history(): ReturnType<History['list']>;
  dispose(): void;
}

const TRASH = '.lorecraft/trash';

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

class EditorImpl implements Editor {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly hist = new History();
  private styleCache = new Map<string, boolean>();
  private readonly off: () => void;

  constructor(private readonly host: EditHost) {
    this.off = host.engine.onChange(() => { this.styleCache = new Map(); });
  }

  private get model() { return this.host.engine.model; }
  dispose(): void { this.off(); }

  /** Serialise commands: each sees the graph as the previous one left it. */
  private queue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  // ---- lookup ------------------------------------------------------------

  /** An entity backed by a note, by id or name (layers in config order). */
  private find(ref: string, layer?: string): EntityRecord & { path: string } {
    const m = this.model;
    const direct = m.entity(ref);
    const layers = layer ? [layer] : m.config().layers.map((l) => l.name);
    let found = direct;
    for (const l of layers) {
      if (found) break;
      found = m.resolve(ref, l);
    }
    if (!found || found.placeholder || !found.path) {
      throw new CoreError('not_found', found?.placeholder ? `${ref} is only referenced: there is no note for it` : `no entity named ${ref}`, { name: ref });
    }
    return found as EntityRecord & { path: string };
  }

  /** Does a frontmatter value (plain name or [[link]]) written in `layer` refer to `target`? */
  private refersTo(v: unknown, layer: string, target: EntityRecord): boolean {
    return typeof v === 'string' && v.trim() !== '' && this.model.resolve(v, layer)?.id === target.id;
  }

  /** Does the vault write this field's references as [[wikilinks]]? Majority of existing values; default yes. */
  private wikiStyle(field: string): boolean {
    const hit = this.styleCache.get(field);
    if (hit !== undefined) return hit;
    let wiki = 0;
    let plain = 0;
    for (const n of this.model.notes()) {
      const v = n.frontmatter[field];
      for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) {
        if (typeof x !== 'string' || !x.trim()) continue;
        if (/^\s*\[\[.*\]\]\s*$/.test(x)) wiki++; else plain++;
      }
    }
    const r = wiki >= plain;
    this.styleCache.set(field, r);
    return r;
  }

  /** How `holder`'s note writes a reference to `target` in `field`. */
  private refText(holder: EntityRecord, target: EntityRecord & { path: string }, field: string): string {
    const byName = this.model.resolve(target.name, holder.layer)?.id === target.id;
    const name = byName ? target.name : target.path.replace(/\.md$/i, '');
    return this.wikiStyle(field) ? `[[${name}]]` : name;
  }

  // ---- file plumbing -----------------------------------------------------

  /** Current text of a note the model knows, refused when it changed on disk since the model read it. */
  private async current(path: string, mine?: (t: string) => string): Promise<string> {
    const note = this.model.note(path);
    const cur = await readVaultFile(this.host.vaultDir, path);
    if (!note || !cur || cur.hash !== note.hash) {
      let m: string | null = null;
      if (cur && mine) { try { m = mine(cur.text); } catch { m = null; } }
      throw new CoreError('conflict', `${path} ${cur ? 'changed' : 'was deleted'} on disk since Lorecraft last read it; reload and try again`, {
        path, expected: note?.hash ?? null, actual: cur?.hash ?? null, mine: m, theirs: cur?.text ?? null,
      });
    }
    return cur.text;
  }

  private async edit(path: string, fn: (t: string) => string): Promise<FileChange> {
    const before = await this.current(path, fn);
    return { path, before, after: fn(before) };
  }

  private async commit(label: string, files: FileChange[], opts: EditOptions = {}): Promise<EditResult> {
    const origin = opts.origin ?? 'app';
    const real = files.filter((f) => f.before !== f.after);
    if (!real.length) return { changed: [], event: emptyEvent(origin) };
    const res = await writeFiles(this.host.vaultDir, this.host.engine, real, origin);
    if (opts.history ?? origin === 'app') this.hist.push(label, origin, real);
    return res;
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
      checkProperty(schema, typeDef(schema, e.type), field, value);
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

  addRelationship(from: string, rel: string, to: string, opts: EditOptions & { placeholder?: boolean } = {}) {
    return this.queue(async () => {
      const a = this.find(from);
      if (opts.placeholder) {
        const known = this.model.entity(to) ?? this.model.resolve(to, a.layer);
        if (!known || known.placeholder) return this.linkPlaceholder(a, rel, checkEntityName(known?.name ?? to), opts);
      }
      const b = this.find(to);
      const wt = writeTarget(this.model.schema(), a.type, b.type, rel);
      const [holder, other] = wt.end === 'from' ? [a, b] : [b, a];
      checkTargetType(wt.mapping, other.type, other.name);
      const ref = this.refText(holder, other, wt.field);
      const cur = this.model.note(holder.path)?.frontmatter[wt.field];
      const items = Array.isArray(cur) ? cur : cur === undefined || cur === null ? [] : [cur];
      if (items.some((x) => this.refersTo(x, holder.layer, other))) return { changed: [], event: emptyEvent(opts.origin ?? 'app') };
      const ch = await this.edit(holder.path, (t) => wt.cardinality === 'scalar' ? setField(t, wt.field, ref) : addListItem(t, wt.field, ref));
      return this.commit(`link ${a.name} ${rel.toUpperCase()} ${b.name}`, [ch], opts);
    });
  }

  /** `a -[rel]-> name` where name has no note: written on a's note only, by name (no target type to check yet). */
  private async linkPlaceholder(a: EntityRecord & { path: string }, rel: string, name: string, opts: EditOptions): Promise<EditResult> {
    const wt = writeTarget(this.model.schema(), a.type, null, rel);
    if (wt.end !== 'from') throw invalid(`${rel.toUpperCase()} is written in the other entity's note, and ${name} has no note yet: create it first`, { field: 'relationship' });
    const cur = this.model.note(a.path)?.frontmatter[wt.field];
    const items = Array.isArray(cur) ? cur : cur === undefined || cur === null ? [] : [cur];
    const key = normaliseName(name);
    if (items.some((x) => typeof x === 'string' && normaliseName(x.trim().replace(/^\[\[([^\]|#]*).*$/, '$1').trim()) === key)) return { changed: [], event: emptyEvent(opts.origin ?? 'app') };
    const ref = this.wikiStyle(wt.field) ? `[[${name}]]` : name;
    const ch = await this.edit(a.path, (t) => wt.cardinality === 'scalar' ? setField(t, wt.field, ref) : addListItem(t, wt.field, ref));
    return this.commit(`link ${a.name} ${rel.toUpperCase()} ${name}`, [ch], opts);
  }

  removeRelationship(from: string, rel: string, to: string, opts: EditOptions = {}) {
    return this.queue(async () => {
      const a = this.find(from);
      // the other end may be a placeholder (a name with no note): its links can be removed all the same
      const ph = this.model.entity(to) ?? this.model.resolve(to, a.layer);
      const b = ph?.placeholder ? ph : this.find(to);
      const info = relInfo(this.model.schema(), rel);
      if (!info) writeTarget(this.model.schema(), a.type, b.type, rel); // throws the 'unknown relationship' refusal
      const R = rel.toUpperCase();
      const forward = R === info!.canonical;
      const symmetric = info!.mirror === info!.canonical;
      // the edges as declared in files, whichever end holds the field
      const edges: RelationshipRecord[] = [...this.model.edgesFrom(a.id), ...this.model.edgesTo(a.id)].filter((e) =>
        e.type === info!.canonical && e.field !== null &&
        ((forward || symmetric) && e.from === a.id && e.to === b.id || (!forward || symmetric) && e.from === b.id && e.to === a.id));
      const bySource = new Map<string, Set<string>>();
      for (const e of edges) {
        if (!bySource.has(e.source)) bySource.set(e.source, new Set());
        bySource.get(e.source)!.add(e.field!);
      }
      if (!bySource.size) throw new CoreError('not_found', `no ${R} between ${a.name} and ${b.name} is written in any note`, { from: a.id, rel: R, to: b.id });
      const files: FileChange[] = [];
      for (const [path, fields] of bySource) {
        const holderId = this.model.entityIdOfPath(path);
        const holderLayer = this.model.layerOf(path) ?? a.layer;
        const other = holderId === a.id ? b : a;
        files.push(await this.edit(path, (t) => {
          let out = t;
          for (const f of fields) out = removeListItem(out, f, (v: unknown) => this.refersTo(v, holderLayer, other));
          return out;
        }));
      }
      return this.commit(`unlink ${a.name} ${R} ${b.name}`, files, opts);
    });
  }

  rename(oldName: string, newName: string, opts: EditOptions = {}) {
    return this.queue(async () => {
      const e = this.find(oldName);
      const n = checkEntityName(newName);
      const clash = this.model.resolve(n, e.layer);
      if (clash && clash.id !== e.id && !clash.placeholder && clash.layer === e.layer) {
        throw new CoreError('conflict', `${n} already exists in layer ${e.layer} (${clash.path})`, { name: n, path: clash.path });
      }
      const dir = posix.dirname(e.path);
      const newPath = (dir === '.' ? '' : dir + '/') + n + '.md';
      const oldKeys = new Set([normaliseName(e.name), normaliseName(posix.basename(e.path, '.md'))]);
      const schema = this.model.schema();
      const skip = new Set(['tags', 'aliases', 'alias', 'type', schema.title_field]);
      const mentions = (v: unknown): boolean => {
        const s = JSON.stringify(v ?? '').normalize('NFC').toLowerCase().replace(/\s+/g, ' ');
        return [...oldKeys].some((k) => s.includes(k));
      };
      const rewrite = (text: string, layer: string): string => {
        const match = (l: { name: string; target: string }) => oldKeys.has(normaliseName(l.name)) && this.model.resolve(l.target, layer)?.id === e.id;
        let out = text;
        const fm = readFrontmatter(out);
        for (const key of fieldNames(out)) {
          // only keys whose value mentions the old name are re-parsed and rewritten
          if (skip.has(key) || !mentions(fm[key])) continue;
          out = mapStrings(out, key, (s) => {
            if (s.includes('[[')) return rewriteLinksInString(s, match, n);
            const t = s.trim();
            const seg = t.slice(t.lastIndexOf('/') + 1).replace(/\.md$/i, '');
            if (!match({ name: seg, target: t })) return undefined;
            return s.slice(0, s.indexOf(t)) + t.slice(0, t.length - seg.length - (/\.md$/i.test(t) ? 3 : 0)) + n + (/\.md$/i.test(t) ? t.slice(-3) : '') ;
          });
        }
        const body = getBody(out);
        const nb = rewriteBodyLinks(body, match, n);
        return nb === body ? out : replaceBody(out, nb);
      };
      const files: FileChange[] = [];
      const selfBefore = await this.current(e.path);
      let selfAfter = rewrite(selfBefore, e.layer);
      if (typeof readFrontmatter(selfAfter)[schema.title_field] === 'string') selfAfter = setField(selfAfter, schema.title_field, n);
      if (newPath === e.path) {
        files.push({ path: e.path, before: selfBefore, after: selfAfter });
      } else {
        await checkFiles(this.host.vaultDir, [{ path: newPath, expect: null, mine: selfAfter }], 'already (refusing to overwrite)');
        files.push({ path: newPath, before: null, after: selfAfter }, { path: e.path, before: selfBefore, after: null });
      }
      for (const p of this.model.referrers(e.id)) {
        if (p === e.path) continue;
        const layer = this.model.layerOf(p) ?? e.layer;
        files.push(await this.edit(p, (t) => rewrite(t, layer)));
      }
      const res = await this.commit(`rename ${e.name} to ${n}`, files, opts);
      return { ...res, path: newPath };
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
    const entry: HistoryEntry | undefined = dir === 'undo' ? this.hist.peekUndo() : this.hist.peekRedo();
    if (!entry) throw new CoreError('invalid', `nothing to ${dir}`);
    const files = entry.files.map((f) => (dir === 'undo' ? { path: f.path, before: f.after, after: f.before } : f));
    await checkFiles(this.host.vaultDir, files.map((f) => ({ path: f.path, expect: hashOf(f.before), mine: f.after })),
      `since "${entry.label}"; ${dir} refused so that change is not lost`);
    const res = await writeFiles(this.host.vaultDir, this.host.engine, files, entry.origin);
    if (dir === 'undo') this.hist.markUndone(); else this.hist.markRedone();
    return { ...res, label: entry.label };
  }
}

function emptyEvent(origin: ChangeEvent['origin']): ChangeEvent {
  return { origin, paths: [], upserted: [], removed: [] };
}
