/**
 * Inline markdown <-> ProseMirror JSON for the small subset the prose editor
 * models: text, **bold**, *italic*, ~~strike~~, `code`, [[wikilinks]] (an atom
 * holding its exact source) and line breaks inside a paragraph (hardBreak = the
 * line ending). Everything else stays literal text. Whether a block may be
 * edited at all is decided by a round-trip check (blocks.ts), so this subset
 * never has to be complete — only exact where it claims a block.
 */

import { linkAt, splitLink } from '../../../../shared/wikilinks.js';

export interface JNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: JNode[];
  marks?: Array<{ type: string; attrs?: Record<string, unknown> }>;
  text?: string;
}

const MARKERS: Record<string, string> = { bold: '**', italic: '*', strike: '~~', code: '`' };
/** schema order of the marks (ProseMirror sorts a node's marks by it) */
const ORDER = ['bold', 'code', 'italic', 'strike'];

/** The link's text as shown: `[[Target|Label]]` -> Label, `[[Target#Part]]` -> Target#Part. */
export function wikiParts(raw: string): { target: string; label: string } {
  const inner = raw.slice(2, -2);
  const { target, heading, label } = splitLink(inner);
  return { target: target || (heading ? `#${heading}` : ''), label: label || inner };
}

function text(t: string, marks: string[]): JNode {
  const n: JNode = { type: 'text', text: t };
  if (marks.length) n.marks = [...marks].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)).map((type) => ({ type }));
  return n;
}

/** Parse one line (no line endings) into inline nodes under `marks`. */
function parseLine(s: string, marks: string[], out: JNode[]): void {
  let buf = '';
  const flush = () => { if (buf) { out.push(text(buf, marks)); buf = ''; } };
  let i = 0;
  while (i < s.length) {
    const rest = s.slice(i);
    const link = s[i] === '[' ? linkAt(s, i) : null;
    if (link) {
      flush();
      const n: JNode = { type: 'wikilink', attrs: { raw: s.slice(i, link.end) } };
      if (marks.length) n.marks = text('', marks).marks!;
      out.push(n);
      i = link.end;
      continue;
    }
    if (rest[0] === '`' && !marks.includes('code')) {
      const end = rest.indexOf('`', 1);
      if (end > 1 && rest[1] !== '`') {
        flush();
        // code excludes every other mark in the editor's schema: inside bold/italic it is not modelled
        // (the block then fails the round trip and stays opaque)
        out.push(text(rest.slice(1, end), ['code']));
        i += end + 1;
        continue;
      }
    }
    const pair = (m: string, name: string): boolean => {
      if (!rest.startsWith(m) || marks.includes(name)) return false;
      const inner0 = rest[m.length];
      if (inner0 === undefined || /\s/.test(inner0) || (m === '*' && inner0 === '*')) return false;
      const end = rest.indexOf(m, m.length + 1);
      if (end < 0 || /\s/.test(rest[end - 1]!)) return false;
      flush();
      parseLine(rest.slice(m.length, end), [...marks, name], out);
      i += end + m.length;
      return true;
    };
    if (pair('**', 'bold') || pair('~~', 'strike') || pair('*', 'italic')) continue;
    buf += s[i];
    i++;
  }
  flush();
}

/** Inline content of a paragraph-like block: lines joined by hardBreak nodes. */
export function parseInline(src: string): JNode[] {
  const out: JNode[] = [];
  src.split(/\r?\n/).forEach((line, k) => {
    if (k > 0) out.push({ type: 'hardBreak' });
    parseLine(line, [], out);
  });
  return out;
}

/** Inline nodes back to markdown; hardBreak = `eol`. */
export function serialiseInline(nodes: JNode[] | undefined, eol: string): string {
  let s = '';
  const open: string[] = [];
  const closeTo = (keep: string[]) => {
    // close from the top of the stack down to the first mark that must go
    const idx = open.findIndex((m) => !keep.includes(m));
    if (idx < 0) return;
    while (open.length > idx) s += MARKERS[open.pop()!] ?? '';
  };
  for (const n of nodes ?? []) {
    const marks = (n.marks ?? []).map((m) => m.type).filter((m) => m in MARKERS);
    if (n.type === 'hardBreak') { closeTo([]); s += eol; continue; }
    closeTo(marks);
    for (const m of marks) if (!open.includes(m)) { open.push(m); s += MARKERS[m]; }
    if (n.type === 'text') s += n.text ?? '';
    else if (n.type === 'wikilink') s += String(n.attrs?.['raw'] ?? '');
  }
  closeTo([]);
  return s;
}
