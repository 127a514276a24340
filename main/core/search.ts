/**
 * Search as the user means it: the entity first. Fuses the name index
 * (lookup.ts: names, aliases, file names; exact, prefix, fuzzy) with the
 * full-text index (store: names+aliases, tags, body; BM25) into tiers:
 *   0 exact name or alias (or file name), 1 name/alias prefix (also a word of it),
 *   2 fuzzy name and full-text name/alias word matches, 3 tags, 4 body mentions.
 * An entity appears once, in its best tier. Within a tier, lookup confidence then
 * BM25 decide. `score` = (5 - tier) * 10 + a part in [0, 10): higher is better,
 * and any tier outranks every lower one.
 */
import { normaliseName } from '../../shared/names.js';
import type { SearchHit } from '../../shared/types.js';
import { mark, queryTerms } from '../store/kuzu/search.js';
import type { LookupMatch } from './api.js';

export interface SearchOpts { layer?: string; type?: string; limit: number }

interface Ranked { hit: SearchHit; tier: number; conf: number; fts: number }

function tierOf(m: LookupMatch): number {
  return m.matchedOn === 'prefix' ? 1 : m.matchedOn === 'fuzzy' ? 2 : 0;
}

/** A hit from the name index: `matched` says whether the name or an alias matched, and the snippet shows that alias. */
function lookupHit(m: LookupMatch, terms: string[]): SearchHit {
  const onName = m.matchedOn === 'name' || normaliseName(m.matchedText) === normaliseName(m.entity.name);
  if (onName) return { entity: m.entity, score: 0, snippet: mark(m.entity.name, terms), matched: 'name' };
  // an alias, or a file name that differs from the name (shown the same way: what the user typed matched it)
  return { entity: m.entity, score: 0, snippet: `${m.entity.name} (${mark(m.matchedText, terms)})`, matched: 'alias', alias: m.matchedText };
}

/** `names`: the name index's matches for `text` (any number); `fts`: the full-text hits, already filtered by layer/type. */
export function rankSearch(text: string, names: readonly LookupMatch[], fts: readonly SearchHit[], opts: SearchOpts): SearchHit[] {
  const terms = queryTerms(text);
  const by = new Map<string, Ranked>();
  const offer = (r: Ranked): void => {
    const cur = by.get(r.hit.entity.id);
    if (!cur) { by.set(r.hit.entity.id, r); return; }
    if (r.tier < cur.tier || (r.tier === cur.tier && r.conf > cur.conf)) by.set(r.hit.entity.id, { ...r, fts: Math.max(r.fts, cur.fts) });
    else cur.fts = Math.max(cur.fts, r.fts);
  };
  for (const m of names) {
    const e = m.entity;
    if (e.placeholder) continue;
    if (opts.layer !== undefined && e.layer !== opts.layer) continue;
    if (opts.type !== undefined && e.type !== opts.type) continue;
    offer({ hit: lookupHit(m, terms), tier: tierOf(m), conf: m.confidence, fts: 0 });
  }
  for (const h of fts) {
    const tier = h.matched === 'name' || h.matched === 'alias' ? 2 : h.matched === 'tag' ? 3 : 4;
    offer({ hit: h, tier, conf: 0, fts: h.score });
  }
  const within = (r: Ranked): number => Math.min(9.999, r.conf * 6 + Math.min(15, r.fts) / 4);
  return [...by.values()]
    .map((r) => ({ ...r.hit, score: Math.round(((5 - r.tier) * 10 + within(r)) * 1000) / 1000 }))
    .sort((a, b) => b.score - a.score || a.entity.name.localeCompare(b.entity.name) || a.entity.id.localeCompare(b.entity.id))
    .slice(0, opts.limit);
}
