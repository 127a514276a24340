/**
 * Fast path for the frontmatter most vaults actually write: top-level
 * `key: scalar`, `key: [flow, list]`, and `key:` followed by `- scalar` items
 * or `- k: v` items (a list of flat maps: each of its keys on its own line at
 * the first key's column, each value a scalar or a flow list).
 * Anything else (nested maps, block scalars, anchors, comments, escapes, tabs,
 * Unicode spaces, very long keys, duplicate keys, hex/octal/inf numbers...) returns null and the caller uses the
 * full `yaml` parser. When it answers, the answer equals what `yaml`'s core
 * schema gives (checked over the Thellade fixture and by a property test), and
 * each scalar comes with its 1-based line in the YAML text.
 *
 * Why: yaml's parseDocument dominates parse time (~0.15-0.4 ms per note).
 */

export interface FastField {
  key: string;
  line: number;
  value: unknown;
  /** string scalars with their YAML line (for wikilink scanning) */
  strings: Array<{ text: string; line: number }>;
}

const NULL_RE = /^(?:~|[Nn]ull|NULL)?$/;
const TRUE_RE = /^(?:[Tt]rue|TRUE)$/;
const FALSE_RE = /^(?:[Ff]alse|FALSE)$/;
const INT_RE = /^[-+]?[0-9]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const FLOAT_EXP_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
// hex, octal, .inf, .nan: rare in frontmatter; left to the full parser
const SPECIAL_NUM_RE = /^(?:0o|0x|[-+]?\.(?:inf|Inf|INF)$|\.(?:nan|NaN|NAN)$)/;
const KEY_RE = /^([A-Za-z_][A-Za-z0-9_\-. ]*?):(?: +|$)/;
/**
 * Characters JavaScript's trim() and \s take for white space where YAML sees
 * content (YAML's white space is only space and tab; its line break only \n,
 * \r\n): a lone \r, \v, \f, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028,
 * U+2029, U+202F, U+205F, U+3000, U+FEFF. Any of them: leave it to `yaml`.
 */
const NOT_YAML_SPACE = /\r(?!\n)|[\v\f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/** YAML caps an implicit key at 1024 characters; longer ones go to `yaml` (which reports them). */
const MAX_KEY = 1000;
const BAD_START = '[]{},&*!|>\'"%@`#?:-';

const BAIL = Symbol('bail');
type Out = unknown | typeof BAIL;

/** A plain (unquoted) scalar, resolved as yaml's core schema does. */
function plain(s: string, flow: boolean): Out {
  if (s.length === 0) return null;
  const c = s[0]!;
  if (BAD_START.includes(c)) {
    // '-' and ':' and '?' may start a plain scalar when not followed by a space
    if (!((c === '-' || c === '?' || c === ':') && s.length > 1 && s[1] !== ' ')) return BAIL;
  }
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':') || s.includes('\t')) return BAIL;
  if (flow && /[[\]{},]/.test(s)) return BAIL;
  if (NULL_RE.test(s)) return null;
  if (TRUE_RE.test(s)) return true;
  if (FALSE_RE.test(s)) return false;
  const d = s.charCodeAt(0);
  if ((d >= 48 && d <= 57) || d === 43 || d === 45 || d === 46) {
    if (SPECIAL_NUM_RE.test(s)) return BAIL;
    if (INT_RE.test(s)) {
      const n = parseInt(s, 10);
      return Number.isSafeInteger(n) ? n : BAIL;
    }
    if (FLOAT_RE.test(s) || FLOAT_EXP_RE.test(s)) return parseFloat(s);
  }
  return s;
}

/** A scalar value after `key: ` or `- `, possibly quoted. */
function scalar(raw: string, flow: boolean): Out {
  const s = raw.trim();
  if (s.length === 0) return null;
  const q = s[0];
  if (q === '"') {
    if (s.length < 2 || !s.endsWith('"') || s.includes('\\')) return BAIL;
    const inner = s.slice(1, -1);
    return inner.includes('"') ? BAIL : inner;
  }
  if (q === "'") {
    if (s.length < 2 || !s.endsWith("'")) return BAIL;
    const inner = s.slice(1, -1);
    if (inner.replace(/''/g, '').includes("'")) return BAIL;
    return inner.replace(/''/g, "'");
  }
  return plain(s, flow);
}

function flowSeq(s: string): Out {
  const inner = s.slice(1, -1).trim();
  if (inner.length === 0) return [];
  if (inner.includes('\\')) return BAIL;
  const items: unknown[] = [];
  let i = 0;
  while (i < inner.length) {
    while (inner[i] === ' ') i++;
    let j: number;
    if (inner[i] === '"' || inner[i] === "'") {
      const qc = inner[i]!;
      j = inner.indexOf(qc, i + 1);
      if (qc === "'") while (j >= 0 && inner[j + 1] === "'") j = inner.indexOf("'", j + 2);
      if (j < 0) return BAIL;
      j++;
      const after = inner.slice(j).trimStart();
      if (after.length > 0 && after[0] !== ',') return BAIL;
    } else {
      j = inner.indexOf(',', i);
      if (j < 0) j = inner.length;
    }
    if (inner.slice(i, j).trim() === '') return BAIL; // empty flow item: an error in YAML
    const v = scalar(inner.slice(i, j), true);
    if (v === BAIL) return BAIL;
    items.push(v);
    const comma = inner.indexOf(',', j);
    if (comma < 0) break;
    if (inner.slice(j, comma).trim() !== '') return BAIL;
    i = comma + 1;
    if (inner.slice(i).trim() === '') return BAIL; // trailing comma: leave to the full parser
  }
  return items;
}

