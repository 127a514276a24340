import { describe, expect, it } from 'vitest';
import { BLANK_IMAGE, CANVAS_STYLE } from './style.js';

type Rule = { selector: string; style: Record<string, unknown> };
const rules = CANVAS_STYLE as unknown as Rule[];

describe('canvas stylesheet', () => {
  it('gives every node a background image: Cytoscape 3.34 restyles an image-less node on every draw', () => {
    const base = rules.find((r) => r.selector === 'node')!;
    expect(base.style['background-image']).toBe(BLANK_IMAGE);
    // the blank image is never drawn (zero size)
    expect(base.style['background-width']).toBe(0);
    expect(base.style['background-height']).toBe(0);
    // no later rule takes the image away again
    for (const r of rules) expect(r.style['background-image'], r.selector).not.toBe('none');
  });

  it('an icon restores the image size the blank image zeroed', () => {
    const icon = rules.find((r) => r.selector === 'node[iconUrl != ""]')!;
    expect(icon.style).toMatchObject({ 'background-image': 'data(iconUrl)', 'background-width': 'auto', 'background-height': 'auto' });
  });

  it('the blank image is a data URL the renderer CSP allows (img-src data:)', () => {
    expect(BLANK_IMAGE.startsWith('data:image/gif;base64,')).toBe(true);
    expect(Buffer.from(BLANK_IMAGE.split(',')[1]!, 'base64').subarray(0, 6).toString()).toBe('GIF89a');
  });
});
