/**
 * The text Kùzu's full-text tokenizer sees (kuzu 0.11.3, CREATE_FTS_INDEX with the defaults we use), and what
 * the Entity table stores as a note's `body`.
 *
 * A huge body (over HUGE_BODY_CHARS, store/types.ts) is not stored whole: Kùzu keeps a string value at ~9× its size while it
 * loads it (a 9.5 MB body: +85–93 MB of resident memory, whichever way it is loaded: COPY from JSON or CSV,
 * `SET` by parameter, in one value or in 64 KB rows). Such a body is stored as its first ≤ 64 KB (cut at a
 * space: whole tokens), the marker BODY_WORDS_MARK, then every other distinct token of the body once. Kùzu's
 * tokenizer finds in that text exactly the set of terms it finds in the whole body, so search finds a word
 * anywhere in a huge note; what changes for such a note is its term frequencies and length (each word counted
 * once: BM25 ranks it as a note of its distinct words). Notes up to HUGE_BODY_CHARS are stored as they are.
 * The note's real body stays in its file (and the model reads it from there: sync/body.ts).
 */
import { HUGE_BODY_CHARS } from '../types.js';
import { KUZU_DEFAULT_STOPWORDS } from './fts-stopwords.js';

/** Kùzu's default FTS ignore pattern (fts_config.h) as a JS regex: an ASCII-only class, so UTF-16 and UTF-8 agree. */
export const IGNORE = /[0-9!@#$%^&*()_+={}[\]:;<>,.?~/|'"`-]+/g;
export const STOP: ReadonlySet<string> = new Set(KUZU_DEFAULT_STOPWORDS);
// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL
export const NON_ASCII = /[^\x00-\x7f]/;

/** Texts longer than this are tokenized in pieces (a 9 MB note split at once made ~1.5M strings at a time). */
const PIECE_CHARS = 65536;

/**
 * `text` in pieces of about PIECE_CHARS, each ending just after a ' ' (the one token separator: a token never
 * spans two pieces, and lower-casing a piece that ends in a space equals lower-casing its part of the whole).
 */
export function* pieces(text: string, size = PIECE_CHARS): Generator<string> {
  let start = 0;
  while (text.length - start > size) {
    let cut = text.lastIndexOf(' ', start + size);
    if (cut < start) cut = text.indexOf(' ', start + size);
    if (cut < 0) break;
    yield text.slice(start, cut + 1);
    start = cut + 1;
  }
  if (start < text.length) yield start === 0 ? text : text.slice(start);
}

/** The stored prefix of a huge body: at most this many characters, ending before a ' '. */
const PREFIX_CHARS = 65536;
/**
 * Between a huge body's prefix and its words: only characters of IGNORE between spaces, so it adds no token and
 * glues none (search's snippet reads the prefix only).
 */
export const BODY_WORDS_MARK = ' ~|~#0#~|~ ';

/**
 * What the Entity table stores as `body` (see above): `body` itself up to `huge` characters, else its prefix,
 * BODY_WORDS_MARK and each token of the body not in the prefix, once, as first written (ASCII tokens compared
 * lower-cased: Kùzu lower-cases them alike; non-ASCII tokens as written; stop words left out: Kùzu drops them). Tokens are Kùzu's: the text
 * with IGNORE's characters as spaces, split at ' ' (a token may hold a line break).
 */
export function storedBody(body: string, huge = HUGE_BODY_CHARS, prefixChars = PREFIX_CHARS): string {
  if (body.length <= huge) return body;
  let cut = body.lastIndexOf(' ', prefixChars);
  if (cut < 0) cut = 0;
  const prefix = body.slice(0, cut);
  const seen = new Set<string>();
  const add = (piece: string, out: string[] | null): void => {
    for (const t of piece.replace(IGNORE, ' ').split(' ')) {
      if (t.length === 0) continue;
      let key = t;
      if (!NON_ASCII.test(t)) { key = t.toLowerCase(); if (STOP.has(key)) continue; }
      if (seen.has(key)) continue;
      seen.add(key);
      out?.push(t);
    }
  };
  add(prefix, null);
  const words: string[] = [];
  for (const piece of pieces(cut === 0 ? body : body.slice(cut))) add(piece, words);
  // a flat copy: the prefix is a slice of the body, and the row must not keep the whole body alive
  return (' ' + prefix + BODY_WORDS_MARK + words.join(' ')).slice(1);
}

/** The part of a stored body that is the note's own text (all of it, unless storedBody shortened it). */
export function storedBodyText(stored: string): { text: string; shortened: boolean } {
  const at = stored.indexOf(BODY_WORDS_MARK);
  return at < 0 ? { text: stored, shortened: false } : { text: stored.slice(0, at), shortened: true };
}
