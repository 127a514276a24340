/**
 * Note prose -> safe HTML, read as Obsidian reads it: the shared markdown-it
 * pipeline (shared/markdown.ts: footnotes, highlights, callouts, `%%comments%%`
 * dropped, the one wikilink grammar), drawn here for the panel:
 *  - `[[Target]]`, `[[Target|label]]`, `[[Target#Heading]]` ->
 *    `<a class="wikilink" data-wikilink="Target">` (the panel resolves clicks);
 *  - `![[image.png|250]]` -> `<img data-asset="image.png" width="250">` and
 *    `![[Note]]` / `![[Note#Heading]]` -> an embed placeholder
 *    `<span class="embed" data-embed="Note" data-embed-heading="Heading">` that
 *    the panel fills with the target's rendered text (embeds.ts);
 *  - inline `#tags` (the model's grammar, shared/tags.ts) shown as tag pills.
 *
 * Raw HTML in notes (infoboxes...) is rendered, then everything is sanitised by
 * DOMPurify: no script, no event handler, no style sheet or form; links only to
 * http(s)/mailto (opened outside the app) or to an anchor in the page; images
 * only from the vault, through `assetUrl` (the shell's confined asset route).
 */
import DOMPurify from 'dompurify';
import { obsidianMarkdown } from '../../../shared/markdown.js';
import { splitLink } from '../../../shared/wikilinks.js';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** File extensions Obsidian embeds as images (and the asset route serves). */
export const IMAGE_EXT = /\.(png|jpe?g|gif|webp|avif|bmp|svg)$/i;

/** `[[...]]` inner text -> its parts (`Target#Heading|label`): the one grammar's split. */
export const wikiTarget = splitLink;

function renderWikilink(inner: string): string {
  const { target, heading, label } = wikiTarget(inner);
  const text = label || (heading ? `${target} › ${heading}` : target) || heading;
  return `<a href="#" class="wikilink" data-wikilink="${escapeHtml(target)}">${escapeHtml(text)}</a>`;
}

function renderEmbed(inner: string): string {
  const { target, heading, label } = wikiTarget(inner);
  if (IMAGE_EXT.test(target)) {
    // `|250` = width, `|250x100` = width x height; any other text is the alt text
    const size = /^(\d+)(?:x(\d+))?$/.exec(label);
    const dims = size ? ` width="${size[1]}"${size[2] ? ` height="${size[2]}"` : ''}` : '';
    const alt = size ? target : label || target;
    return `<img class="embed-image" data-asset="${escapeHtml(target)}" alt="${escapeHtml(alt)}"${dims}>`;
  }
  if (/\.[a-z0-9]{1,5}$/i.test(target) && !/\.md$/i.test(target)) {
    // another file (pdf, audio...): not shown inline, named
    return `<span class="embed-file" title="${escapeHtml(target)}">${escapeHtml(label || target)}</span>`;
  }
  const name = target.replace(/\.md$/i, '');
  return `<span class="embed" data-testid="embed" data-embed="${escapeHtml(name)}" data-embed-heading="${escapeHtml(heading)}">`
    + `<a href="#" class="wikilink embed-title" data-wikilink="${escapeHtml(name)}">${escapeHtml(label || (heading ? `${name} › ${heading}` : name))}</a></span>`;
}

const md = obsidianMarkdown({
  html: true,
  wikilink: renderWikilink,
  embed: renderEmbed,
  tag: (t) => `<span class="tag" data-tag="${escapeHtml(t)}">#${escapeHtml(t)}</span>`,
});

export interface RenderOptions {
  /** a vault file reference (`image.png`, `art/map.jpg`) -> the URL the shell serves it at; none: images show as their alt text */
  assetUrl?: (ref: string) => string;
}

const ALLOWED_LINK = /^(https?:|mailto:)/i;
/** a relative reference into the vault (no scheme, not protocol-relative) */
const VAULT_REF = /^(?![a-z][a-z0-9+.-]*:|\/\/)[^\0]+$/i;

let current: RenderOptions = {};
let hooked = false;

function hook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    if (el.tagName === 'A') {
      const href = el.getAttribute('href') ?? '';
      if (el.hasAttribute('data-wikilink')) { el.setAttribute('href', '#'); return; }
      if (href.startsWith('#')) return; // footnotes, in-page anchors
      if (ALLOWED_LINK.test(href)) {
        el.setAttribute('target', '_blank');
        el.setAttribute('rel', 'noopener noreferrer');
        el.classList.add('external');
        return;
      }
      // any other target (javascript:, file:, app-relative...): the text stays, the link goes
      el.removeAttribute('href');
      el.classList.add('dead-link');
    } else if (el.hasAttribute('href') || el.hasAttribute('xlink:href')) {
      // SVG <image>/<use> and the like: they would load a resource past the image rule below
      el.removeAttribute('href');
      el.removeAttribute('xlink:href');
    } else if (el.tagName === 'IMG') {
      // images only from the vault, through the shell's confined asset route
      const src = el.getAttribute('src');
      const ref = el.getAttribute('data-asset') ?? (src && VAULT_REF.test(src) && !src.startsWith('/') ? decodeRef(src) : null);
      el.removeAttribute('src');
      el.removeAttribute('srcset');
      if (ref && current.assetUrl) {
        el.setAttribute('data-asset', ref);
        el.setAttribute('src', current.assetUrl(ref));
      } else {
        el.setAttribute('data-blocked-src', src ?? ref ?? '');
      }
    }
  });
}

function decodeRef(s: string): string {
  try { return decodeURIComponent(s.split(/[?#]/)[0]!); } catch { return s; }
}

/** Sanitise HTML for the panel (also used for embeds filled in later). */
export function sanitize(html: string, opts: RenderOptions = {}): string {
  hook();
  current = opts;
  try {
    return DOMPurify.sanitize(html, {
      // no style sheets, forms, frames; no media elements (they would load from outside the vault, or local files in Electron)
      FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'link', 'meta', 'base',
        'video', 'audio', 'source', 'track', 'picture'],
      FORBID_ATTR: ['srcset', 'action', 'formaction', 'ping'],
      ADD_ATTR: ['target'],
    });
  } finally {
    current = {};
  }
}

/** Markdown body -> sanitised HTML. */
export function renderProse(body: string, opts: RenderOptions = {}): string {
  return sanitize(md.render(body), opts);
}
