/**
 * The `edit-*` group (shared/contract-edit.ts): a thin adapter over the open core's editor.
 * Every command runs with origin 'app', so it enters the undo history. Errors
 * from the Editor (CoreError 'invalid' / 'conflict' / 'not-found') pass through
 * the wire unchanged: code, message, details.
 */
import type { editHandlers } from '../../../shared/contract-edit.js';
import type { CoreHost, CoreSession } from '../../core/index.js';
import type { Group } from './vault.js';

const APP = { origin: 'app' as const };

/** Resolve to an id when possible, so the Editor acts on exactly the entity the UI showed. */
function ref(core: CoreHost, nameOrId: string): string {
  return core.resolveEntity(nameOrId)?.id ?? nameOrId;
}

export function editGroup(session: CoreSession): Group<typeof editHandlers> {
  const core = () => session.current();
  const ed = () => session.current().editor;
  return {
    'edit-form': async ({ nameOrId }) => core().editForm(nameOrId),
    'edit-set': async ({ nameOrId, field, value }) => ed().setProperty(ref(core(), nameOrId), field, value, APP),
    'edit-unset': async ({ nameOrId, field }) => ed().unsetProperty(ref(core(), nameOrId), field, APP),
    'edit-link': async ({ from, rel, to, placeholder }) => ed().addRelationship(ref(core(), from), rel, ref(core(), to), { ...APP, ...(placeholder ? { placeholder } : {}) }),
    'edit-unlink': async ({ from, rel, to }) => ed().removeRelationship(ref(core(), from), rel, ref(core(), to), APP),
    'edit-rel-set': async ({ from, rel, to, key, value }) => ed().setRelationshipProperty(ref(core(), from), rel, ref(core(), to), key, value, APP),
    'edit-rel-items': async ({ from, type, to }) => core().relationshipItems(from, type, to),
    'edit-rel-unset': async ({ from, rel, to, key }) => ed().unsetRelationshipProperty(ref(core(), from), rel, ref(core(), to), key, APP),
    'edit-create': async ({ type, name, layer, properties }) =>
      ed().createEntity(type, name, { ...APP, ...(layer ? { layer } : {}), ...(properties ? { properties } : {}) }),
    'edit-rename': async ({ nameOrId, newName }) => ed().rename(ref(core(), nameOrId), newName, APP),
    'edit-delete': async ({ nameOrId }) => ed().delete(ref(core(), nameOrId), APP),
    // these read the files as written (trashed notes' paths, the notes that link to one): GM-only, like the form
    'edit-delete-preview': async ({ nameOrId }) => { core().guardWrite('app'); return ed().deletePreview(ref(core(), nameOrId)); },
    'edit-trash': async () => { core().guardWrite('app'); return ed().trash(); },
    'edit-restore': async ({ trashPath }) => ed().restore(trashPath, APP),
    'edit-body': async ({ nameOrId, body }) => ed().replaceBody(ref(core(), nameOrId), body, APP),
    'edit-undo': async () => ed().undo(),
    'edit-redo': async () => ed().redo(),
    'edit-history': async () => { core().guardWrite('app'); return ed().history(); },
    'edit-allowed-relationships': async ({ fromId, toId }) => core().allowedRelationships(fromId, toId),
  };
}
