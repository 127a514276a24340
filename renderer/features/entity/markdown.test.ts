import { describe, expect, it } from 'vitest';
import { renderProse } from './markdown.js';

describe('renderProse', () => {
  it('renders markdown and wikilinks (with label and heading) as clickable links', () => {
    const html = renderProse('# Hi\n\nSee [[Westport]], [[Red Hand|the Hand]] and [[Oldmere#Harbour]].');
    expect(html).toContain('<h1>Hi</h1>');
    expect(html).toContain('<a href="#" class="wikilink" data-wikilink="Westport">Westport</a>');
    expect(html).toContain('data-wikilink="Red Hand">the Hand</a>');
    expect(html).toContain('data-wikilink="Oldmere">Oldmere</a>');
  });

  it('escapes raw HTML and refuses script-ish link targets', () => {
    const html = renderProse('<script>alert(1)</script>\n\nx <img src=x onerror=alert(1)> [a](javascript:alert(1)) [b](https://example.org)');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="https://example.org" class="external" target="_blank" rel="noopener noreferrer">b</a>');
  });

  it('escapes quotes inside a wikilink target', () => {
    expect(renderProse('[[a"b]]')).toContain('data-wikilink="a&quot;b"');
  });
});
