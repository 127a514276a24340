/**
 * Note prose -> HTML for the entity panel. Markdown via marked, with:
 *  - `[[Target]]`, `[[Target|label]]`, `[[Target#Heading]]` rendered as
 *    `<a class="wikilink" data-wikilink="Target">` (the panel resolves clicks);
 *  - raw HTML in notes escaped, never rendered (a vault is data, not code);
 *  - links only to http(s) and mailto, opened outside the app.
 */
import { Marked, type Tokens } from 'marked';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

interface WikiToken { type: 'wikilink'; raw: string; target: string; label: string }

const md = new Marked({ gfm: true });
md.use({
  extensions: [{
    name: 'wikilink',
    level: 'inline',
    start: (src: string) => { const i = src.indexOf('[['); return i < 0 ? undefined : i; },
    tokenizer(src: string): WikiToken | undefined {
      const m = /^\[\[([^\]|#\n]+)(?:#([^\]|\n]*))?(?:\|([^\]\n]+))?\]\]/.exec(src);
      if (!m) return undefined;
      const target = m[1]!.trim();
      return { type: 'wikilink', raw: m[0], target, label: (m[3] ?? target).trim() };
    },
    renderer(token) {
      const t = token as unknown as WikiToken;
      return `<a href="#" class="wikilink" data-wikilink="${escapeHtml(t.target)}">${escapeHtml(t.label)}</a>`;
    },
  }],
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    link(this: { parser: { parseInline(t: Tokens.Link['tokens']): string } }, { href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      if (!/^(https?:|mailto:)/i.test(href)) return inner;
      const t = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${t} class="external" target="_blank" rel="noopener noreferrer">${inner}</a>`;
    },
    image: ({ text }: Tokens.Image) => escapeHtml(text),
  },
});

export function renderProse(body: string): string {
  return md.parse(body, { async: false });
}
