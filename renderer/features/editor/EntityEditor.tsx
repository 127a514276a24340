/**
 * The entity editor drawer: name (rename), a form generated from the schema
 * for the entity's type (properties, relationship fields, tags, aliases) and
 * the prose. Follows the file: a change from disk, MCP or undo reloads the form.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { EditForm } from '../../../shared/contract-edit.js';
import { api } from '../../api/client.js';
import { useApp } from '../../store/index.js';
import { asList, undeclaredDef } from './fields.js';
import { frontmatterTags } from '../../../shared/tags.js';
import { inTextControl } from './keys.js';
import { Chips } from './form/Chips.js';
import { FieldError, PropertyField, useCommit } from './form/PropertyField.js';
import { RefField } from './form/RefField.js';
import type { ProseHandle } from './prose/Prose.js';
import './editor.css';

/**
 * The prose editor (Tiptap and ProseMirror, ~a fifth of the renderer's script) is a chunk of its own: the app's
 * start-up neither parses nor runs it (a big graph's first picture waits for the bundle; issue 19 point 2). It is
 * fetched when an editor first opens, or ahead of that by loadProse() (EditorRoot, once the first lists are in).
 */
export const loadProse = () => import('./prose/Prose.js').then((m) => ({ default: m.Prose }));
const Prose = lazy(loadProse);

function NameField({ form }: { form: EditForm }) {
  const [name, setName] = useState(form.entity.name);
  const { error, run } = useCommit(form.entity.id, 'name');
  const openEditor = useApp((s) => s.openEditor);
  const select = useApp((s) => s.select);
  useEffect(() => setName(form.entity.name), [form.entity.name]);
  const commit = async () => {
    const n = name.trim();
    if (!n || n === form.entity.name) { setName(form.entity.name); return; }
    if (await run(() => api.call('edit-rename', { nameOrId: form.entity.id, newName: n }))) {
      await openEditor(n);
      await select(n);
    }
  };
  return (
    <div className="field name">
      <input className="name-input" data-testid="editor-name" aria-label="name" value={name}
        onChange={(e) => setName(e.target.value)} onBlur={() => void commit()}
        onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); void commit(); } }} />
      <FieldError field="name" error={error} />
    </div>
  );
}

function ListField({ form, field }: { form: EditForm; field: 'tags' | 'aliases' }) {
  const value = form.values[field] ?? (field === 'aliases' ? form.values['alias'] : undefined);
  const key = field === 'aliases' && form.values['aliases'] === undefined && form.values['alias'] !== undefined ? 'alias' : field;
  // tags: one grammar with the model (shared/tags.ts), so `tags: CotF, RD` is two chips
  const items = field === 'tags' ? frontmatterTags(value) : asList(value);
  const { error, run } = useCommit(form.entity.id, key);
  const write = (next: string[]) => run(() => next.length
    ? api.call('edit-set', { nameOrId: form.entity.id, field: key, value: next })
    : api.call('edit-unset', { nameOrId: form.entity.id, field: key }));
  return (
    <div className="field" data-testid="editor-field" data-field={field}>
      <label>{field}</label>
      <Chips testId={`field-${field}`} items={items}
        onRemove={(i) => void write(items.filter((_x, k) => k !== i))}
        onAdd={(t) => write([...items, ...(field === 'tags' ? frontmatterTags(t) : [t])])} />
      <FieldError field={field} error={error} />
    </div>
  );
}

const RESERVED = new Set(['tags', 'aliases', 'alias', 'type']);

/**
 * Frontmatter keys the schema does not declare for this type: shown and editable
 * (the schema shapes the form, it never blocks editing a value the file holds).
 * Scalars and lists of scalars get a control after the value's own kind (text for
 * strings); nested mappings are shown as written and kept untouched.
 */
function OtherFields({ form }: { form: EditForm }) {
  const known = new Set([...form.properties.map((p) => p.name), ...form.mappings.map((m) => m.field), form.titleField, ...RESERVED]);
  const rest = Object.entries(form.values).filter(([k]) => !known.has(k));
  if (!rest.length) return null;
  return (
    <fieldset className="other-fields" data-testid="editor-other-fields">
      <legend>{rest.length} field{rest.length > 1 ? 's' : ''} not in the schema{form.entity.type ? ` for ${form.entity.type}` : ''}</legend>
      {rest.map(([k, v]) => {
        const def = undeclaredDef(k, v);
        return def
          ? <PropertyField key={`${form.entity.id}:${k}`} entityId={form.entity.id} def={def} value={v} />
          : <div key={k} className="field" data-field={k}><label>{k}</label><code>{JSON.stringify(v)}</code></div>;
      })}
    </fieldset>
  );
}

export function EntityEditor() {
  const form = useApp((s) => s.editorForm);
  const closeEditor = useApp((s) => s.closeEditor);
  const reloadEditor = useApp((s) => s.reloadEditor);
  const editorError = useApp((s) => s.editorError);
  const prose = useRef<ProseHandle>(null);

  useEffect(() => api.on('vault-changed', () => void reloadEditor()), [reloadEditor]);
  useEffect(() => api.on('vault-opened', () => closeEditor()), [closeEditor]);

  // while the drawer is open it follows the selection (sidebar, search, canvas, panel): save the prose, then switch
  const selected = useApp((s) => (s.entity && !s.entity.placeholder ? s.entity.id : null));
  const editorId = form?.entity.id ?? null;
  useEffect(() => {
    if (!editorId || !selected || selected === editorId) return;
    void (prose.current?.save() ?? Promise.resolve(true)).then(() => useApp.getState().openEditor(selected));
  }, [selected]); // follow selection changes only, not editor switches

  if (!form) return null;
  const e = form.entity;
  const close = async () => {
    await prose.current?.save();
    closeEditor();
  };
  const mapped = new Set(form.mappings.map((m) => m.field));
  return (
    <aside className="editor-drawer" data-testid="entity-editor" data-entity-id={e.id}
      onKeyDown={(ev) => { if (ev.key === 'Escape' && !inTextControl(ev.target as Element)) void close(); }}>
      <header>
        <NameField key={e.id} form={form} />
        <div className="meta">
          <span className="type-chip">{e.type ?? 'untyped'}</span>
          <span className="layer">{e.layer}</span>
          <span className="path" title="source file">{e.path}</span>
        </div>
        <button type="button" className="close" data-testid="editor-close" aria-label="close the editor" onClick={() => void close()}>×</button>
      </header>
      {editorError && <div className="field-error" role="alert">{editorError}</div>}
      <div className="form" data-testid="editor-form">
        {form.properties.filter((p) => !mapped.has(p.name)).map((p) => (
          <PropertyField key={`${e.id}:${p.name}`} entityId={e.id} def={p} value={form.values[p.name]} />
        ))}
        {form.mappings.map((m) => (
          <RefField key={`${e.id}:${m.field}`} entityId={e.id} layer={e.layer} mapping={m} value={form.values[m.field]} types={form.types} />
        ))}
        <ListField form={form} field="tags" />
        <ListField form={form} field="aliases" />
        <OtherFields form={form} />
      </div>
      <Suspense fallback={null}><Prose key={e.id} form={form} handle={prose} /></Suspense>
    </aside>
  );
}
