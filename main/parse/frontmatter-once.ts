/**
 * A note's frontmatter read once, without the note keeping what the read made. A note taken from the note cache
 * (sync/stat-cache.ts) holds its frontmatter, field lines, links and problems as bytes until one of them is first
 * read, and then keeps all of them decoded. A caller that only derives something from the frontmatter once (a
 * record's properties: model/refs.ts noteProperties) reads it through frontmatterOnce, so such a note stays bytes.
 * Why (rss15i, issue 15 point 6): the timeline's base state, which the players' view builds after every open, reads
 * every record's properties once; on opening a 10k vault again that decoded every cached note's heavy part, ~11 MB
 * of objects the web shell kept, where its bytes are 5.3 MB.
 */
import type { ParsedNote } from './types.js';

/** The method a note may carry (non-enumerable) that gives its frontmatter without keeping it decoded. */
export const FRONTMATTER_ONCE = Symbol('lorecraft.frontmatterOnce');

type Peekable = ParsedNote & { [FRONTMATTER_ONCE]?: (this: ParsedNote) => Record<string, unknown> };

/** `note.frontmatter`, equal in value; a note that can give it without keeping it decoded does so. */
export function frontmatterOnce(note: ParsedNote): Record<string, unknown> {
  const once = (note as Peekable)[FRONTMATTER_ONCE];
  return once ? once.call(note) : note.frontmatter;
}
