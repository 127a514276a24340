/**
 * The one wikilink grammar (docs/vault-format.md), used by main (parser, model,
 * rename, exports, search snippets, timeline) and the renderer (prose, editor,
 * forms). Pure string functions: no DOM, no Node.
 *
 * - `[[Target]]`, `[[Target|label]]`, `[[folder/Target]]`, `[[Target.md]]`,
 *   `[[Target#Heading]]`, `[[Target#^block-id]]`, `![[embed]]`;
 *   `\|` (Obsidian's escaped pipe inside tables) reads as `|`.
 * - A link holds no `[`, `]` or line break between its brackets.
 * - A link whose last segment has an attachment extension (png, pdf, mp3, ...)
 *   is a file reference, not an entity link, embedded (`![[x.png]]`) or not.
 * - `[[#Heading]]` (inside the same note) and template placeholders left in a
 *   link (`${...}`, `<%...%>`, `{{...}}`) are not entity links.
 * - Inside code (fenced blocks, inline spans) nothing is a link: callers that
 *   read prose skip it with `forEachProseLine` + `blankInlineCode`.
 */

/** `!?[[inner]]`: group 1 the embed mark, group 2 the inner text. Use through the functions below. */
const LINK_SOURCE = String.raw`(!?)\[\[([^[\]\n]+?)\]\]`;
const LINK_RE = new RegExp(LINK_SOURCE, 'g');
const LINK_AT = new RegExp(LINK_SOURCE, 'y');

/** Extensions that make a link a file reference rather than an entity link. */
const ATTACHMENT_EXT = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'bmp', 'avif', 'ico', 'tif', 'tiff', 'heic',
  'pdf', 'mp3', 'wav', 'ogg', 'flac', 'm4a', 'webm', 'mp4', 'mov', 'mkv', 'avi', 'ogv', '3gp',
  'canvas', 'base', 'excalidraw', 'zip', 'csv', 'json', 'txt', 'html', 'htm', 'docx', 'xlsx', 'pptx',
]);

