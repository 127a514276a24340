// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { renderProse, wikiTarget } from './markdown.js';

const asset = (ref: string) => `/vault-file/${encodeURIComponent(ref)}`;
/** rendered into a detached element, to ask the DOM rather than match strings */
function dom(body: string, opts = { assetUrl: asset }): HTMLElement {
  const el = document.createElement('article');
  el.innerHTML = renderProse(body, opts);
  return el;
}

afterEach(() => { delete (globalThis as { pwned?: unknown }).pwned; });

describe('renderProse: markdown and wikilinks', () => {
  it('renders markdown and wikilinks (with label and heading) as clickable links', () => {
    const html = renderProse('# Hi\n\nSee [[Westport]], [[Red Hand|the Hand]] and [[Oldmere#Harbour]].');
    expect(html).toContain('<h1>Hi</h1>');
    expect(html).toContain('<a href="#" class="wikilink" data-wikilink="Westport">Westport</a>');
    expect(html).toContain('data-wikilink="Red Hand">the Hand</a>');
    expect(html).toContain('data-wikilink="Oldmere">Oldmere › Harbour</a>');
  });

  it('escapes quotes inside a wikilink target', () => {
    expect(dom('[[a"b]]').querySelector('a.wikilink')!.getAttribute('data-wikilink')).toBe('a"b');
  });

  it('splits wiki targets', () => {
    expect(wikiTarget('Note#Part|shown')).toEqual({ target: 'Note', heading: 'Part', label: 'shown' });
    expect(wikiTarget('img.png|250')).toEqual({ target: 'img.png', heading: '', label: '250' });
  });
});

