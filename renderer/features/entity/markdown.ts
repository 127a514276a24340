/**
 * Note prose -> safe HTML, read as Obsidian reads it. markdown-it (CommonMark +
 * GFM tables/strikethrough) with the ecosystem's plugins: footnotes
 * (markdown-it-footnote), `==highlight==` (markdown-it-mark), callouts with
 * Obsidian's types, icons and `+`/`-` folding (markdown-it-obsidian-callouts);
 * plus four small rules of our own for what no maintained plugin covers:
 *  - `[[Target]]`, `[[Target|label]]`, `[[Target#Heading]]` ->
 *    `<a class="wikilink" data-wikilink="Target">` (the panel resolves clicks);
 *  - `![[image.png|250]]` -> `<img data-asset="image.png" width="250">` and
 *    `![[Note]]` / `![[Note#Heading]]` -> an embed placeholder
 *    `<span class="embed" data-embed="Note" data-embed-heading="Heading">` that
 *    the panel fills with the target's rendered text (embeds.ts);
 *  - `%%comments%%` (inline or as a block of lines) dropped from the output;
 *  - inline `#tags` (the model's grammar, shared/tags.ts) shown as tag pills.
 * Dataview blocks stay fenced code (shown, never run).
 *
 * Raw HTML in notes (infoboxes...) is rendered, then everything is sanitised by
 * DOMPurify: no script, no event handler, no style sheet or form; links only to
 * http(s)/mailto (opened outside the app) or to an anchor in the page; images
 * only from the vault, through `assetUrl` (the shell's confined asset route).
 */
import MarkdownIt, { type StateBlock, type StateInline } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import mark from 'markdown-it-mark';
import callouts from 'markdown-it-obsidian-callouts';
import DOMPurify from 'dompurify';
import { cleanTag, isValidTag, TAG_CHARS } from '../../../shared/tags.js';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** File extensions Obsidian embeds as images (and the asset route serves). */
export const IMAGE_EXT = /\.(png|jpe?g|gif|webp|avif|bmp|svg)$/i;

/** `[[...]]` inner text -> its parts (`Target#Heading|label`). */
export function wikiTarget(inner: string): { target: string; heading: string; label: string } {
  const bar = inner.indexOf('|');
  const ref = bar < 0 ? inner : inner.slice(0, bar);
  const hash = ref.indexOf('#');
  const target = (hash < 0 ? ref : ref.slice(0, hash)).trim();
  const heading = hash < 0 ? '' : ref.slice(hash + 1).trim();
  const label = bar < 0 ? '' : inner.slice(bar + 1).trim();
  return { target, heading, label };
}

function wikiRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  let pos = state.pos;
  const embed = src.charCodeAt(pos) === 0x21 /* ! */;
  if (embed) pos++;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
  const end = src.indexOf(']]', pos + 2);
  if (end < 0) return false;
  const inner = src.slice(pos + 2, end);
  if (!inner.trim() || inner.includes('\n') || inner.includes('[')) return false;
  if (!silent) {
    const t = state.push(embed ? 'wiki_embed' : 'wikilink', '', 0);
    t.content = inner;
  }
  state.pos = end + 2;
  return true;
}

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

/** `%%...%%` inside a paragraph; an unclosed one hides the rest of it (as Obsidian does). */
function commentInline(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x25 || src.charCodeAt(pos + 1) !== 0x25) return false;
  const end = src.indexOf('%%', pos + 2);
  if (!silent) state.push('comment', '', 0);
  state.pos = end < 0 ? state.posMax : end + 2;
  return true;
}

/** A block starting with `%%` at a line start, up to the line holding the closing `%%` (or the end). */
function commentBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  if (state.src.slice(start, start + 2) !== '%%') return false;
  let line = startLine;
  let from = start + 2;
  for (;;) {
    const lineEnd = state.eMarks[line]!;
    const close = state.src.indexOf('%%', from);
    if (close >= 0 && close < lineEnd) {
      // text after the closing %% on that line: not a block comment, let the paragraph take it
      if (state.src.slice(close + 2, lineEnd).trim()) return false;
      break;
    }
    line++;
    if (line >= endLine) break;
    from = state.bMarks[line]!;
  }
  if (silent) return true;
  state.line = Math.min(line + 1, endLine);
  const t = state.push('comment', '', 0);
  t.map = [startLine, state.line];
  return true;
}

const INLINE_TAG = new RegExp(`^#(${TAG_CHARS}+)`, 'u');
/** an inline `#tag` (after whitespace or at the start, not only digits: the model's rule) -> a tag pill */
function tagRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x23 || (pos > 0 && !/\s/.test(src[pos - 1]!))) return false;
  const m = INLINE_TAG.exec(src.slice(pos, pos + 256));
  if (!m || !isValidTag(cleanTag(m[1]!))) return false;
  if (!silent) state.push('obsidian_tag', '', 0).content = cleanTag(m[1]!);
  state.pos += m[0].length;
  return true;
}

const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
md.use(footnote).use(mark).use(callouts);
md.inline.ruler.before('link', 'wikilink', wikiRule);
md.inline.ruler.before('link', 'obsidian_comment', commentInline);
md.inline.ruler.before('link', 'obsidian_tag', tagRule);
md.block.ruler.before('fence', 'obsidian_comment', commentBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
md.renderer.rules['wikilink'] = (tokens, i) => renderWikilink(tokens[i]!.content);
md.renderer.rules['wiki_embed'] = (tokens, i) => renderEmbed(tokens[i]!.content);
md.renderer.rules['comment'] = () => '';
md.renderer.rules['obsidian_tag'] = (tokens, i) => `<span class="tag" data-tag="${escapeHtml(tokens[i]!.content)}">#${escapeHtml(tokens[i]!.content)}</span>`;

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