const PLACEHOLDER_RE = /\$\{|<%|\{\{/;

/** One `[[…]]` found in a text. */
export interface LinkMatch {
  /** offset of `[[` (or of the `!` of an embed) */
  start: number;
  /** offset just past `]]` */
  end: number;
  embed: boolean;
  /** the text between the brackets, as written */
  inner: string;
}

/** The parts of a link's inner text (`\|` read as `|`), each trimmed; '' when absent. */
export interface LinkParts {
  /** as written, folder and extension kept: 'folder/Target.md' */
  target: string;
  /** after the first `#` (a heading, a nested `A#B`, or a block ref `^id`) */
  heading: string;
  /** after the first `|` */
  label: string;
}

/** An entity link: what the model resolves. */
export interface EntityLink {
  /** the target as written, without heading and label: 'folder/Target' */
  target: string;
  /** last path segment without .md: what is matched against names, file names and aliases */
  name: string;
  heading?: string;
  label?: string;
}

/** Splits a link's inner text into target, heading and label. */
export function splitLink(inner: string): LinkParts {
  const text = inner.indexOf('\\|') >= 0 ? inner.replace(/\\\|/g, '|') : inner;
  const bar = text.indexOf('|');
  const ref = bar < 0 ? text : text.slice(0, bar);
  const hash = ref.indexOf('#');
  return {
    target: (hash < 0 ? ref : ref.slice(0, hash)).trim(),
    heading: hash < 0 ? '' : ref.slice(hash + 1).trim(),
    label: bar < 0 ? '' : text.slice(bar + 1).trim(),
  };
}

/** The name a target names: its last path segment without `.md`. */
export function targetName(target: string): string {
  const t = target.trim();
  return t.slice(t.lastIndexOf('/') + 1).replace(/\.md$/i, '').trim();
}

/** Parses a link's inner text. null when it is not an entity link (an attachment, `[[#Heading]]`, a template placeholder). */
export function parseLink(inner: string): EntityLink | null {
  const { target, heading, label } = splitLink(inner);
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
  // embeds of notes (`![[Other Note]]`) are transclusions: still entity links
  const link: EntityLink = { target, name };
  if (heading) link.heading = heading;
  if (label) link.label = label;
  return link;
}

/** Every `[[…]]` in a text, in order (code is not skipped: see `blankInlineCode`, `forEachProseLine`). */
export function findLinks(text: string): LinkMatch[] {
  const out: LinkMatch[] = [];
  if (text.indexOf('[[') < 0) return out;
  // the module's one global regex: safe, this loop is synchronous and calls out to nothing
  LINK_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LINK_RE.exec(text)) !== null) out.push({ start: m.index, end: m.index + m[0].length, embed: m[1] === '!', inner: m[2]! });
  return out;
}

/** The link starting exactly at `pos` (its `!` or first `[`), or null. */
export function linkAt(text: string, pos: number): LinkMatch | null {
  LINK_AT.lastIndex = pos;
  const m = LINK_AT.exec(text);
  return m ? { start: pos, end: pos + m[0].length, embed: m[1] === '!', inner: m[2]! } : null;
}

/**
 * Rewrites every `[[…]]` in a text: `fn` gets the parsed link (null when it is not an entity
 * link), whether it is an embed, the raw match and the inner text; it returns the replacement.
 */
export function replaceLinks(text: string, fn: (link: EntityLink | null, embed: boolean, raw: string, inner: string) => string): string {
  if (text.indexOf('[[') < 0) return text;
  return text.replace(new RegExp(LINK_RE), (raw: string, bang: string, inner: string) => fn(parseLink(inner), bang === '!', raw, inner));
}

/** Writes a link: `[[target#heading|label]]`, `![[…]]` for an embed. */
export function formatLink(target: string, opts: { heading?: string; label?: string; embed?: boolean } = {}): string {
  return `${opts.embed ? '!' : ''}[[${target}${opts.heading ? `#${opts.heading}` : ''}${opts.label ? `|${opts.label}` : ''}]]`;
}

/** Is the whole value (trimmed) one link? (a frontmatter value written as `[[Name]]`) */
export function isLinkValue(value: string): boolean {
  const t = value.trim();
  const m = linkAt(t, 0);
  return m !== null && !m.embed && m.end === t.length;
}

/**
 * A reference as written in a frontmatter value or a name box -> its target, trimmed:
 * `[[folder/Target.md#Heading|label]]` -> 'folder/Target.md'; a value that does not start
 * with `[[` is returned trimmed (a plain name).
 */
export function refTarget(value: string): string {
  const t = value.trim();
  if (!t.startsWith('[[')) return t;
  const m = linkAt(t, 0);
  if (m) return splitLink(m.inner).target;
  // an unclosed `[[Name`: the name it starts
  return splitLink(t.slice(2).replace(/\].*$/s, '')).target;
}

/** A reference (plain name or link) -> the name it refers to: `[[folder/Target.md|x]]` -> 'Target'. */
export function refName(value: string): string {
  return targetName(refTarget(value));
}

/**
 * The inner text of a link with its target's last segment renamed, keeping the folder,
 * `.md`, `#heading`, `|label` (escaped `\|` too) and the spacing as written.
 */
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

const INLINE_CODE_RE = /(`+)(?:[^`]|(?!\1)`)+?\1/g;
/** Replaces inline code spans with spaces (columns kept), so links and tags inside are not read. */
export function blankInlineCode(line: string): string {
  if (line.indexOf('`') < 0) return line;
  return line.replace(INLINE_CODE_RE, (s) => ' '.repeat(s.length));
}

const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Calls `fn` for every line of a markdown body that is outside fenced code blocks (fence
 * lines excluded): the line without its `\n` and a trailing `\r`, its 0-based index, and the
 * offset of its first character in `body`.
 */
export function forEachProseLine(body: string, fn: (line: string, index: number, offset: number) => void): void {
  let fence: string | null = null;
  let start = 0;
  let index = 0;
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
    } else {
      fn(line, index, start);
    }
    start = end + 1;
    index++;
  }
}

/** The links of a markdown body that are read as links: outside fenced code and inline code spans (offsets into `body`). */
export function findProseLinks(body: string): Array<LinkMatch & { line: number }> {
  const out: Array<LinkMatch & { line: number }> = [];
  if (body.indexOf('[[') < 0) return out;
  forEachProseLine(body, (line, index, offset) => {
    if (line.indexOf('[[') < 0) return;
    for (const m of findLinks(blankInlineCode(line))) {
      out.push({ start: m.start + offset, end: m.end + offset, embed: m.embed, inner: line.slice(m.end - m.inner.length - 2, m.end - 2), line: index });
    }
  });
  return out;
}
