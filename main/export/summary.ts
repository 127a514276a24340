/** A short plain-text summary of an exported entity: its `summary` / `description` property, else its body's first paragraph. */
import { replaceLinks } from '../../shared/wikilinks.js';
import type { WorldEntity } from '../visibility/world.js';

/** a link as the text a reader sees: its label, else its target's name (attachments and embeds drop out) */
export function linkText(markdown: string): string {
  return replaceLinks(markdown, (link, embed, _raw, inner) => (embed ? '' : link ? link.label ?? link.name : inner.replace(/\|.*$/, '')));
}

/** `[[Target|label]]` -> label, `[[Target]]` -> Target; markdown emphasis and headings stripped */
export function plainText(markdown: string): string {
  return linkText(markdown)
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^>\s?(\[![^\]]*\][+-]?\s*)?/gm, '')
    .replace(/[*_`~]{1,3}([^*_`~\n]+)[*_`~]{1,3}/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function summaryOf(e: WorldEntity, max = 400): string {
  for (const k of ['summary', 'description', 'blurb']) {
    const v = e.properties[k];
    if (typeof v === 'string' && v.trim()) return clip(plainText(v), max);
  }
  const para = plainText(e.body).split(/\n\s*\n/).find((p) => p.trim()) ?? '';
  return clip(para.replace(/\s+/g, ' '), max);
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1).replace(/\s+\S*$/, '') + '…';
}
