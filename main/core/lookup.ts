/**
 * In-memory name lookup and completion over entity names, aliases and file
 * names (rebuilt lazily when the model changes). Confidence, as api.ts says:
 * 1 exact name, 0.9 exact alias, 0.8 file name, below 0.8 prefix / fuzzy.
 */
import { normaliseName } from '../../shared/names.js';
import type { EntityRecord, EntitySummary } from '../../shared/types.js';
import { normKey } from '../model/names.js';
import type { LookupMatch } from './api.js';

interface Entry { key: string; text: string; kind: 'name' | 'alias' | 'filename'; entity: EntityRecord }

const KIND_CONF = { name: 1, alias: 0.9, filename: 0.8 } as const;

export function summaryOf(e: EntityRecord): EntitySummary {
  return { id: e.id, name: e.name, type: e.type, layer: e.layer, path: e.path, placeholder: e.placeholder, tags: e.tags };
}

export class NameLookup {
  /**
   * every entry; once sorted (ready()), by key (stable: a key's entries in the order they were added), and exact
   * matches are a range of it
   */
  private entries: Entry[] = [];
  private sorted = false;
  /** questions asked so far: the first is answered by passes over the entries as added, a later one sorts them */
  private asked = 0;

  constructor(entities: Iterable<EntityRecord>) {
    for (const e of entities) {
      const nameKey = this.add(e.name, 'name', e);
      for (const a of e.aliases) this.add(a, 'alias', e);
      if (e.path) {
        // the file name without /\.md$/i (no regular expression per entity); a note named by its file name (most)
        // is compared in place, without slicing the name out
        const p = e.path;
        let end = p.length;
        if (end >= 3 && p.charCodeAt(end - 3) === 46 && (p.charCodeAt(end - 2) | 32) === 109 && (p.charCodeAt(end - 1) | 32) === 100) end -= 3;
        const start = p.lastIndexOf('/') + 1;
        if (end - start === e.name.length && p.startsWith(e.name, start)) continue;
        const base = p.slice(start, end);
        if (normKey(base) !== nameKey) this.add(base, 'filename', e);
      }
    }
  }

  /**
   * Whether the entries are sorted for this question. The first question a lookup is asked is answered without
   * sorting them (a cold open's first name search: the sort was a third of its time at 10k notes, where one pass
   * over the entries answers it); a later one sorts them first (exact matches and prefixes by binary search).
   */
  private ready(): boolean {
    if (this.sorted) return true;
    if (this.asked++ === 0) return false;
    this.entries.sort(byKey);
    this.sorted = true;
    return true;
  }

  /** the key `text` is found under (normaliseName's, by normKey's fast path: a first lookup builds this) */
  private add(text: string, kind: Entry['kind'], entity: EntityRecord): string {
    const key = normKey(text);
    if (!key) return key;
    this.entries.push({ key, text, kind, entity });
    return key;
  }

  /** Exact matches only (name, alias, file name). */
  exactMatches(text: string): LookupMatch[] {
    return this.exact(normaliseName(text), this.ready());
  }

  /** The entries of key `q` in the order they were added (a range of the sorted entries, or a pass over them), ranked. */
  private exact(q: string, sorted: boolean): LookupMatch[] {
    const out: LookupMatch[] = [];
    const put = (en: Entry) => { out.push({ entity: summaryOf(en.entity), confidence: conf(KIND_CONF[en.kind], en), matchedOn: en.kind, matchedText: en.text }); };
    if (sorted) for (let i = this.lowerBound(q); i < this.entries.length && this.entries[i]!.key === q; i++) put(this.entries[i]!);
    else for (const en of this.entries) if (en.key === q) put(en);
    return rank(out);
  }

