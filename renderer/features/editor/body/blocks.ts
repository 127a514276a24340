/**
 * A note body as blocks, for lossless editing in the prose editor.
 *
 * parseBody splits the body on line boundaries into blocks and the gaps between
 * them (blank lines, line endings), so that lead + Σ(block.source + block.gap)
 * === body, always. A block is `simple` (a paragraph, heading or plain list the
 * editor may change) only when our serialiser reproduces its source exactly;
 * everything else — callouts, quotes, tables, code, math, HTML, comments,
 * embeds in odd places, plugin syntax on its own lines — is `opaque`: an atom
 * holding its exact text.
 *
 * serialiseBody(model, nodes, baseline) writes the edited document back: if no
 * top-level node differs from the baseline, the original body is returned
 * untouched; otherwise unchanged blocks (matched in order, LCS) keep their exact
 * source and gaps and only changed or new blocks are written from the document.
 */
import { parseInline, serialiseInline, type JNode } from './inline.js';

export type { JNode } from './inline.js';

export interface Block {
  kind: 'simple' | 'opaque';
  /** exact text of the block (no final line ending) */
  source: string;
  /** exact text after the block up to the next one (its line ending and blank lines; the tail for the last) */
  gap: string;
  /** the editor node for this block (an `opaque` node for opaque blocks) */
  node: JNode;
}

export interface BodyModel {
  body: string;
  eol: '\n' | '\r\n';
  /** blank lines before the first block */
  lead: string;
  blocks: Block[];
}

