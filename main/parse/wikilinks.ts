/**
 * The parser's reading of links and inline tags, over the one wikilink grammar
 * (shared/wikilinks.ts: what a link is, which links name entities). Pure string
 * functions, no I/O.
 */
import type { WikiLink } from './types.js';
import { blankInlineCode, findLinks, forEachProseLine, parseLink } from '../../shared/wikilinks.js';
import { cleanTag, isValidTag, TAG_CHARS } from '../../shared/tags.js';
export { cleanTag, isValidTag } from '../../shared/tags.js';

/** Parses the inside of `[[...]]` found at `line`. Returns null when it is not an entity link. */
export function parseLinkInner(inner: string, line: number, field?: string): WikiLink | null {
  const l = parseLink(inner);
  if (!l) return null;
  // the common shapes as literals (no properties added one by one: an object given a fourth property later gets
  // an out-of-object property store, ~40 bytes more a link); the key order is the same in every case
  if (l.heading === undefined && l.label === undefined) {
    return field === undefined ? { target: l.target, name: l.name, line } : { target: l.target, name: l.name, line, field };
  }
  const link: WikiLink = { target: l.target, name: l.name, line };
  if (l.heading !== undefined) link.heading = l.heading;
  if (l.label !== undefined) link.label = l.label;
  if (field !== undefined) link.field = field;
  return link;
}

/** All entity links in one string (a line, or a frontmatter scalar). */
export function scanLinks(text: string, line: number, out: WikiLink[], field?: string): void {
  for (const m of findLinks(text)) {
    // multi-line scalars: count the newlines before the match
    let l = line;
    if (field !== undefined) for (let i = text.indexOf('\n'); i >= 0 && i < m.start; i = text.indexOf('\n', i + 1)) l++;
    const link = parseLinkInner(m.inner, l, field);
    if (link) out.push(link);
  }
}

/** Replaces every `[[…]]` with spaces (columns kept). */
function blankLinks(text: string): string {
  let out = '';
  let last = 0;
  for (const m of findLinks(text)) {
    out += text.slice(last, m.start) + ' '.repeat(m.end - m.start);
    last = m.end;
  }
  return last ? out + text.slice(last) : text;
}

// A tag: '#' at line start or after whitespace, then letters/digits/_/-/ ; not all digits.
const TAG_RE = new RegExp(`(?:^|\\s)#(${TAG_CHARS}+)`, 'gu');

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
  forEachProseLine(body, (line, index) => {
    if (line.indexOf('[[') < 0 && line.indexOf('#') < 0) return;
    const text = blankInlineCode(line);
    if (hasLinks) scanLinks(text, firstLine + index, links);
    if (hasTags && text.indexOf('#') >= 0) {
      // links may hold '#Heading': blank them so their headings are not read as tags
      const noLinks = text.indexOf('[[') >= 0 ? blankLinks(text) : text;
      TAG_RE.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = TAG_RE.exec(noLinks)) !== null) {
        const t = cleanTag(m[1]!);
        if (isValidTag(t)) tags.push(t);
      }
    }
  });
  return { links, tags };
}
