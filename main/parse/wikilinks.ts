/**
 * Wikilink and inline-tag scanning. Pure string functions, no I/O.
 *
 * Link rules (documented in docs/vault-format.md):
 * - `[[Target]]`, `[[Target|label]]`, `[[folder/Target]]`, `[[Target#Heading]]`, `[[Target.md]]`;
 *   `\|` (Obsidian's escaped pipe inside tables) is read as `|`.
 * - A link whose last segment has an attachment extension (png, pdf, mp3, ...; anything
 *   known to be a non-markdown file) is a file reference, not an entity link — embedded
 *   (`![[x.png]]`) or not.
 * - `[[#Heading]]` (a link inside the same note) and template placeholders left in a
 *   link (`${...}`, `<%...%>`, `{{...}}`) are not entity links.
 */
import type { WikiLink } from './types.js';

const LINK_RE = /(!?)\[\[([^[\]\n]+?)\]\]/g;

/** Extensions that make a link a file reference rather than an entity link. */
const ATTACHMENT_EXT = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'bmp', 'avif', 'ico', 'tif', 'tiff', 'heic',
  'pdf', 'mp3', 'wav', 'ogg', 'flac', 'm4a', 'webm', 'mp4', 'mov', 'mkv', 'avi', 'ogv', '3gp',
  'canvas', 'base', 'excalidraw', 'zip', 'csv', 'json', 'txt', 'html', 'htm', 'docx', 'xlsx', 'pptx',
]);

const PLACEHOLDER_RE = /\$\{|<%|\{\{/;

/** Parses the inside of `[[...]]`. Returns null when it is not an entity link. */
export function parseLinkInner(inner: string, embed: boolean, line: number, field?: string): WikiLink | null {
  let text = inner.replace(/\\\|/g, '|');
  let label: string | undefined;
  const bar = text.indexOf('|');
  if (bar >= 0) {
    label = text.slice(bar + 1).trim() || undefined;
    text = text.slice(0, bar);
  }
  let heading: string | undefined;
  const hash = text.indexOf('#');
  if (hash >= 0) {
    heading = text.slice(hash + 1).trim() || undefined;
    text = text.slice(0, hash);
  }
  const target = text.trim();
  if (!target || PLACEHOLDER_RE.test(target)) return null;
  const slash = target.lastIndexOf('/');
  let name = (slash >= 0 ? target.slice(slash + 1) : target).trim();
  const dot = name.lastIndexOf('.');
  if (dot > 0) {
    const ext = name.slice(dot + 1).toLowerCase();
    if (ext === 'md') name = name.slice(0, dot).trim();
    else if (ATTACHMENT_EXT.has(ext)) return null;
  }
  if (!name) return null;
  void embed; // embeds of notes (`![[Other Note]]`) are transclusions: still entity links
  const link: WikiLink = { target, name, line };
  if (heading !== undefined) link.heading = heading;
  if (label !== undefined) link.label = label;
  if (field !== undefined) link.field = field;
  return link;
}

/** All entity links in one string (a line, or a frontmatter scalar). */
export function scanLinks(text: string, line: number, out: WikiLink[], field?: string): void {
  if (text.indexOf('[[') < 0) return;
  LINK_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LINK_RE.exec(text)) !== null) {
    // multi-line scalars: count the newlines before the match
    let l = line;
    if (field !== undefined) for (let i = text.indexOf('\n'); i >= 0 && i < m.index; i = text.indexOf('\n', i + 1)) l++;
    const link = parseLinkInner(m[2]!, m[1] === '!', l, field);
    if (link) out.push(link);
  }
}

/**
 * Rewrites every `[[…]]` in a text: `fn` gets the parsed link (null when it is not an entity link:
 * an attachment, `[[#Heading]]`, a template placeholder), whether it is an embed, and the raw match.
 */
export function replaceLinks(text: string, fn: (link: WikiLink | null, embed: boolean, raw: string, inner: string) => string): string {
  if (text.indexOf('[[') < 0) return text;
  return text.replace(new RegExp(LINK_RE.source, 'g'), (raw: string, bang: string, inner: string) => fn(parseLinkInner(inner, bang === '!', 0), bang === '!', raw, inner));
}

const INLINE_CODE_RE = /(`+)(?:[^`]|(?!\1)`)+?\1/g;
/** Replaces inline code spans with spaces (keeps columns) so links and tags inside are ignored. */
export function blankInlineCode(line: string): string {
  if (line.indexOf('`') < 0) return line;
  return line.replace(INLINE_CODE_RE, (s) => ' '.repeat(s.length));
}

const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

// A tag: '#' at line start or after whitespace, then letters/digits/_/-/ ; not all digits.
const TAG_RE = new RegExp(`(?:^|\\s)#(${TAG_CHARS}+)`, 'gu');

import { cleanTag, isValidTag, TAG_CHARS } from '../../shared/tags.js';
export { cleanTag, isValidTag } from '../../shared/tags.js';

/**
 * Scans a markdown body for wikilinks and inline #tags, skipping fenced code blocks
 * and inline code. `firstLine` is the 1-based file line of the body's first line.
 */
export function scanBody(body: string, firstLine: number): { links: WikiLink[]; tags: string[] } {
  const links: WikiLink[] = [];
  const tags: string[] = [];
  if (body.length === 0) return { links, tags };
  const hasLinks = body.indexOf('[[') >= 0;
  const hasTags = body.indexOf('#') >= 0;
  if (!hasLinks && !hasTags) return { links, tags };
  let fence: string | null = null;
  let start = 0;
  let lineNo = firstLine;
  const len = body.length;
  while (start <= len) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = len;
    let line = body.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const fm = FENCE_RE.exec(line);
    if (fence !== null) {
      if (fm && fm[1]![0] === fence[0] && fm[1]!.length >= fence.length && line.trim() === fm[1]) fence = null;
    } else if (fm) {
      fence = fm[1]!;
    } else if (line.indexOf('[[') >= 0 || line.indexOf('#') >= 0) {
      const text = blankInlineCode(line);
      if (hasLinks) scanLinks(text, lineNo, links);
      if (hasTags && text.indexOf('#') >= 0) {
        // links may hold '#Heading': blank them so their headings are not read as tags
        const noLinks = text.indexOf('[[') >= 0 ? text.replace(LINK_RE, (s) => ' '.repeat(s.length)) : text;
        TAG_RE.lastIndex = 0;
        let m: RegExpExecArray | null;
        while ((m = TAG_RE.exec(noLinks)) !== null) {
          const t = cleanTag(m[1]!);
          if (isValidTag(t)) tags.push(t);
        }
      }
    }
    start = end + 1;
    lineNo++;
  }
  return { links, tags };
}
