/**
 * Lossless editing of one relationship item's own properties (issue 18): the
 * item of a link-valued field that refers to a target, written plain
 * (`"[[Red Hand]]"`) or as a map (`{ to: "[[Red Hand]]", attitude: wary }`,
 * flow or block style).
 *
 * Contract (as frontmatter.ts): the whole text in, the whole text out, only the
 * bytes the edit concerns replaced. Setting the first property turns a plain item
 * into a flow map that keeps the item's own source as its `to:`
 * (`"[[X]]"` -> `{ to: "[[X]]", k: v }`; a plain scalar that could not stand in a
 * flow map becomes a block map instead); unsetting the last one turns the map back
 * into its `to:` source. A new key is appended after the map's last pair
 * (`, k: v` in a flow map, a line at the keys' indentation in a block map), and
 * removing a key removes exactly that. So set-then-unset of a key the item does
 * not hold is byte-identical, in every style. A map holding only `to:` counts as
 * plain: unsetting another key never leaves one behind.
 */
import { isMap, isScalar, isSeq, type Node, type Pair, type YAMLMap } from 'yaml';
import { CoreError } from '../domain/errors.js';
import {
  deepEqual, findPair, js, keyOf, lineEndAfter, lineStart, parseFm, renderItem, renderScalar, scalarStyleOf, splice, trimEnd, type Parsed,
} from './frontmatter.js';

/** An item's reference text: the string itself, or a map's `to:`; null for anything else. */
export function itemRef(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>).to === 'string') return (v as { to: string }).to;
  return null;
}

interface Located { p: Parsed; node: Node; top: boolean; seqFlow: boolean; colonEnd: number }

function locate(text: string, key: string, match: (ref: string) => boolean): Located {
  const p = parseFm(text);
  const pair = findPair(p.map, key);
  const v = pair?.value ?? null;
  if (!pair || v === null) throw new CoreError('not-found', `${key} holds no item to edit`, { field: key });
  const items = isSeq(v) ? (v.items as Node[]) : [v];
  const node = items.find((n) => { const r = itemRef(js(n, p.doc)); return r !== null && match(r); });
  if (!node?.range) throw new CoreError('not-found', `${key} holds no item referring to that entity`, { field: key });
  const colonEnd = p.fm.indexOf(':', (pair.key as Node).range![1]) + 1;
  return { p, node, top: !isSeq(v), seqFlow: isSeq(v) && v.flow === true, colonEnd };
}

/** end of a pair's source (its value's, else its key's) */
function pairEnd(pr: Pair): number {
  const v = pr.value as Node | null;
  return v?.range ? v.range[1] : (pr.key as Node).range![1];
}

const FLOW_UNSAFE = /[,[\]{}:]/;

/**
 * Set `prop` on the item of `key` that refers to what `match` accepts. Throws 'not-found' when there is no
 * such item. An equal value already there returns the text itself.
 */
export function setItemProperty(text: string, key: string, match: (ref: string) => boolean, prop: string, value: unknown): string {
  if (prop === 'to') throw new CoreError('invalid', "'to' is the relationship's target, not a property", { field: prop });
  const { p, node, top, seqFlow, colonEnd } = locate(text, key, match);
  const fm = p.fm;
  const eol = p.parts.eol;
  const k = renderScalar(prop);
  if (isScalar(node)) {
    const src = fm.slice(node.range![0], node.range![1]);
    const plainUnsafe = scalarStyleOf(node) === 'PLAIN' && (FLOW_UNSAFE.test(src) || /[\r\n]/.test(src));
    if (!plainUnsafe || seqFlow) return splice(text, p, node.range![0], node.range![1], `{ to: ${src}, ${k}: ${renderItem(value, 'PLAIN')} }`);
    // a plain scalar with flow indicators stays legal only in block context: a block map
    const at = top ? colonEnd : node.range![0];
    const head = top ? `${eol}  ` : '';
    const indent = top ? '  ' : ' '.repeat(node.range![0] - lineStart(fm, node.range![0]));
    return splice(text, p, at, node.range![1], `${head}to: ${src}${eol}${indent}${k}: ${renderScalar(value)}`);
  }
  if (!isMap(node)) throw new CoreError('invalid', `${key}: that item is not a reference or a relationship map`, { field: key });
  const map = node as YAMLMap;
  const pairs = map.items as Pair[];
  const old = findPair(map, prop);
  if (old) {
    const ov = old.value as Node | null;
    if (ov !== null && deepEqual(js(ov, p.doc), value)) return text;
    const flow = map.flow === true;
    if (!ov?.range) {
      const ke = (old.key as Node).range![1];
      const c = fm.indexOf(':', ke) + 1;
      return splice(text, p, c, c, ' ' + (flow ? renderItem(value, 'PLAIN') : renderScalar(value)));
    }
    const r = flow ? renderItem(value, scalarStyleOf(ov)) : renderScalar(value, scalarStyleOf(ov));
    return splice(text, p, ov.range[0], ov.range[1], r);
  }
  const last = pairs[pairs.length - 1]!;
  const end = pairEnd(last);
  if (map.flow) return splice(text, p, end, end, `, ${k}: ${renderItem(value, 'PLAIN')}`);
  const firstKey = (pairs[0]!.key as Node).range![0];
  const indent = ' '.repeat(firstKey - lineStart(fm, firstKey));
  const at = lineEndAfter(fm, end);
  const before = fm[at - 1] === '\n' ? '' : eol;
  return splice(text, p, at, at, `${before}${indent}${k}: ${renderScalar(value)}${eol}`);
}

/**
 * Remove `prop` from the item of `key` that refers to what `match` accepts; a map left with only `to:`
 * becomes its `to:` source again. An item without that key returns the text itself.
 */
export function unsetItemProperty(text: string, key: string, match: (ref: string) => boolean, prop: string): string {
  if (prop === 'to') throw new CoreError('invalid', "'to' is the relationship's target, not a property", { field: prop });
  const { p, node, top, colonEnd } = locate(text, key, match);
  if (!isMap(node)) return text;
  const fm = p.fm;
  const map = node as YAMLMap;
  const pairs = map.items as Pair[];
  const i = pairs.findIndex((x) => keyOf(x) === prop);
  if (i < 0) return text;
  const rest = pairs.filter((_, j) => j !== i);
  const to = rest.length === 1 && keyOf(rest[0]!) === 'to' ? (rest[0]!.value as Node | null) : null;
  if (to?.range) {
    const src = fm.slice(to.range[0], to.range[1]);
    const end = Math.max(...pairs.map(pairEnd));
    if (map.flow) return splice(text, p, map.range![0], map.range![1], src);
    return top ? splice(text, p, colonEnd, end, ' ' + src) : splice(text, p, map.range![0], end, src);
  }
  const pr = pairs[i]!;
  if (map.flow) {
    if (i > 0) return splice(text, p, pairEnd(pairs[i - 1]!), pairEnd(pr), '');
    return splice(text, p, (pr.key as Node).range![0], (pairs[1]!.key as Node).range![0], '');
  }
  if (i === 0) return splice(text, p, (pr.key as Node).range![0], (pairs[1]!.key as Node).range![0], '');
  const from = lineStart(fm, (pr.key as Node).range![0]);
  return splice(text, p, from, lineEndAfter(fm, trimEnd(fm, pairEnd(pr))), '');
}
