/**
 * Obsidian-flavoured markdown on markdown-it, shared by the app's panel
 * (renderer/features/entity/markdown.ts, sanitised there by DOMPurify) and the
 * exported site (main/export/site.ts): CommonMark + GFM tables/strikethrough,
 * the ecosystem's plugins for footnotes (markdown-it-footnote), `==highlight==`
 * (markdown-it-mark) and callouts with Obsidian's types, icons and `+`/`-`
 * folding (markdown-it-obsidian-callouts); plus four small rules of our own for
 * what no maintained plugin covers:
 *  - `[[...]]` links and `![[...]]` embeds (the one grammar, shared/wikilinks.ts),
 *    drawn by the caller's `wikilink` / `embed` functions from the inner text;
 *  - `%%comments%%` (inline or as a block of lines) dropped from the output;
 *  - inline `#tags` (the model's grammar, shared/tags.ts) drawn by `tag`.
 * Dataview blocks stay fenced code (shown, never run). Pure: no DOM, no Node.
 */
import MarkdownIt, { type StateBlock, type StateInline } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import mark from 'markdown-it-mark';
import callouts from 'markdown-it-obsidian-callouts';
import { cleanTag, isValidTag, TAG_CHARS } from './tags.js';
import { linkAt } from './wikilinks.js';

export interface ObsidianMarkdownOptions {
  /** raw HTML in notes passes through (the caller sanitises) or is escaped */
  html: boolean;
  /** `[[inner]]` -> HTML */
  wikilink: (inner: string) => string;
  /** `![[inner]]` -> HTML */
  embed: (inner: string) => string;
  /** an inline `#tag` (cleaned) -> HTML */
  tag: (tag: string) => string;
}

/** A markdown-it instance reading notes as Obsidian does. */
export function obsidianMarkdown(o: ObsidianMarkdownOptions): MarkdownIt {
  const md = new MarkdownIt({ html: o.html, linkify: false, typographer: false });
  md.use(footnote).use(mark).use(callouts);
  md.inline.ruler.before('link', 'wikilink', wikiRule);
  md.inline.ruler.before('link', 'obsidian_comment', commentInline);
  md.inline.ruler.before('link', 'obsidian_tag', tagRule);
  md.block.ruler.before('fence', 'obsidian_comment', commentBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.renderer.rules['wikilink'] = (tokens, i) => o.wikilink(tokens[i]!.content);
  md.renderer.rules['wiki_embed'] = (tokens, i) => o.embed(tokens[i]!.content);
  md.renderer.rules['comment'] = () => '';
  md.renderer.rules['obsidian_tag'] = (tokens, i) => o.tag(tokens[i]!.content);
  return md;
}

function wikiRule(state: StateInline, silent: boolean): boolean {
  const c = state.src.charCodeAt(state.pos);
  if (c !== 0x21 /* ! */ && c !== 0x5b /* [ */) return false;
  const m = linkAt(state.src, state.pos);
  if (!m || m.end > state.posMax || !m.inner.trim()) return false;
  if (!silent) {
    const t = state.push(m.embed ? 'wiki_embed' : 'wikilink', '', 0);
    t.content = m.inner;
  }
  state.pos = m.end;
  return true;
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

