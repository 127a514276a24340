/**
 * Re-reads an event note's frontmatter with yaml's LineCounter to find the
 * 1-based line of every `consequences` item (the parser only gives top-level
 * field lines). Pure; never throws.
 */
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { normaliseName } from '../../shared/names.js';

export interface FrontmatterLines {
  frontmatter: Record<string, unknown>;
  /** 1-based line of each top-level key */
  fieldLines: Record<string, number>;
  /** 1-based line of each item of the list under `key`, in order */
  itemLines: number[];
  ok: boolean;
}

/** Split `---` frontmatter off a note; returns the yaml text and the file line it starts on. */
export function frontmatterBlock(text: string): { yaml: string; firstLine: number } | null {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = /^---[ \t]*\r?\n/.exec(src);
  if (!first) return null;
  const rest = src.slice(first[0].length);
  const close = /^(?:---|\.\.\.)[ \t]*\r?$/m.exec(rest);
  if (!close) return null;
  return { yaml: rest.slice(0, close.index), firstLine: 2 };
}

export function readFrontmatterLines(text: string, listKey = 'consequences'): FrontmatterLines {
  const empty: FrontmatterLines = { frontmatter: {}, fieldLines: {}, itemLines: [], ok: false };
  const block = frontmatterBlock(text);
  if (!block) return empty;
  const lc = new LineCounter();
  const doc = parseDocument(block.yaml, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return empty;
  const lineOf = (offset: number | undefined) =>
    offset === undefined ? block.firstLine : lc.linePos(offset).line + block.firstLine - 1;
  const fieldLines: Record<string, number> = {};
  const itemLines: number[] = [];
  for (const pair of doc.contents.items) {
    const keyNode = pair.key as { value?: unknown; range?: [number, number, number] } | null;
    const key = keyNode && typeof keyNode === 'object' ? String(keyNode.value) : String(pair.key);
    fieldLines[key] = lineOf(keyNode?.range?.[0]);
    if (key === listKey && isSeq(pair.value)) {
      for (const item of pair.value.items) {
        const r = (item as { range?: [number, number, number] } | null)?.range;
        itemLines.push(lineOf(r?.[0]));
      }
    }
  }
  const js = doc.toJS() as unknown;
  const frontmatter = js && typeof js === 'object' && !Array.isArray(js) ? js as Record<string, unknown> : {};
  return { frontmatter, fieldLines, itemLines, ok: true };
}

/** An EventNoteInput straight from a file's text (for callers without a parsed note). */
export function eventNoteFromSource(a: { path: string; layer: string; text: string; titleField?: string }): {
  id: string; name: string; path: string; layer: string; frontmatter: Record<string, unknown>; fieldLines: Record<string, number>; source: string;
} {
  const r = readFrontmatterLines(a.text);
  const title = r.frontmatter[a.titleField ?? 'title'];
  const base = a.path.replace(/^.*\//, '').replace(/\.md$/i, '');
  const name = typeof title === 'string' && title.trim() !== '' ? title.trim() : base;
  return { id: `${a.layer}/${normaliseName(name)}`, name, path: a.path, layer: a.layer, frontmatter: r.frontmatter, fieldLines: r.fieldLines, source: a.text };
}
