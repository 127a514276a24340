/**
 * Note embeds (`![[Note]]`, `![[Note#Heading]]`, `![[Note#^block]]`): markdown.ts
 * leaves a placeholder `<span class="embed" data-embed="Note" data-embed-heading="...">`;
 * `fillEmbeds` fetches each target's body, cuts the section asked for, renders
 * it (sanitised, like the panel) and recurses into the embeds it holds, at most
 * MAX_EMBED_DEPTH deep and never into a note already on the way (a cycle).
 */
import { escapeHtml } from './markdown.js';

export const MAX_EMBED_DEPTH = 3;

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Normalised heading text, as Obsidian matches `#Heading` (case and spacing insensitive). */
function norm(s: string): string {
  return s.replace(/[*_`[\]]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The part of a body a `#ref` names: a heading's section (up to the next heading
 * of the same or a higher level), or with `^id` the block (paragraph or list
 * item) ending with `^id`; the whole body for ''; null when not found.
 */
export function sectionOf(body: string, ref: string): string | null {
  if (!ref) return body;
  const lines = body.split(/\r?\n/);
  if (ref.startsWith('^')) {
    const id = ref.slice(1);
    const i = lines.findIndex((l) => new RegExp(`(^|\\s)\\^${id.replace(/[^\w-]/g, '')}\\s*$`).test(l));
    if (i < 0 || !id) return null;
    let start = i;
    // back to the paragraph's start: a blank line or a heading above; a list item is its own block
    while (start > 0 && lines[start - 1]!.trim() && !HEADING.test(lines[start - 1]!) && !/^\s*([-*+]|\d+\.)\s/.test(lines[start]!)) start--;
    return lines.slice(start, i + 1).join('\n').replace(/\s\^[\w-]+\s*$/, '');
  }
  // `Note#A#B`: the last heading named (Obsidian's nested heading path)
  const want = norm(ref.split('#').filter(Boolean).pop() ?? '');
  let fence: string | null = null;
  let start = -1;
  let level = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const f = FENCE.exec(line);
    if (f) { fence = fence === null ? f[1]![0]! : line.trim().startsWith(fence) ? null : fence; continue; }
    if (fence !== null) continue;
    const h = HEADING.exec(line);
    if (!h) continue;
    if (start >= 0 && h[1]!.length <= level) return lines.slice(start, i).join('\n');
    if (start < 0 && norm(h[2]!) === want) { start = i; level = h[1]!.length; }
  }
  return start >= 0 ? lines.slice(start).join('\n') : null;
}

export interface EmbedSource {
  /** the target's id, name and body; null when no note has that name */
  get(name: string): Promise<{ id: string; name: string; body: string } | null>;
  /** markdown -> sanitised HTML (renderProse with the shell's asset URL) */
  render(markdown: string): string;
}

/** Fill every unfilled embed under `root` (depth 1 = embeds in the note itself). */
export async function fillEmbeds(root: Element, src: EmbedSource, chain: string[] = [], depth = 1): Promise<void> {
  // placeholders hold only their title link, and a filled one is marked: these are this level's own
  const spans = Array.from(root.querySelectorAll<HTMLElement>('.embed[data-embed]:not([data-embed-state])'));
  await Promise.all(spans.map(async (el) => {
    const name = el.getAttribute('data-embed') ?? '';
    const heading = el.getAttribute('data-embed-heading') ?? '';
    const box = document.createElement('div');
    box.className = 'embed-body';
    el.appendChild(box);
    if (chain.some((c) => c.toLowerCase() === name.toLowerCase())) return done(el, box, 'cycle', `${name} embeds itself: not shown again`);
    if (depth > MAX_EMBED_DEPTH) return done(el, box, 'too-deep', 'embedded too deep: open the note to read it');
    el.setAttribute('data-embed-state', 'loading');
    const target = await src.get(name).catch(() => null);
    if (!target) return done(el, box, 'missing', `no note named “${name}” yet`);
    const part = sectionOf(target.body, heading);
    if (part === null) return done(el, box, 'missing', `no section “${heading}” in ${target.name}`);
    el.setAttribute('data-entity-id', target.id);
    box.innerHTML = src.render(part);
    el.setAttribute('data-embed-state', 'ready');
    await fillEmbeds(box, src, [...chain, name, target.name], depth + 1);
  }));
}

function done(el: HTMLElement, box: HTMLElement, state: string, text: string): void {
  el.setAttribute('data-embed-state', state);
  box.innerHTML = `<span class="embed-note">${escapeHtml(text)}</span>`;
}
