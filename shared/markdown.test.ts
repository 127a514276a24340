import { describe, expect, it } from 'vitest';
import { obsidianMarkdown } from './markdown.js';

const seen: string[] = [];
const md = (html: boolean) => obsidianMarkdown({
  html,
  wikilink: (inner) => { seen.push(inner); return `<a data-l="${inner}">L</a>`; },
  embed: (inner) => `<E ${inner}>`,
  tag: (t) => `<T ${t}>`,
});

describe('obsidianMarkdown (the app panel and the exported site read notes alike)', () => {
  it('hands links and embeds to the caller by the one grammar, in tables too', () => {
    seen.length = 0;
    const out = md(false).render('See [[A#H|a]] and ![[B]]; not `[[Code]]`, not [[a]b]].\n\n| x |\n|---|\n| [[C\\|c]] |\n');
    // markdown-it's table reads the escaped pipe of a cell as a plain one: still one link
    expect(seen).toEqual(['A#H|a', 'C|c']);
    expect(out).toContain('<E B>');
    expect(out).toContain('<code>[[Code]]</code>');
    expect(out).toContain('[[a]b]]');
  });
  it('drops %% comments (inline and as a block), draws #tags, keeps callouts, footnotes and highlights', () => {
    const out = md(false).render('Seen %%hidden%% text #lore/npc and ==marked==[^1]\n\n%%\nblock secret\n%%\n\n> [!note] Title\n> body\n\n[^1]: foot');
    expect(out).not.toContain('hidden');
    expect(out).not.toContain('block secret');
    expect(out).toContain('<T lore/npc>');
    expect(out).toContain('<mark>marked</mark>');
    expect(out).toMatch(/callout/);
    expect(out).toMatch(/footnote/);
  });
  it('escapes raw HTML unless the caller sanitises it', () => {
    expect(md(false).render('<script>x()</script> <b>b</b>')).not.toContain('<script>');
    expect(md(true).render('<b>b</b>')).toContain('<b>b</b>');
  });
});
