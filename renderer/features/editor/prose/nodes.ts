/**
 * The two Tiptap nodes the lossless body model needs:
 *  - `opaque`: a block the editor does not model (callout, table, code, HTML,
 *    plugin syntax...), an atom holding its exact source, shown as raw text;
 *  - `wikilink`: an inline atom holding the exact `[[...]]` source, shown as
 *    its label, clickable to open the entity.
 * And `[[` completion over entity names and aliases (@tiptap/suggestion).
 */
import { Extension, Node, mergeAttributes, type AnyExtension } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { PluginKey } from '@tiptap/pm/state';
import Suggestion, { type SuggestionOptions } from '@tiptap/suggestion';
import { wikiParts } from '../body/inline.js';
import { formatLink } from '../../../../shared/wikilinks.js';

export const Opaque = Node.create({
  name: 'opaque',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: false,
  addAttributes() {
    return { source: { default: '' } };
  },
  parseHTML() {
    return [{ tag: 'pre[data-opaque]', getAttrs: (el) => ({ source: (el as HTMLElement).textContent ?? '' }) }];
  },
  renderHTML({ node }) {
    return ['pre', { 'data-opaque': '', class: 'opaque-block', 'data-testid': 'prose-opaque', title: 'kept exactly as written (edit it in your markdown editor)' }, String(node.attrs['source'])];
  },
});

export const WikiLink = Node.create({
  name: 'wikilink',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return { raw: { default: '[[]]' } };
  },
  parseHTML() {
    return [{ tag: 'a[data-wikilink-raw]', getAttrs: (el) => ({ raw: (el as HTMLElement).getAttribute('data-wikilink-raw') ?? '' }) }];
  },
  renderHTML({ node, HTMLAttributes }) {
    const raw = String(node.attrs['raw']);
    const { target, label } = wikiParts(raw);
    return ['a', mergeAttributes(HTMLAttributes, { class: 'wikilink', 'data-wikilink-raw': raw, 'data-target': target, href: '#', 'data-testid': 'prose-link' }), label];
  },
  renderText({ node }) {
    return String(node.attrs['raw']);
  },
});

export interface SuggestItem { id: string; name: string; type: string | null; matchedText: string }

/** `[[` completion: `source(query)` gives the items, `render` draws the list (Prose.tsx). */
export function wikiSuggest(opts: Pick<SuggestionOptions<SuggestItem>, 'items' | 'render'>) {
  return Extension.create({
    name: 'wikiSuggest',
    addProseMirrorPlugins() {
      return [Suggestion<SuggestItem>({
        editor: this.editor,
        pluginKey: new PluginKey('wikiSuggest'),
        char: '[[',
        allowSpaces: true,
        allowedPrefixes: null,
        items: opts.items,
        render: opts.render,
        command: ({ editor, range, props }) => {
          editor.chain().focus().insertContentAt(range, [
            { type: 'wikilink', attrs: { raw: formatLink(props.name) } },
            { type: 'text', text: ' ' },
          ]).run();
        },
      })];
    },
  });
}

/**
 * The document schema of the prose editor: paragraphs, headings, plain lists,
 * hard breaks, bold/italic/strike/code, plus `opaque` and `wikilink`. Anything
 * else in a body stays an opaque block, so nodes the serialiser does not write
 * (links with URLs, underline, quotes, code blocks...) are switched off.
 */
export function proseExtensions(opaque: AnyExtension = Opaque): AnyExtension[] {
  return [
    StarterKit.configure({ link: false, underline: false, trailingNode: false, codeBlock: false, blockquote: false, horizontalRule: false }),
    opaque, WikiLink,
  ];
}
