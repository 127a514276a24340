/**
 * An opaque block in the prose editor (a callout, a table, HTML, an embed,
 * plugin syntax...): shown rendered as the panel shows it (Obsidian-style,
 * sanitised), or as its exact source when it renders to nothing (a %%comment%%);
 * a double click edits that source as plain text, written back verbatim — line
 * endings in the note's style.
 */
import { useMemo, useState } from 'react';
import { renderProse } from '../../entity/markdown.js';
import { RenderedProse } from '../../entity/RenderedProse.js';
import { NodeViewWrapper, ReactNodeViewRenderer, type ReactNodeViewProps } from '@tiptap/react';
import { Opaque } from './nodes.js';

function OpaqueView({ node, updateAttributes, editor, extension }: ReactNodeViewProps) {
  const source = String(node.attrs['source'] ?? '');
  const { eol = '\n', name = '' } = extension.options as { eol?: string; name?: string };
  const [draft, setDraft] = useState<string | null>(null);
  // a block that renders to nothing (a comment) is shown as its source, so it can still be seen and edited
  const visible = useMemo(() => renderProse(source).trim() !== '', [source]);
  const edit = () => { if (editor.isEditable) setDraft(source.replace(/\r\n/g, '\n')); };
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
        visible ? (
          <div contentEditable={false} suppressContentEditableWarning>
            <RenderedProse body={source} name={name} testId="prose-opaque" className="opaque-block opaque-rendered prose"
              title="kept exactly as written; double-click to edit the markdown" onDoubleClick={edit} />
          </div>
        ) : (
          <pre className="opaque-block" data-testid="prose-opaque" contentEditable={false}
            title="kept exactly as written; double-click to edit the markdown"
            onDoubleClick={edit}>{source}</pre>
        )
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

/** The opaque node with its editable view; `eol` = the note's line ending, `name` = the note's (an embed of it is a cycle). */
export function editableOpaque(eol: string, name = '') {
  return Opaque.extend({
    addOptions() { return { eol, name }; },
    addNodeView() { return ReactNodeViewRenderer(OpaqueView); },
  });
}
