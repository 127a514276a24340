/**
 * `--format lorebook`: a SillyTavern World Info file. One entry per entity the
 * audience sees (placeholders have nothing to say and are left out): keys from
 * its name and aliases, content from its summary, properties and relationships
 * at the session; `order` by importance (higher = more important).
 */
import type { WorldView } from '../visibility/world.js';
import { byImportance, importance } from './importance.js';
import { plainText, summaryOf } from './summary.js';

/** the body as plain text after the summary (when the summary is its first paragraph), up to ~2,000 characters */
function bodyText(e: WorldView['entities'][number], summary: string): string {
  const text = plainText(e.body).replace(/\s+/g, ' ').trim();
  const rest = summary && text.startsWith(summary.replace(/…$/, '')) ? text.slice(summary.replace(/…$/, '').length).trim() : text;
  return rest.length > 2000 ? rest.slice(0, 1999) + '…' : rest;
}

const show = (v: unknown): string => (Array.isArray(v) ? v.map(show).join(', ') : v !== null && typeof v === 'object' ? JSON.stringify(v) : plainText(String(v)));

export function lorebook(view: WorldView): string {
  const rank = importance(view);
  const names = new Map(view.entities.map((e) => [e.id, e.name]));
  const rels = new Map<string, string[]>();
  for (const r of view.relationships) {
    if (r.type === 'LINKS_TO') continue;
    rels.set(r.from, [...(rels.get(r.from) ?? []), `${r.type} ${names.get(r.to)}`]);
  }
  const ordered = byImportance(view.entities.filter((e) => !e.placeholder), rank);
  const entries: Record<string, unknown> = {};
  ordered.forEach((e, i) => {
    const props = Object.entries(e.properties).filter(([k]) => !['summary', 'description', 'blurb'].includes(k)).map(([k, v]) => `${k}: ${show(v)}`);
    const content = [
      `${e.name}${e.type ? ` (${e.type})` : ''}${e.dead ? ' — dead' : e.lifecycle === 'destroyed' ? ' — destroyed' : ''}.`,
      summaryOf(e, 600),
      bodyText(e, summaryOf(e, 600)),
      props.length ? `Facts: ${props.join('; ')}.` : '',
      rels.get(e.id)?.length ? `Relationships: ${rels.get(e.id)!.join('; ')}.` : '',
    ].filter(Boolean).join('\n');
    entries[String(i)] = {
      uid: i, key: [e.name, ...e.aliases], keysecondary: [], comment: e.name, content,
      constant: false, vectorized: false, selective: true, selectiveLogic: 0, addMemo: true,
      order: ordered.length - i, position: 0, disable: false, excludeRecursion: false, preventRecursion: false,
      delayUntilRecursion: false, probability: 100, useProbability: true, depth: 4, group: '', groupOverride: false,
      groupWeight: 100, scanDepth: null, caseSensitive: null, matchWholeWords: null, useGroupScoring: null,
      automationId: '', role: null, sticky: 0, cooldown: 0, delay: 0, displayIndex: i,
    };
  });
  return JSON.stringify({
    name: `${view.project} (${view.audience}${view.session !== null ? `, session ${view.session}` : ''})`,
    description: `Exported by Lorecraft from layer ${view.layer}${view.session !== null ? ` as of session ${view.session}` : ''}, for the ${view.audience === 'gm' ? 'GM' : 'players'}.`,
    entries,
  }, null, 2) + '\n';
}
