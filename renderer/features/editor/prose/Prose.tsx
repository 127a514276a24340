/**
 * The note body in Tiptap, written back losslessly: the document is built from
 * the body's blocks (body/blocks.ts), and a save serialises only the blocks
 * that changed against the body the editor started from. No change, no write.
 * Saves on blur, after a pause in typing, and when the drawer closes.
 */
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { EditorContent, useEditor } from '@tiptap/react';
import type { SuggestionProps } from '@tiptap/suggestion';
import type { EditForm } from '../../../../shared/contract-edit.js';
import { api } from '../../../api/client.js';
import { useApp } from '../../../store/index.js';
import { parseBody, serialiseBody, type JNode } from '../body/blocks.js';
import { errorText } from '../slice.js';
import { proseExtensions, wikiSuggest, type SuggestItem } from './nodes.js';
import { editableOpaque } from './OpaqueView.js';
import { undoKey } from '../keys.js';

export interface ProseHandle { save(): Promise<boolean> }

interface Popup { items: SuggestItem[]; index: number; rect: DOMRect | null; pick: (i: SuggestItem) => void }

const IDLE_SAVE_MS = 1500;

/** empty paragraphs are nothing in markdown (Tiptap adds one to an empty or trailing document) */
const content = (nodes: JNode[] | undefined) => (nodes ?? []).filter((n) => !(n.type === 'paragraph' && !n.content?.length));

export function Prose({ form, handle }: { form: EditForm; handle?: Ref<ProseHandle> }) {
  const toast = useApp((s) => s.toast);
  const select = useApp((s) => s.select);
  const openEditor = useApp((s) => s.openEditor);
  const [popup, setPopup] = useState<Popup | null>(null);
  const popupRef = useRef<Popup | null>(null);
  popupRef.current = popup;
  const [status, setStatus] = useState<'saved' | 'editing' | 'saving' | 'error'>('saved');

  // the body this editor session started from, and what we last wrote (our own echo is not a change from outside)
  // one Prose per entity (the drawer keys it by id): the model is fixed for its life, rebased on outside changes
  const model = useMemo(() => parseBody(form.body), []);
  const state = useRef({ model, baseline: [] as JNode[], written: form.body, saving: Promise.resolve(true), timer: 0 });

  const editor = useEditor({
    extensions: [
      ...proseExtensions(editableOpaque(model.eol, form.entity.name)),
      wikiSuggest({
        items: async ({ query }) => {
          if (!query.trim()) return [];
          const hits = await api.call('entity-suggest', { prefix: query, limit: 8 }).catch(() => []);
          return hits.filter((h) => !h.entity.placeholder).map((h) => ({ id: h.entity.id, name: h.entity.name, type: h.entity.type, matchedText: h.matchedText }));
        },
        render: () => {
          const show = (p: SuggestionProps<SuggestItem>) =>
            setPopup({ items: p.items, index: 0, rect: p.clientRect?.() ?? null, pick: (item) => p.command(item) });
          return {
            onStart: show,
            onUpdate: show,
            onExit: () => setPopup(null),
            onKeyDown: ({ event }) => {
              const cur = popupRef.current;
              if (!cur || !cur.items.length) return false;
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                const d = event.key === 'ArrowDown' ? 1 : -1;
                setPopup({ ...cur, index: (cur.index + d + cur.items.length) % cur.items.length });
                return true;
              }
              if (event.key === 'Enter' || event.key === 'Tab') { cur.pick(cur.items[cur.index]!); return true; }
              if (event.key === 'Escape') { setPopup(null); return true; }
              return false;
            },
          };
        },
      }),
    ],
    content: { type: 'doc', content: model.blocks.map((b) => b.node) },
    immediatelyRender: true,
    onCreate: ({ editor: ed }) => { state.current.baseline = content(ed.getJSON().content as JNode[]); },
    onUpdate: () => {
      setStatus('editing');
      window.clearTimeout(state.current.timer);
      state.current.timer = window.setTimeout(() => void save(), IDLE_SAVE_MS);
    },
    onBlur: () => { void save(); },
    editorProps: {
      // the prose's own undo first; with nothing left to undo here, Ctrl+Z reaches the app's history
      handleKeyDown: (_view, event) => {
        const what = undoKey(event, null);
        const ed = edRef.current;
        if (!what || !ed || (what === 'undo' ? ed.can().undo() : ed.can().redo())) return false;
        event.preventDefault();
        void save().then(() => (what === 'undo' ? useApp.getState().undo() : useApp.getState().redo()));
        return true;
      },
    },
  });
  const edRef = useRef(editor);
  edRef.current = editor;

  /** The body for the current document ('' unchanged = the original bytes). */
  const current = (): string | null => {
    const editor = edRef.current;
    if (!editor) return null;
    const s = state.current;
    if (s.baseline.length !== s.model.blocks.length) return null; // never write from a document we cannot map back
    return serialiseBody(s.model, content(editor.getJSON().content as JNode[]), s.baseline);
  };

  const save = (): Promise<boolean> => {
    const s = state.current;
    window.clearTimeout(s.timer);
    s.saving = s.saving.then(async () => {
      const body = current();
      if (body === null || body === s.written) { setStatus('saved'); return true; }
      setStatus('saving');
      try {
        await api.call('edit-body', { nameOrId: form.entity.id, body });
        s.written = body;
        setStatus('saved');
        return true;
      } catch (e) {
        setStatus('error');
        toast(`The text was not saved: ${errorText(e)}`, 'error');
        return false;
      }
    });
    return s.saving;
  };
  useImperativeHandle(handle, () => ({ save }));

  // a change from outside (disk, MCP, undo): take the new body when we hold no unsaved edit
  useEffect(() => {
    const s = state.current;
    if (!editor || form.body === s.written) return;
    if (current() !== s.written) return; // unsaved typing wins; its save will meet the conflict check
    s.model = parseBody(form.body);
    s.written = form.body;
    editor.commands.setContent({ type: 'doc', content: s.model.blocks.map((b) => b.node) }, { emitUpdate: false });
    s.baseline = content(editor.getJSON().content as JNode[]);
  }, [form.body, editor]);

  useEffect(() => () => window.clearTimeout(state.current.timer), []);

  return (
    <div className="prose-editor" data-testid="prose-editor" data-status={status}
      onClick={(e) => {
        const a = (e.target as HTMLElement).closest('a.wikilink');
        if (!a) return;
        e.preventDefault();
        // an inline wikilink node (data-target) or a link in a rendered read-only block (data-wikilink)
        const target = a.getAttribute('data-target') ?? a.getAttribute('data-wikilink') ?? '';
        void save().then(() => { void select(target); void openEditor(target); });
      }}>
      <div className="prose-status" data-testid="prose-status">{status === 'saved' ? '' : status}</div>
      <EditorContent editor={editor} />
      {popup && popup.items.length > 0 && (
        <ul className="suggest" data-testid="wikilink-suggest"
          style={popup.rect ? { position: 'fixed', left: popup.rect.left, top: popup.rect.bottom + 4 } : undefined}>
          {popup.items.map((it, i) => (
            <li key={it.id}>
              <button type="button" className={i === popup.index ? 'active' : ''} data-testid="wikilink-option"
                onMouseDown={(e) => { e.preventDefault(); popup.pick(it); }}>
                {it.name}{it.matchedText !== it.name && <span className="alias"> ({it.matchedText})</span>}
                {it.type && <span className="type"> {it.type}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
