/**
 * What every edit command needs: entity lookup (by id or name), reference
 * matching and writing style, and reading a note for an edit with the conflict
 * check (the bytes on disk must be the ones the model last read).
 */
import { formatLink, isLinkValue, refName } from '../../shared/wikilinks.js';
import { normaliseName } from '../../shared/names.js';
import type { EntityRecord } from '../../shared/types.js';
import { CoreError } from '../domain/errors.js';
import type { ModelView } from '../sync/types.js';
import { itemRef } from './rel-items.js';
import { readVaultFile } from './safe-fs.js';
import type { FileChange } from './tx.js';

export type NoteEntity = EntityRecord & { path: string };

export class EditContext {
  private styleCache = new Map<string, boolean>();

  constructor(readonly vaultDir: string, private readonly view: () => ModelView) {}

  get model(): ModelView { return this.view(); }

  /** forget cached vault habits (called on every graph change) */
  invalidate(): void { this.styleCache = new Map(); }

  /** An entity backed by a note, by id or name (layers in config order). */
  find(ref: string, layer?: string): NoteEntity {
    const m = this.model;
    const direct = m.entity(ref);
    const layers = layer ? [layer] : m.config().layers.map((l) => l.name);
    let found = direct;
    for (const l of layers) {
      if (found) break;
      found = m.resolve(ref, l);
    }
    if (!found || found.placeholder || !found.path) {
      throw new CoreError('not-found', found?.placeholder ? `${ref} is only referenced: there is no note for it` : `no entity named ${ref}`, { name: ref });
    }
    return found as NoteEntity;
  }

  /** Does a frontmatter value (plain name or [[link]], or a relationship map item's `to:`) written in `layer` refer to `target`? */
  refersTo(item: unknown, layer: string, target: EntityRecord): boolean {
    const v = itemRef(item);
    if (v === null || v.trim() === '') return false;
    const r = this.model.resolve(v, layer);
    if (r) return r.id === target.id;
    // an unresolved reference names a placeholder: compare names
    if (!target.placeholder) return false;
    return normaliseName(refName(v)) === normaliseName(target.name);
  }

  /** Does the vault write this field's references as [[wikilinks]]? Majority of existing values; default yes. */
  wikiStyle(field: string): boolean {
    const hit = this.styleCache.get(field);
    if (hit !== undefined) return hit;
    let wiki = 0;
    let plain = 0;
    for (const n of this.model.notes()) {
      const v = n.frontmatter[field];
      for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) {
        if (typeof x !== 'string' || !x.trim()) continue;
        if (isLinkValue(x)) wiki++; else plain++;
      }
    }
    const r = wiki >= plain;
    this.styleCache.set(field, r);
    return r;
  }

  /** How `holder`'s note writes a reference to `target` in `field`. */
  refText(holder: EntityRecord, target: NoteEntity, field: string): string {
    const byName = this.model.resolve(target.name, holder.layer)?.id === target.id;
    const name = byName ? target.name : target.path.replace(/\.md$/i, '');
    return this.wikiStyle(field) ? formatLink(name) : name;
  }

  /** Current text of a note the model knows, refused when it changed on disk since the model read it. */
  async current(path: string, mine?: (t: string) => string): Promise<string> {
    const note = this.model.note(path);
    const cur = await readVaultFile(this.vaultDir, path);
    if (!note || !cur || cur.hash !== note.hash) {
      let m: string | null = null;
      if (cur && mine) { try { m = mine(cur.text); } catch { m = null; } }
      throw new CoreError('conflict', `${path} ${cur ? 'changed' : 'was deleted'} on disk since Lorecraft last read it; reload and try again`, {
        path, expected: note?.hash ?? null, actual: cur?.hash ?? null, mine: m, theirs: cur?.text ?? null,
      });
    }
    if (!cur.utf8) throw new CoreError('invalid', `${path} is not valid UTF-8 text; Lorecraft will not rewrite it (re-save it as UTF-8)`, { path });
    return cur.text;
  }

  async edit(path: string, fn: (t: string) => string): Promise<FileChange> {
    const before = await this.current(path, fn);
    try {
      return { path, before, after: fn(before) };
    } catch (e) {
      // the editor refuses broken frontmatter: say which file
      if (e instanceof CoreError) throw new CoreError(e.code, `${path}: ${e.message}`, { ...e.details, path });
      throw e;
    }
  }
}
