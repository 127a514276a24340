/**
 * Reference rewriting for rename: `[[Old]]` -> `[[New]]` keeping folder prefix,
 * `.md`, `#heading` and `|label` (including Obsidian's escaped `\|` in tables);
 * fenced code blocks and inline code are left alone, as the parser ignores them.
 */
import { blankInlineCode, parseLinkInner } from '../parse/wikilinks.js';
import type { WikiLink } from '../parse/types.js';

const LINK_RE = /(!?)\[\[([^[\]\n]+?)\]\]/g;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

/** The inner text of a link with its target's last segment renamed. */
export function renameInner(inner: string, newName: string): string {
  const cut = inner.search(/\\\||[|#]/);
  const target = cut < 0 ? inner : inner.slice(0, cut);
  const rest = cut < 0 ? '' : inner.slice(cut);
  const lead = target.match(/^\s*/)![0];
  const trail = target.match(/\s*$/)![0];
  const core = target.trim();
  const slash = core.lastIndexOf('/');
  const folder = slash >= 0 ? core.slice(0, slash + 1) : '';
  const md = /\.md$/i.exec(core)?.[0] ?? '';
  return lead + folder + newName + md + trail + rest;
}

/** Rewrite every link in one string (no code handling) whose parsed form `match`es. */
export function rewriteLinksInString(s: string, match: (l: WikiLink) => boolean, newName: string): string {
  if (s.indexOf('[[') < 0) return s;
  return s.replace(LINK_RE, (all, bang: string, inner: string) => {
    const l = parseLinkInner(inner, bang === '!', 0);
    return l && match(l) ? `${bang}[[${renameInner(inner, newName)}]]` : all;
  });
}

/** Rewrite links in a markdown body, skipping fenced code and inline code spans. */
export function rewriteBodyLinks(body: string, match: (l: WikiLink) => boolean, newName: string): string {
  if (body.indexOf('[[') < 0) return body;
  const lines = body.split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    const fm = FENCE_RE.exec(bare);
    if (fence !== null) {
      if (fm && fm[1]![0] === fence[0] && fm[1]!.length >= fence.length && bare.trim() === fm[1]) fence = null;
      continue;
    }
    if (fm) { fence = fm[1]!; continue; }
    if (line.indexOf('[[') < 0) continue;
    // links inside inline code are blanked in `mask`; only rewrite matches visible there
    const mask = blankInlineCode(line);
    let out = '';
    let last = 0;
    LINK_RE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = LINK_RE.exec(mask)) !== null) {
      const l = parseLinkInner(m[2]!, m[1] === '!', i + 1);
      if (!l || !match(l)) continue;
      out += line.slice(last, m.index) + `${m[1]}[[${renameInner(line.slice(m.index + m[1]!.length + 2, m.index + m[0].length - 2), newName)}]]`;
      last = m.index + m[0].length;
    }
    if (last) lines[i] = out + line.slice(last);
  }
  return lines.join('\n');
}
