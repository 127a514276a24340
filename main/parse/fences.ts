/**
 * The one frontmatter splitter, used by the parser (main/parse/parse.ts) and the
 * editor (main/edit/frontmatter.ts): a note has frontmatter when its first line
 * (after a BOM, which the caller skips) is `---`, closed by the next line that is
 * `---` or `...`. Trailing spaces and tabs on a fence line are allowed; fence
 * lines end in \n or \r\n. Offsets are into the text given.
 */
export interface Fences {
  /** the YAML between the fences: text.slice(yamlStart, yamlEnd) */
  yamlStart: number;
  yamlEnd: number;
  /** where the body starts (after the closing fence's line end) */
  bodyStart: number;
  /** 1-based line of the body's first line */
  bodyLine: number;
  /** the opening fence's line end */
  eol: '\n' | '\r\n';
}

const OPEN = /^---[ \t]*(\r?\n)/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/gm;

/** null: no frontmatter; 'unclosed': an opening fence with no closing one. `from`: where the note starts (after a BOM). */
export function findFences(text: string, from = 0): Fences | null | 'unclosed' {
  const open = OPEN.exec(from ? text.slice(from) : text);
  if (!open) return null;
  const yamlStart = from + open[0].length;
  const tail = text.slice(yamlStart);
  CLOSE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CLOSE.exec(tail))) {
    // the closing fence must start a line: at offset 0 of the tail or right after a newline
    if (m.index === 0 || tail[m.index - 1] === '\n') {
      let lines = 2; // the opening fence and the closing one
      for (let i = 0; i < m.index; i++) if (tail.charCodeAt(i) === 10) lines++;
      return { yamlStart, yamlEnd: yamlStart + m.index, bodyStart: yamlStart + m.index + m[0].length, bodyLine: lines + 1, eol: open[1] as '\n' | '\r\n' };
    }
  }
  return 'unclosed';
}
