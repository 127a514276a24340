// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fillEmbeds, MAX_EMBED_DEPTH, sectionOf } from './embeds.js';
import { renderProse } from './markdown.js';

const BODY = '# Top\nintro\n\n## History\nold days\n### Founding\nfirst stone\n## Keeper\nMaren ^keeper-line\n\n```\n## not a heading\n```\n';

describe('sectionOf', () => {
  it('a heading section runs to the next heading of the same or higher level', () => {
    expect(sectionOf(BODY, 'History')).toBe('## History\nold days\n### Founding\nfirst stone');
    expect(sectionOf(BODY, 'founding')).toBe('### Founding\nfirst stone');
    expect(sectionOf(BODY, 'History#Founding')).toBe('### Founding\nfirst stone');
    expect(sectionOf(BODY, '')).toBe(BODY);
    expect(sectionOf(BODY, 'not a heading')).toBeNull();
    expect(sectionOf(BODY, 'Nowhere')).toBeNull();
  });

  it('a ^block reference is that paragraph, without its id', () => {
    expect(sectionOf(BODY, '^keeper-line')).toBe('Maren');
    expect(sectionOf('a\nb ^x\n\nc', '^x')).toBe('a\nb');
    expect(sectionOf(BODY, '^nope')).toBeNull();
  });
});

describe('fillEmbeds', () => {
  const notes: Record<string, string> = {
    a: 'A text ![[b]]',
    b: 'B text ![[a]] and ![[c#Part]]',
    c: '# Part\nC part\n# Other\nnot this',
    deep1: '![[deep2]]', deep2: '![[deep3]]', deep3: '![[deep4]]', deep4: 'bottom',
  };
  const src = {
    get: async (n: string) => (notes[n] === undefined ? null : { id: `w/${n}`, name: n, body: notes[n]! }),
    render: (md: string) => renderProse(md),
  };
  const root = (md: string) => { const el = document.createElement('article'); el.innerHTML = renderProse(md); return el; };

  it('fills embeds with the rendered target, recursively; a cycle is not followed', async () => {
    const el = root('![[a]]');
    await fillEmbeds(el, src, ['self']);
    const a = el.querySelector('.embed[data-embed="a"]')!;
    expect(a.getAttribute('data-embed-state')).toBe('ready');
    expect(a.getAttribute('data-entity-id')).toBe('w/a');
    const b = a.querySelector('.embed[data-embed="b"]')!;
    expect(b.textContent).toContain('B text');
    expect(b.querySelector('.embed[data-embed="a"]')!.getAttribute('data-embed-state')).toBe('cycle');
    const c = b.querySelector('.embed[data-embed="c"]')!;
    expect(c.textContent).toContain('C part');
    expect(c.textContent).not.toContain('not this');
  });

  it('stops at the depth limit, and says when a note or section is missing', async () => {
    const el = root('![[deep1]] ![[ghost]] ![[c#Nope]]');
    await fillEmbeds(el, src, []);
    const states = Array.from(el.querySelectorAll('.embed')).map((e) => `${e.getAttribute('data-embed')}:${e.getAttribute('data-embed-state')}`);
    expect(MAX_EMBED_DEPTH).toBe(3);
    expect(states).toEqual(['deep1:ready', 'deep2:ready', 'deep3:ready', 'deep4:too-deep', 'ghost:missing', 'c:missing']);
    expect(el.textContent).not.toContain('bottom');
  });
});