/** One `k: v` line's value (after the key): a scalar or a flow list; null for an empty value (left to `yaml`). */
function pairValue(rest: string): Out {
  if (rest.length === 0) return BAIL; // `k:` alone may open a nested block
  if (rest[0] === '[') return rest.endsWith(']') ? flowSeq(rest) : BAIL;
  return scalar(rest, false);
}

/**
 * A flat map that is a block sequence item: its first key on line `start` after `- ` (at column `col`), the
 * others on the lines below at exactly that column. Ends at a blank-free line left of `col`; anything deeper,
 * or not a `k: v` line at `col`, declines (null).
 */
function flatMap(lines: string[], start: number, col: number, firstLine: number, strings: FastField['strings']): { value: Record<string, unknown>; next: number } | null {
  const value: Record<string, unknown> = {};
  const seen = new Set<string>();
  let i = start;
  while (i < lines.length) {
    let l = lines[i]!;
    if (l.endsWith('\r')) l = l.slice(0, -1);
    if (l.trim() === '') { i++; continue; }
    let ind = 0;
    while (l.charCodeAt(ind) === 32) ind++;
    if (i > start) {
      if (ind < col) break;
      if (ind > col) return null;
    }
    const text = l.slice(col);
    const m = KEY_RE.exec(text);
    if (!m || m[0].length > MAX_KEY) return null;
    const key = m[1]!.trimEnd();
    if (seen.has(key) || key === '__proto__' || NULL_RE.test(key) || TRUE_RE.test(key) || FALSE_RE.test(key)) return null;
    seen.add(key);
    const v = pairValue(text.slice(m[0].length).trimEnd());
    if (v === BAIL) return null;
    value[key] = v;
    const lineNo = firstLine + i;
    if (typeof v === 'string') strings.push({ text: v, line: lineNo });
    else if (Array.isArray(v)) for (const it of v) if (typeof it === 'string') strings.push({ text: it, line: lineNo });
    i++;
  }
  return { value, next: i };
}

/**
 * Parses simple frontmatter. `lines` are the YAML lines (no '---'), `firstLine`
 * the 1-based file line of lines[0]. Returns null when the text is outside the subset.
 */
export function fastFrontmatter(yaml: string, firstLine: number): FastField[] | null {
  if (yaml.includes('\t') || NOT_YAML_SPACE.test(yaml)) return null;
  const lines = yaml.split('\n');
  const fields: FastField[] = [];
  const seen = new Set<string>();
  let i = 0;
  const n = lines.length;
  while (i < n) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') { i++; continue; }
    const m = KEY_RE.exec(line);
    if (!m) return null;
    const key = m[1]!.trimEnd();
    if (m[0].length > MAX_KEY) return null;
    if (seen.has(key) || key === '__proto__' || NULL_RE.test(key) || TRUE_RE.test(key) || FALSE_RE.test(key)) return null;
    seen.add(key);
    const lineNo = firstLine + i;
    const rest = line.slice(m[0].length).trimEnd();
    const field: FastField = { key, line: lineNo, value: null, strings: [] };
    fields.push(field);
    i++;
    if (rest.length > 0) {
      let v: Out;
      if (rest[0] === '[') {
        if (!rest.endsWith(']')) return null;
        v = flowSeq(rest);
      } else v = scalar(rest, false);
      if (v === BAIL) return null;
      field.value = v;
      if (typeof v === 'string') field.strings.push({ text: v, line: lineNo });
      else if (Array.isArray(v)) for (const it of v) if (typeof it === 'string') field.strings.push({ text: it, line: lineNo });
      continue;
    }
    // `key:` then maybe a block sequence
    let indent = -1;
    const items: unknown[] = [];
    while (i < n) {
      let l = lines[i]!;
      if (l.endsWith('\r')) l = l.slice(0, -1);
      if (l.trim() === '') { i++; continue; }
      let ind = 0;
      while (l.charCodeAt(ind) === 32) ind++;
      if (indent < 0) {
        if (l[ind] !== '-' || (l.length > ind + 1 && l[ind + 1] !== ' ')) {
          if (ind > 0) return null; // an indented non-item: a nested map or a multi-line scalar
          break;
        }
        indent = ind;
      }
      if (ind !== indent) {
        if (ind > indent) return null;
        break;
      }
      if (l[ind] !== '-') {
        if (ind > 0) return null;
        break;
      }
      if (l.length > ind + 1 && l[ind + 1] !== ' ') return null;
      const itemText = l.slice(ind + 1).trim();
      if (itemText.startsWith('- ') || itemText === '-' || itemText[0] === '[' || itemText[0] === '{') return null;
      if (KEY_RE.test(itemText)) {
        // a map inside the list: `- k: v` then `  k2: v2` lines at the first key's column
        if (l[ind + 2] === ' ') return null;
        const map = flatMap(lines, i, ind + 2, firstLine, field.strings);
        if (map === null) return null;
        items.push(map.value);
        i = map.next;
        continue;
      }
      const v = scalar(itemText, false);
      if (v === BAIL) return null;
      items.push(v);
      if (typeof v === 'string') field.strings.push({ text: v, line: firstLine + i });
      i++;
    }
    // continuation lines after an item at deeper indent were refused above; a
    // following top-level line is a key (checked on the next loop turn)
    field.value = indent < 0 ? null : items;
  }
  return fields;
}