  /** The first entry whose key is not below `q` (the sorted entries' binary search). */
  private lowerBound(q: string): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.entries[mid]!.key < q) lo = mid + 1; else hi = mid; }
    return lo;
  }

  /**
   * Resolve a name: exact matches (and longer names it is a prefix of) when
   * there are any; otherwise the completion candidates (suggest).
   */
  lookup(text: string, limit = 10): LookupMatch[] {
    return this.complete(text, limit, true);
  }

  /** Completion: exact, prefix, word-prefix, then fuzzy (subsequence or small edit distance); one per entity. */
  suggest(text: string, limit = 10): LookupMatch[] {
    return this.complete(text, limit, false);
  }

  private complete(text: string, limit: number, exactWins: boolean): LookupMatch[] {
    const q = normaliseName(text);
    if (!q) return [];
    const sorted = this.ready();
    const best = new Map<string, LookupMatch>();
    const offer = (m: LookupMatch) => {
      const cur = best.get(m.entity.id);
      if (!cur || cur.confidence < m.confidence) best.set(m.entity.id, m);
    };
    // the same for an entry: its match (and summary) made only when it would be kept
    const offerEntry = (en: Entry, confidence: number, matchedOn: LookupMatch['matchedOn']) => {
      const cur = best.get(en.entity.id);
      if (!cur || cur.confidence < confidence) best.set(en.entity.id, { entity: summaryOf(en.entity), confidence, matchedOn, matchedText: en.text });
    };
    for (const m of this.exact(q, sorted)) offer(m);
    // prefix: binary search the sorted keys; unsorted, the entries that have it, in the order sorting gives them
    /** false once enough are kept */
    const prefix = (en: Entry): boolean => {
      if (en.key === q) return true;
      offerEntry(en, conf(0.6 + 0.19 * (q.length / en.key.length), en), 'prefix');
      return best.size < limit * 4;
    };
    if (sorted) {
      for (let i = this.lowerBound(q); i < this.entries.length && this.entries[i]!.key.startsWith(q); i++) if (!prefix(this.entries[i]!)) break;
    } else {
      for (const en of this.entries.filter((x) => x.key.startsWith(q)).sort(byKey)) if (!prefix(en)) break;
    }
    let hadExact = false;
    for (const m of best.values()) if (m.confidence >= 0.72) { hadExact = true; break; }
    if (best.size < limit && !(exactWins && hadExact)) {
      const maxEdits = q.length <= 4 ? 1 : 2;
      /** the match `en` would be offered (a word prefix, a subsequence, a few edits), or null */
      const near = (en: Entry): { c: number; on: LookupMatch['matchedOn'] } | null => {
        if (wordPrefix(en.key, q)) return { c: conf(0.5 + 0.09 * (q.length / en.key.length), en), on: 'prefix' };
        const f = fuzzy(en.key, q);
        if (f > 0) return { c: conf(0.2 + 0.29 * f, en), on: 'fuzzy' };
        if (q.length >= 3 && Math.abs(en.key.length - q.length) <= maxEdits) {
          const d = editDistance(en.key, q, maxEdits);
          if (d <= maxEdits) return { c: conf(0.45 - 0.1 * d, en), on: 'fuzzy' };
        }
        return null;
      };
      if (sorted) {
        for (const en of this.entries) {
          const cur = best.get(en.entity.id);
          if (cur && cur.confidence >= 0.5) continue;
          const m = near(en);
          if (m) offerEntry(en, m.c, m.on);
        }
      } else {
        // the entries that would be offered something, taken in the sorted order (what is kept depends on it: the
        // first of an entity's entries that tie wins); an entry offered nothing changes nothing, so skipping the
        // others is the sorted pass's result
        const hits: Array<{ en: Entry; c: number; on: LookupMatch['matchedOn'] }> = [];
        for (const en of this.entries) { const m = near(en); if (m) hits.push({ en, ...m }); }
        hits.sort((a, b) => byKey(a.en, b.en));
        for (const { en, c, on } of hits) {
          const cur = best.get(en.entity.id);
          if (cur && cur.confidence >= 0.5) continue;
          offerEntry(en, c, on);
        }
      }
    }
    return rank([...best.values()]).slice(0, limit);
  }
}

/** Entries by key (Array.prototype.sort is stable: a key's entries stay in the order they were added). */
function byKey(a: Entry, b: Entry): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Placeholders rank a little below real notes with the same match. */
function conf(c: number, en: Entry): number {
  return Math.round((en.entity.placeholder ? c * 0.9 : c) * 1000) / 1000;
}

function rank(l: LookupMatch[]): LookupMatch[] {
  return l.sort((a, b) => b.confidence - a.confidence || a.entity.name.localeCompare(b.entity.name) || a.entity.id.localeCompare(b.entity.id));
}

function wordPrefix(key: string, q: string): boolean {
  for (let i = key.indexOf(' '); i >= 0; i = key.indexOf(' ', i + 1)) if (key.startsWith(q, i + 1)) return true;
  return false;
}

/** Levenshtein distance, giving up (returning max + 1) once it exceeds `max`. */
function editDistance(a: string, b: string, max: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Subsequence match quality in (0,1]: 0 when q is not a subsequence of key. Short queries only match compactly. */
function fuzzy(key: string, q: string): number {
  if (q.length < 2 || q.length > key.length) return 0;
  let j = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; i < key.length && j < q.length; i++) {
    if (key[i] === q[j]) { if (first < 0) first = i; last = i; j++; }
  }
  if (j < q.length) return 0;
  const span = last - first + 1;
  if (q.length < 4 && span > q.length * 2) return 0;
  return (q.length / span) * (q.length / key.length) ** 0.25;
}
