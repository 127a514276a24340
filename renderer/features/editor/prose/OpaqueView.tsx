/**
 * An opaque block in the prose editor: shown as its exact source; a double
 * click edits that source as plain text (for a callout, a table, plugin
 * syntax...), written back verbatim — line endings in the note's style.
 */
import { useState } from 'react';
import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { Opaque } from './nodes.js';

function OpaqueView({ node, updateAttributes, editor, extension }: ReactNodeViewProps) {
  const source = String(node.attrs['source'] ?? '');
  const eol = (extension.options as { eol?: string }).eol ?? '\n';
  const [draft, setDraft] = useState<string | null>(null);
  const done = () => {
    if (draft !== null) {
      const next = draft.replace(/\r?\n/g, eol);
      if (next !== source && next.trim()) updateAttributes({ source: next });
    }
    setDraft(null);
  };
  return (
    <NodeViewWrapper as="div" className="opaque-wrap" data-testid="prose-opaque-wrap">
      {draft === null ? (
        <pre className="opaque-block" data-testid="prose-opaque" contentEditable={false}
          title="kept exactly as written; double-click to edit the markdown"
          onDoubleClick={() => { if (editor.isEditable) setDraft(source.replace(/\r\n/g, '\n')); }}>{source}</pre>
      ) : (
        <textarea className="opaque-edit" data-testid="prose-opaque-edit" autoFocus value={draft}
          rows={Math.min(20, draft.split('\n').length + 1)}
          onChange={(e) => setDraft(e.target.value)} onBlur={done}
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === 'Escape') setDraft(null);
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) done();
          }} />
      )}
    </NodeViewWrapper>
  );
}

/** The opaque node with its editable view; `eol` = the note's line ending. */
export function editableOpaque(eol: string) {
  return Opaque.extend({
    addOptions() { return { eol }; },
    addNodeView() { return ReactNodeViewRenderer(OpaqueView); },
  });
}
