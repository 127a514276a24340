/**
 * Output budget and pagination for MCP tool results.
 *
 * Contract: no tool result (its text plus its structuredContent) exceeds the
 * budget, estimated at ~4 characters per token. Lists that do not fit are cut
 * and carry `truncated: true` and an opaque `next_cursor`; the text says so.
 * The reference memory server's read_graph floods the context
 * (modelcontextprotocol/servers#3953): this is the answer to that.
 */
import { createHash } from 'node:crypto';
import { CoreError } from '../domain/errors.js';

export const DEFAULT_BUDGET_TOKENS = 8000;
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Characters allowed for the structured JSON: text repeats it, so half the budget, minus room for the summary line. */
export function structuredCharBudget(budgetTokens: number): number {
  return Math.max(200, Math.floor((budgetTokens * CHARS_PER_TOKEN) / 2) - 300);
}

export function jsonSize(v: unknown): number {
  return (JSON.stringify(v) ?? "null").length;
}

// ---------------------------------------------------------------- cursors

interface CursorState { t: string; k: string; o: number }

/** A key binding a cursor to the tool and the arguments that produced it (minus the cursor itself). */
export function cursorKey(tool: string, args: Record<string, unknown>): string {
  const { cursor: _c, ...rest } = args;
  const stable = JSON.stringify(Object.keys(rest).sort().map((k) => [k, rest[k]]));
  return createHash('sha256').update(tool + '\0' + stable).digest('base64url').slice(0, 12);
}

export function encodeCursor(tool: string, key: string, offset: number): string {
  return Buffer.from(JSON.stringify({ t: tool, k: key, o: offset } satisfies CursorState)).toString('base64url');
}

/** Offset encoded in a cursor; 0 when none. Refuses a cursor from another tool or other arguments. */
export function decodeCursor(tool: string, key: string, cursor: string | undefined): number {
  if (!cursor) return 0;
  let st: Partial<CursorState>;
  try {
    st = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorState>;
  } catch {
    throw new CoreError('bad-cursor', `cursor is not valid: pass the next_cursor of a previous ${tool} call unchanged`);
  }
  if (st.t !== tool || typeof st.o !== 'number' || !Number.isInteger(st.o) || st.o < 0) {
    throw new CoreError('bad-cursor', `cursor is not valid for ${tool}: pass the next_cursor of a previous ${tool} call unchanged`);
  }
  if (st.k !== key) {
    throw new CoreError('bad-cursor', `cursor belongs to a ${tool} call with other arguments: repeat the same arguments with it`);
  }
  return st.o;
}

// ---------------------------------------------------------------- fitting

/**
 * The largest n such that `build(items.slice(0, n))` serialises within `maxChars`
 * (binary search; the build is monotone in n). Returns at least 0.
 * Contract: `build` serialises every item of its slice at least once, so the
 * items' own sizes bound n from above — a 10,000-step traversal is never
 * stringified whole.
 */
export function fitCount<T>(items: T[], maxChars: number, build: (slice: T[]) => unknown): number {
  let hi = 0;
  for (let sum = 0; hi < items.length; hi++) {
    sum += jsonSize(items[hi]) + 1;
    if (sum > maxChars) break;
  }
  if (hi === items.length && jsonSize(build(items)) <= maxChars) return items.length;
  let lo = 0;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonSize(build(items.slice(0, mid))) <= maxChars) lo = mid; else hi = mid - 1;
  }
  return lo;
}

export interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  next_cursor: string | null;
  truncated: boolean;
}

/**
 * Cut `all` (starting at the cursor's offset) to what fits in `maxChars` once
 * wrapped by `wrap`, capped at `limit` items. At least one item is returned
 * when any remains (it is the caller's job to clip a single huge item).
 */
export function paginate<T>(opts: {
  tool: string;
  args: Record<string, unknown>;
  all: T[];
  maxChars: number;
  limit?: number;
  /** the real size of the list when `all` holds only its first items (a search reads offset + limit + 1) */
  total?: number;
  wrap: (page: Page<T>) => unknown;
}): Page<T> {
  const key = cursorKey(opts.tool, opts.args);
  const offset = decodeCursor(opts.tool, key, opts.args.cursor as string | undefined);
  const rest = opts.all.slice(offset, opts.limit !== undefined ? offset + opts.limit : undefined);
  const mk = (items: T[]): Page<T> => {
    const end = offset + items.length;
    const more = end < opts.all.length;
    return {
      items, total: Math.max(opts.total ?? 0, opts.all.length), offset,
      next_cursor: more ? encodeCursor(opts.tool, key, end) : null,
      truncated: more,
    };
  };
  const n = Math.max(Math.min(1, rest.length), fitCount(rest, opts.maxChars, (s) => opts.wrap(mk(s))));
  return mk(rest.slice(0, n));
}

/** Clip a string to `max` characters, marking the cut. */
export function clip(s: string, max: number): { text: string; clipped: boolean } {
  if (s.length <= max) return { text: s, clipped: false };
  return { text: s.slice(0, Math.max(0, max - 1)) + '…', clipped: true };
}
