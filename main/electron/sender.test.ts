import { describe, expect, it } from 'vitest';
import { isRendererUrl } from './sender.js';

describe('isRendererUrl', () => {
  const built = 'file:///opt/Lorecraft/resources/app.asar/dist/renderer/index.html';
  it('accepts exactly our built renderer document', () => {
    expect(isRendererUrl(built, built)).toBe(true);
    expect(isRendererUrl(`${built}#/entity`, built)).toBe(true);
    expect(isRendererUrl('file:///tmp/evil/index.html', built)).toBe(false);
    expect(isRendererUrl('file:///opt/Lorecraft/resources/app.asar/dist/renderer/index.html.evil', built)).toBe(false);
    expect(isRendererUrl('https://example.org/', built)).toBe(false);
    expect(isRendererUrl(undefined, built)).toBe(false);
    expect(isRendererUrl('', built)).toBe(false);
  });
  it('accepts the dev server origin only', () => {
    const dev = 'http://127.0.0.1:5173/';
    expect(isRendererUrl('http://127.0.0.1:5173/', dev)).toBe(true);
    expect(isRendererUrl('http://127.0.0.1:5173/index.html?x=1', dev)).toBe(true);
    expect(isRendererUrl('http://127.0.0.1:5174/', dev)).toBe(false);
    expect(isRendererUrl('http://127.0.0.1:5173.evil.com/', dev)).toBe(false);
  });
});