const BLANK = /^[ \t]*\r?\n?$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^#{1,6}[ \t]/;
/** a line that cannot be part of a plain paragraph */
const NOT_PARA = /^(?: {4}|\t| {0,3}(?:[>|<#]|[-*+][ \t]|\d+[.)][ \t]|```|~~~|%%|\$\$|!\[\[|\[\^|(?:-[ \t]*){3,}$|(?:\*[ \t]*){3,}$|(?:_[ \t]*){3,}$|=+[ \t]*$|-+[ \t]*$))/;

export function opaqueNode(source: string): JNode {
  return { type: 'opaque', attrs: { source } };
}

/** Serialise one top-level editor node to markdown (null: a node type this editor does not write). */
export function serialiseNode(n: JNode, eol: string): string | null {
  switch (n.type) {
    case 'opaque': return String(n.attrs?.['source'] ?? '');
    case 'paragraph': return serialiseInline(n.content, eol);
    case 'heading': {
      const level = Math.min(6, Math.max(1, Number(n.attrs?.['level'] ?? 1)));
      return '#'.repeat(level) + ' ' + serialiseInline(n.content, ' ');
    }
    case 'bulletList':
    case 'orderedList': {
      const start = Number(n.attrs?.['start'] ?? 1);
      const lines: string[] = [];
      (n.content ?? []).forEach((item, k) => {
        const marker = n.type === 'bulletList' ? '- ' : `${start + k}. `;
        const pad = ' '.repeat(marker.length);
        const parts: string[] = [];
        for (const child of item.content ?? []) {
          const s = serialiseNode(child, eol);
          if (s !== null) parts.push(s);
        }
        const body = parts.join(eol).split(/\r?\n/);
        lines.push(marker + body[0], ...body.slice(1).map((l) => (l ? pad + l : l)));
      });
      return lines.join(eol);
    }
    case 'blockquote': return (n.content ?? []).map((c) => serialiseNode(c, eol) ?? '').join(eol + eol).split(/\r?\n/).map((l) => '> ' + l).join(eol);
    case 'codeBlock': return '```' + String(n.attrs?.['language'] ?? '') + eol + (n.content ?? []).map((c) => c.text ?? '').join('') + eol + '```';
    case 'horizontalRule': return '---';
    default: return null;
  }
}

/** The editor node of a block source when it is plain enough to edit; null = opaque. */
function parseSimple(src: string, eol: string): JNode | null {
  const lines = src.split(/\r?\n/);
  let node: JNode | null = null;
  if (lines.length === 1 && HEADING.test(src)) {
    const m = /^(#{1,6})[ \t](.*)$/.exec(src)!;
    node = { type: 'heading', attrs: { level: m[1]!.length }, content: parseInline(m[2]!) };
  } else if (lines.every((l) => /^- \S/.test(l))) {
    node = { type: 'bulletList', content: lines.map((l) => ({ type: 'listItem', content: [para(l.slice(2))] })) };
  } else if (lines.every((l) => /^\d{1,9}\. \S/.test(l))) {
    const start = Number(/^(\d+)/.exec(lines[0]!)![1]);
    node = { type: 'orderedList', attrs: { start }, content: lines.map((l) => ({ type: 'listItem', content: [para(l.replace(/^\d+\. /, ''))] })) };
  } else if (!lines.some((l) => NOT_PARA.test(l) || l.trim() === '')) {
    node = para(src);
  }
  if (!node) return null;
  return serialiseNode(node, eol) === src ? node : null;
}

function para(src: string): JNode {
  const content = parseInline(src);
  return content.length ? { type: 'paragraph', content } : { type: 'paragraph' };
}

export function parseBody(body: string): BodyModel {
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const lines = body.split(/(?<=\n)/);
  const blocks: Block[] = [];
  let lead = '';
  let i = 0;
  const push = (src: string, last: string) => {
    // the block's final line ending belongs to the gap
    const end = /\r?\n$/.exec(last)?.[0] ?? '';
    const source = src.slice(0, src.length - end.length);
    const simple = parseSimple(source, eol);
    blocks.push({ kind: simple ? 'simple' : 'opaque', source, gap: end, node: simple ?? opaqueNode(source) });
  };
  while (i < lines.length) {
    const line = lines[i]!;
    if (BLANK.test(line)) {
      if (blocks.length) blocks[blocks.length - 1]!.gap += line; else lead += line;
      i++;
      continue;
    }
    let j = i + 1;
    const fence = FENCE.exec(line);
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence[1]![0] === '`' ? '`' : '~'}{${fence[1]!.length},}[ \\t]*\\r?\\n?$`);
      while (j < lines.length && !close.test(lines[j]!)) j++;
      j = Math.min(lines.length, j + 1);
    } else if (/^\s*(%%|\$\$)/.test(line) && (line.match(/%%|\$\$/g) ?? []).length === 1) {
      const tok = /%%|\$\$/.exec(line)![0];
      while (j < lines.length && !lines[j]!.includes(tok)) j++;
      j = Math.min(lines.length, j + 1);
    } else if (!HEADING.test(line)) {
      while (j < lines.length && !BLANK.test(lines[j]!) && !FENCE.test(lines[j]!) && !HEADING.test(lines[j]!)) j++;
    }
    push(lines.slice(i, j).join(''), lines[j - 1]!);
    i = j;
  }
  return { body, eol, lead, blocks };
}

/** A stable key of a top-level node: equal keys = the same content. */
export function nodeKey(n: JNode): string {
  return JSON.stringify(n, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      // default/empty attrs and marks the editor may add or drop are not content
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(o).sort()) {
        const x = o[k];
        if (x === null || x === undefined) continue;
        if ((k === 'marks' || k === 'content') && Array.isArray(x) && x.length === 0) continue;
        if (k === 'attrs' && Object.values(x as object).every((y) => y === null || y === undefined)) continue;
        out[k] = x;
      }
      return out;
    }
    return v;
  });
}

/** LCS alignment of two key lists: pairs [i, j] of equal keys, in order. */
function align(a: string[], b: string[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  // trim the common prefix and suffix first: an edit usually touches one block
  let p = 0;
  while (p < n && p < m && a[p] === b[p]) p++;
  let q = 0;
  while (q < n - p && q < m - p && a[n - 1 - q] === b[m - 1 - q]) q++;
  const A = a.slice(p, n - q);
  const B = b.slice(p, m - q);
  const L: number[][] = Array.from({ length: A.length + 1 }, () => new Array<number>(B.length + 1).fill(0));
  for (let i = A.length - 1; i >= 0; i--) for (let j = B.length - 1; j >= 0; j--) {
    L[i]![j] = A[i] === B[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  }
  const pairs: Array<[number, number]> = [];
  for (let k = 0; k < p; k++) pairs.push([k, k]);
  let i = 0;
  let j = 0;
  while (i < A.length && j < B.length) {
    if (A[i] === B[j]) { pairs.push([p + i, p + j]); i++; j++; } else if (L[i + 1]![j]! >= L[i]![j + 1]!) i++; else j++;
  }
  for (let k = 0; k < q; k++) pairs.push([n - q + k, m - q + k]);
  return pairs;
}

const hasBlankLine = (g: string) => /\n[ \t]*\r?\n/.test(g);

/**
 * The body for an edited document. `baseline` is the document the editor
 * started from (default: the model's own nodes); top-level nodes equal to
 * their baseline counterpart keep their block's exact bytes.
 */
export function serialiseBody(model: BodyModel, nodes: JNode[], baseline: JNode[] = model.blocks.map((b) => b.node)): string {
  const oldKeys = baseline.map(nodeKey);
  const newKeys = nodes.map(nodeKey);
  if (oldKeys.length === newKeys.length && oldKeys.every((k, i) => k === newKeys[i])) return model.body;
  const { eol, blocks } = model;
  const pairs = align(oldKeys, newKeys);
  const last = blocks.length - 1;
  // each output element: its text; `old` = the block it keeps or replaces (null: inserted); `kept` = unchanged
  const out: Array<{ text: string; old: number | null; kept: boolean; sameType: boolean }> = [];
  let oi = 0;
  let ni = 0;
  const emitRun = (oEnd: number, nEnd: number) => {
    // old blocks oi..oEnd replaced by new nodes ni..nEnd: pair them up, so a changed block keeps its place and gap
    for (; ni < nEnd; ni++, oi++) {
      const node = nodes[ni]!;
      const old = oi < oEnd ? oi : null;
      out.push({ text: serialiseNode(node, eol) ?? '', old, kept: false, sameType: old !== null && baseline[old]?.type === node.type });
    }
    oi = Math.max(oi, oEnd);
  };
  for (const [a, b] of pairs) {
    emitRun(a, b);
    out.push({ text: blocks[a]!.source, old: a, kept: true, sameType: true });
    oi = a + 1;
    ni = b + 1;
  }
  emitRun(blocks.length, nodes.length);
  const tail = last >= 0 ? blocks[last]!.gap : '';
  let s = model.lead;
  out.forEach((el, k) => {
    s += el.text;
    if (k === out.length - 1) { s += tail; return; }
    const next = out[k + 1]!;
    const g = el.old !== null && el.old !== last ? blocks[el.old]!.gap : null;
    // the old gap stands between blocks that keep their kind; a block new here, or changed in kind, gets a blank line
    const safe = g !== null && (hasBlankLine(g) || (el.sameType && next.old === el.old! + 1 && next.sameType));
    s += safe ? g : eol + eol;
  });
  return s;
}
