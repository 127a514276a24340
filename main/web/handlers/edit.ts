/**
 * The `edit-*` group (shared/contract-edit.ts) over the session's one Editor.
 * Every command runs with origin 'app', so it enters the undo history. Errors
 * from the Editor (CoreError 'invalid' / 'conflict' / 'not-found') pass through
 * the wire unchanged: code, message, details.
 */
import type { editHandlers } from '../../../shared/contract-edit.js';
import type { EntityRecord } from '../../../shared/types.js';
import { CoreError } from '../../domain/errors.js';
import type { CoreHost } from '../../core/index.js';
import { getBody, readFrontmatter } from '../../edit/frontmatter.js';
import { readVaultFile } from '../../edit/safe-fs.js';
import { layerRefusal } from '../../edit/rules.js';
import type { CoreSession } from '../session.js';
import type { Group } from './vault.js';

const APP = { origin: 'app' as const };

function mustResolve(core: CoreHost, nameOrId: string): EntityRecord {
  const e = core.resolveEntity(nameOrId);
  if (!e) throw new CoreError('not-found', `no entity named '${nameOrId}'`, { name: nameOrId });
  return e;
}

/** Resolve to an id when possible, so the Editor acts on exactly the entity the UI showed. */
function ref(core: CoreHost, nameOrId: string): string {
  return core.resolveEntity(nameOrId)?.id ?? nameOrId;
}

/** Does a frontmatter value (a name or a [[link]]) name this entity, as seen from `layer`? */
function sameEntity(core: CoreHost, value: string, layer: string, id: string): boolean {
  const name = value.trim().replace(/^\[\[([^\]|#]*).*$/, '$1').trim();
  return core.engine.model.resolve(name, layer)?.id === id;
}

export function editGroup(session: CoreSession): Group<typeof editHandlers> {
  const core = () => session.current();
  const ed = () => session.editor();
  return {
    'edit-form': async ({ nameOrId }) => {
      const c = core();
      const e = mustResolve(c, nameOrId);
      if (e.placeholder || !e.path) throw new CoreError('not-found', `${e.name} is only referenced: there is no note for it`, { name: e.name, id: e.id });
      const file = await readVaultFile(c.vaultDir, e.path);
      if (!file) throw new CoreError('not-found', `${e.path} no longer exists on disk`, { path: e.path });
      const ix = c.index;
      return {
        entity: { id: e.id, name: e.name, type: e.type, layer: e.layer, path: e.path, placeholder: e.placeholder, tags: e.tags, aliases: e.aliases },
        titleField: ix.titleField,
        properties: ix.properties(e.type).map((p) => ({
          name: p.name, type: p.type, required: p.required,
          ...(p.values ? { values: p.values } : {}), ...(p.items ? { items: p.items } : {}),
          ...(p.description !== undefined ? { description: p.description } : {}),
        })),
        mappings: ix.mappings(e.type).map((m) => ({ field: m.field, label: m.declaredAs, relationship: m.relationship, targetTypes: m.targetTypes, cardinality: m.cardinality })),
        values: readFrontmatter(file.text),
        body: getBody(file.text),
        hash: file.hash,
        types: ix.typeNames,
      };
    },
    'edit-set': async ({ nameOrId, field, value }) => ed().setProperty(ref(core(), nameOrId), field, value, APP),
    'edit-unset': async ({ nameOrId, field }) => ed().unsetProperty(ref(core(), nameOrId), field, APP),
    'edit-link': async ({ from, rel, to, placeholder }) => ed().addRelationship(ref(core(), from), rel, ref(core(), to), { ...APP, ...(placeholder ? { placeholder } : {}) }),
    'edit-unlink': async ({ from, rel, to }) => ed().removeRelationship(ref(core(), from), rel, ref(core(), to), APP),
    'edit-create': async ({ type, name, layer, properties }) =>
      ed().createEntity(type, name, { ...APP, ...(layer ? { layer } : {}), ...(properties ? { properties } : {}) }),
    'edit-rename': async ({ nameOrId, newName }) => ed().rename(ref(core(), nameOrId), newName, APP),
    'edit-delete': async ({ nameOrId }) => ed().delete(ref(core(), nameOrId), APP),
    'edit-delete-preview': async ({ nameOrId }) => ed().deletePreview(ref(core(), nameOrId)),
    'edit-trash': async () => ed().trash(),
    'edit-restore': async ({ trashPath }) => ed().restore(trashPath, APP),
    'edit-body': async ({ nameOrId, body }) => ed().replaceBody(ref(core(), nameOrId), body, APP),
    'edit-undo': async () => ed().undo(),
    'edit-redo': async () => ed().redo(),
    'edit-history': async () => ed().history(),
    'edit-allowed-relationships': async ({ fromId, toId }) => {
      const c = core();
      const a = mustResolve(c, fromId);
      const b = mustResolve(c, toId);
      const ix = c.index;
      const out: Array<{ label: string; from: string; rel: string; to: string; relationship: string; field: string; on: 'from' | 'to'; refused?: string; replaces?: string }> = [];
      const seen = new Set<string>();
      for (const r of ix.allowedRelationships(a.type, b.type)) {
        let item: (typeof out)[number];
        if (r.on === 'from') {
          item = { label: r.label, from: a.id, rel: r.label, to: b.id, relationship: r.relationship, field: r.field, on: 'from' };
        } else {
          // the field lives on b's note: name it as read from a (the inverse), or, with no inverse declared,
          // link from b's side and say so
          const inv = ix.inverseOf(r.label);
          item = inv
            ? { label: inv, from: a.id, rel: inv, to: b.id, relationship: r.relationship, field: r.field, on: 'to' }
            : { label: `${r.label} (from ${b.name})`, from: b.id, rel: r.label, to: a.id, relationship: r.relationship, field: r.field, on: 'to' };
        }
        const key = `${item.from}|${ix.canonicalName(item.rel.toUpperCase()) ?? item.rel}|${item.to}|${item.field}`;
        const symKey = ix.isSymmetric(item.rel) ? `${item.to}|${ix.canonicalName(item.rel)}|${item.from}|${item.field}` : key;
        if (seen.has(key) || seen.has(symKey)) continue;
        seen.add(key);
        const [holder, other] = item.on === 'from' ? [a, b] : [b, a];
        const refused = layerRefusal(c.engine.model.config(), holder, other);
        const scalar = ix.mappings(holder.type).find((m) => m.field === item.field)?.cardinality === 'scalar';
        const cur = holder.path ? c.engine.model.note(holder.path)?.frontmatter[item.field] : undefined;
        const replaces = scalar && cur !== undefined && cur !== null && cur !== '' && typeof cur !== 'object' && !sameEntity(c, String(cur), holder.layer, other.id)
          ? String(cur) : undefined;
        out.push({ ...item, ...(refused ? { refused } : {}), ...(replaces !== undefined ? { replaces } : {}) });
      }
      return out;
    },
  };
}
