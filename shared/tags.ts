/**
 * The frontmatter `tags:` grammar, written once for the model (main/parse) and
 * the editor's chips, so `tags: CotF, RD` is two tags everywhere (as Obsidian
 * reads it): a string value is split on commas and whitespace, a list is taken
 * item by item (each item split the same way), a leading `#` is dropped.
 */

/** The characters of an inline `#tag` (letters, digits, `_`, `-`, `/` for nesting), as a RegExp source for the `u` flag. */
export const TAG_CHARS = '[\\p{L}\\p{N}_/-]';

/** A tag as written (`#lore/place/`) -> its name (`lore/place`). */
export function cleanTag(raw: string): string {
  return raw.trim().replace(/^#+/, '').replace(/^\/+|\/+$/g, '');
}

/** Obsidian's rule: not empty, not only digits (and slashes), no whitespace. */
export function isValidTag(tag: string): boolean {
  return tag.length > 0 && !/^[\d/]+$/.test(tag) && !/\s/.test(tag);
}

/**
 * The tags a frontmatter value holds, cleaned, in order, invalid ones kept
 * (the editor must show them so that a rewrite loses nothing; the model then
 * keeps only `isValidTag` ones).
 */
export function frontmatterTags(v: unknown): string[] {
  const items = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const x of items) {
    if (typeof x !== 'string' && typeof x !== 'number') continue;
    for (const part of String(x).split(/[,\s]+/)) {
      const t = cleanTag(part);
      if (t) out.push(t);
    }
  }
  return out;
}