describe('renderProse: Obsidian constructs', () => {
  it('callouts: type, title, icon, foldable + (open) and - (closed), nested', () => {
    const el = dom('> [!warning] Mind the gap\n> Body **text**\n\n> [!tip]- Folded\n> hidden\n\n> [!note]+ Open\n> > [!bug] Inner\n> > deep');
    const warn = el.querySelector('.callout[data-callout="warning"]')!;
    expect(warn.querySelector('.callout-title-inner')!.textContent).toBe('Mind the gap');
    expect(warn.querySelector('.callout-title-icon svg')).not.toBeNull();
    expect(warn.querySelector('.callout-content strong')!.textContent).toBe('text');
    const folded = el.querySelector('details.callout[data-callout="tip"]') as HTMLDetailsElement;
    expect(folded.open).toBe(false);
    expect(folded.querySelector('summary')!.textContent).toContain('Folded');
    const open = el.querySelector('details.callout[data-callout="note"]') as HTMLDetailsElement;
    expect(open.open).toBe(true);
    expect(open.querySelector('.callout[data-callout="bug"] .callout-content')!.textContent).toContain('deep');
    expect(el.textContent).not.toContain('[!');
  });

  it('a plain quote stays a quote', () => {
    const el = dom('> just a quote');
    expect(el.querySelector('blockquote')!.textContent!.trim()).toBe('just a quote');
    expect(el.querySelector('.callout')).toBeNull();
  });

  it('==highlight== is <mark>', () => {
    expect(dom('a ==bright== b').querySelector('mark')!.textContent).toBe('bright');
  });

  it('footnotes: reference and note, linked by in-page anchors', () => {
    const el = dom('Claim[^1].\n\n[^1]: The source.');
    const ref = el.querySelector('sup.footnote-ref a')!;
    expect(ref.getAttribute('href')).toMatch(/^#fn/);
    expect(el.querySelector('section.footnotes li')!.textContent).toContain('The source.');
  });

  it('%%comments%% are hidden: inline, across lines, as a block, unclosed', () => {
    const el = dom('Seen %%secret one%% seen.\n\nA %%two\nlines%% B\n\n%%\nblock secret\n\nstill secret\n%%\n\nAfter.\n\n`code %%kept%%`');
    const text = el.textContent!;
    expect(text).not.toContain('secret');
    expect(text).not.toContain('two');
    expect(text).toContain('Seen  seen.');
    expect(text).toContain('A  B');
    expect(text).toContain('After.');
    expect(el.querySelector('code')!.textContent).toBe('code %%kept%%');
    // unclosed inside a paragraph: the rest of that paragraph; unclosed at a block start: the rest of the note
    expect(dom('Open %%to the end\nof it\n\nshown').textContent).toBe('Open \nshown\n');
    expect(dom('Shown\n\n%%\nnot shown\n\nnor this').textContent!.trim()).toBe('Shown');
  });

  it('image embeds: vault asset URL, |250 width, |WxH, alt', () => {
    const el = dom('![[map of the isles.png|250]] ![[art/b.jpg|100x50]] ![[c.webp|A drawing]]');
    const [a, b, c] = Array.from(el.querySelectorAll('img'));
    expect(a!.getAttribute('src')).toBe('/vault-file/map%20of%20the%20isles.png');
    expect(a!.getAttribute('width')).toBe('250');
    expect(b!.getAttribute('src')).toBe('/vault-file/art%2Fb.jpg');
    expect([b!.getAttribute('width'), b!.getAttribute('height')]).toEqual(['100', '50']);
    expect(c!.getAttribute('alt')).toBe('A drawing');
  });

  it('markdown images: vault-relative paths go through the asset route, remote ones are not loaded', () => {
    const el = dom('![local](maps/x.png) ![remote](https://example.org/x.png) ![abs](/etc/passwd)');
    const [local, remote, abs] = Array.from(el.querySelectorAll('img'));
    expect(local!.getAttribute('src')).toBe('/vault-file/maps%2Fx.png');
    expect(remote!.hasAttribute('src')).toBe(false);
    expect(abs!.hasAttribute('src')).toBe(false);
  });

  it('note embeds: a placeholder naming the target and heading, with a link', () => {
    const el = dom('![[Westport#History]]\n\n![[Oldmere]]');
    const [a, b] = Array.from(el.querySelectorAll('.embed'));
    expect([a!.getAttribute('data-embed'), a!.getAttribute('data-embed-heading')]).toEqual(['Westport', 'History']);
    expect(b!.getAttribute('data-embed')).toBe('Oldmere');
    expect(b!.querySelector('a.wikilink')!.getAttribute('data-wikilink')).toBe('Oldmere');
  });

  it('inline #tags are tag pills; headings, numbers, URL fragments and code are not', () => {
    const el = dom('Tagged #lore/place and #CotF, not #123 nor page#part nor `#code`.\n\n# Heading');
    expect(Array.from(el.querySelectorAll('.tag')).map((t) => t.getAttribute('data-tag'))).toEqual(['lore/place', 'CotF']);
    expect(el.querySelector('h1')!.textContent).toBe('Heading');
  });

  it('dataview blocks are shown as code, not run', () => {
    const el = dom('```dataview\nTABLE file.name FROM "NPCs"\n```\n\n```dataviewjs\ndv.list([1])\n```');
    const codes = Array.from(el.querySelectorAll('pre code'));
    expect(codes.map((c) => c.className)).toEqual(['language-dataview', 'language-dataviewjs']);
    expect(codes[0]!.textContent).toContain('TABLE file.name');
    expect(el.querySelector('script')).toBeNull();
  });
});

describe('renderProse: raw HTML is sanitised, never executed', () => {
  it('keeps an infobox table, drops script, handlers and javascript: links', () => {
    const body = '<table class="infobox"><tr><th>Ruler</th><td onclick="globalThis.pwned=1">Queen</td></tr></table>\n\n'
      + '<script>globalThis.pwned = 1</script>\n\nx <img src=x onerror="globalThis.pwned=1"> [a](javascript:alert(1)) <a href="javascript:alert(1)">b</a> [c](https://example.org)\n\n'
      + '<style>body{display:none}</style><iframe src="https://example.org"></iframe><svg><script>globalThis.pwned=1</script></svg>';
    const el = dom(body);
    expect(el.querySelector('table.infobox td')!.textContent).toBe('Queen');
    expect(el.innerHTML).not.toMatch(/<script|onerror|onclick|<style|<iframe/i);
    for (const a of Array.from(el.querySelectorAll('a'))) expect(a.getAttribute('href') ?? '').not.toMatch(/javascript/i);
    expect(el.querySelector('a.dead-link')!.textContent).toBe('b');
    const img = el.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/vault-file/x');
    const ext = el.querySelector('a.external')!;
    expect(ext.getAttribute('href')).toBe('https://example.org');
    expect(ext.getAttribute('rel')).toBe('noopener noreferrer');
    expect(ext.getAttribute('target')).toBe('_blank');
    document.body.appendChild(el);
    el.querySelector('td')!.dispatchEvent(new Event('click'));
    img.dispatchEvent(new Event('error'));
    el.remove();
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it('loads nothing else: media elements, SVG image/use references, srcset', () => {
    const el = dom('<video src="file:///etc/passwd"></video><audio><source src="x.mp3"></audio>'
      + '<svg><image href="file:///etc/hosts"></image><use xlink:href="#x"></use></svg><img src="a.png" srcset="https://example.org/b.png 2x">');
    expect(el.querySelector('video, audio, source')).toBeNull();
    expect(el.querySelector('[href], [xlink\\:href]')).toBeNull();
    expect(el.querySelector('img')!.hasAttribute('srcset')).toBe(false);
    expect(el.querySelector('img')!.getAttribute('src')).toBe('/vault-file/a.png');
  });

  it('without an asset URL maker, images load nothing', () => {
    const el = dom('![[a.png]] <img src="b.png">', { assetUrl: undefined as unknown as typeof asset });
    for (const img of Array.from(el.querySelectorAll('img'))) expect(img.hasAttribute('src')).toBe(false);
  });
});
