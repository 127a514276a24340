/**
 * Read-only guard for user Cypher. The query is tokenised (string literals,
 * backtick identifiers and comments are skipped, property names after '.' are
 * not keywords) and refused with CoreError('cypher-refused') when any keyword
 * writes, loads or changes the session, or when CALL names a procedure that
 * is not on the read-only allow-list.
 */
import { CoreError } from '../../domain/errors.js';

const WRITE_KEYWORDS = new Set([
  'CREATE', 'MERGE', 'SET', 'DELETE', 'DETACH', 'REMOVE', 'DROP', 'ALTER', 'COPY', 'LOAD', 'INSTALL',
  'UNINSTALL', 'ATTACH', 'USE', 'EXPORT', 'IMPORT', 'CHECKPOINT', 'BEGIN', 'COMMIT', 'ROLLBACK', 'TRANSACTION',
]);

/** Procedures (table functions) that only read. Everything else under CALL is refused. */
const READ_ONLY_PROCS = new Set([
  'QUERY_FTS_INDEX', 'SHOW_TABLES', 'TABLE_INFO', 'SHOW_CONNECTION', 'SHOW_INDEXES', 'SHOW_FUNCTIONS',
  'SHOW_SEQUENCES', 'SHOW_ATTACHED_DATABASES', 'SHOW_PROJECTED_GRAPHS', 'SHOW_WARNINGS', 'CURRENT_SETTING',
  'DB_VERSION', 'STORAGE_INFO', 'STATS_INFO', 'SHOW_LOADED_EXTENSIONS', 'SHOW_OFFICIAL_EXTENSIONS',
]);

export interface Token { kind: 'word' | 'punct'; text: string }

/** Words and punctuation outside literals and comments. Throws on an unterminated literal or comment. */
export function tokenize(q: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = q.length;
  const refuse = (what: string): never => { throw new CoreError('cypher-refused', `query refused: unterminated ${what}`); };
  while (i < n) {
    const ch = q[i] as string;
    const nx = q[i + 1];
    if (/\s/.test(ch)) { i++; continue; }
    if (ch === '/' && nx === '/') { while (i < n && q[i] !== '\n') i++; continue; }
    if (ch === '/' && nx === '*') {
      const end = q.indexOf('*/', i + 2);
      if (end < 0) refuse('comment');
      i = end + 2;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1;
      for (;;) {
        if (j >= n) refuse(ch === '`' ? 'quoted identifier' : 'string literal');
        if (q[j] === '\\' && ch !== '`') { j += 2; continue; }
        if (q[j] === ch) {
          if (q[j + 1] === ch) { j += 2; continue; }
          break;
        }
        j++;
      }
      // quoted identifiers/literals are never keywords
      out.push({ kind: 'punct', text: ch === '`' ? 'IDENT' : 'LITERAL' });
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(q[j] as string)) j++;
      out.push({ kind: 'word', text: q.slice(i, j) });
      i = j;
      continue;
    }
    out.push({ kind: 'punct', text: ch });
    i++;
  }
  return out;
}

export function guardCypher(query: string): void {
  if (query.trim() === '') throw new CoreError('cypher-refused', 'query refused: it is empty');
  const toks = tokenize(query);
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k] as Token;
    if (t.kind !== 'word') continue;
    const prev = toks[k - 1];
    if (prev?.text === '.' || prev?.text === '$') continue; // property / parameter name
    const up = t.text.toUpperCase();
    if (WRITE_KEYWORDS.has(up)) {
      throw new CoreError('cypher-refused', `query refused: ${up} writes or loads data; only read-only Cypher (MATCH … RETURN) is allowed here`, { keyword: up });
    }
    if (up === 'CALL') {
      const next = toks[k + 1];
      if (next?.kind === 'word' && READ_ONLY_PROCS.has(next.text.toUpperCase())) continue;
      const name = next?.kind === 'word' ? next.text : next?.text ?? '';
      throw new CoreError('cypher-refused', `query refused: CALL ${name} is not a read-only procedure (allowed: ${[...READ_ONLY_PROCS].join(', ').toLowerCase()})`, { procedure: name });
    }
  }
}
