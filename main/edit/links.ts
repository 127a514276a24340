/**
 * Reference rewriting for rename: `[[Old]]` -> `[[New]]` keeping folder prefix,
 * `.md`, `#heading` and `|label` (including Obsidian's escaped `\|` in tables);
 * fenced code blocks and inline code are left alone, as the parser ignores them.
 * The grammar is shared/wikilinks.ts.
 */
import { findLinks, findProseLinks, parseLink, renameInner, type EntityLink } from '../../shared/wikilinks.js';

/** Rewrite every link in one string (no code handling) whose parsed form `match`es. */
export function rewriteLinksInString(s: string, match: (l: EntityLink) => boolean, newName: string): string {
  return splice(s, findLinks(s), match, newName);
}

/** Rewrite links in a markdown body, skipping fenced code and inline code spans. */
export function rewriteBodyLinks(body: string, match: (l: EntityLink) => boolean, newName: string): string {
  return splice(body, findProseLinks(body), match, newName);
}

function splice(text: string, links: Array<{ start: number; end: number; embed: boolean; inner: string }>, match: (l: EntityLink) => boolean, newName: string): string {
  let out = '';
  let last = 0;
  for (const m of links) {
    const l = parseLink(m.inner);
    if (!l || !match(l)) continue;
    out += text.slice(last, m.start) + `${m.embed ? '!' : ''}[[${renameInner(m.inner, newName)}]]`;
    last = m.end;
  }
  return last ? out + text.slice(last) : text;
}
