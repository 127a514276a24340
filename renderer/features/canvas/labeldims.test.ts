import { describe, expect, it } from 'vitest';
import { installLabelDimsMemo, LABEL_DIMS_MAX, type LabelDims } from './labeldims.js';

type Style = Record<string, { strValue?: string; pfValue?: number }>;
const ele = (font: { style?: string; weight?: string; size?: number; family?: string; metrics?: string }) => {
  const s: Style = {
    'font-style': { strValue: font.style ?? 'normal' }, 'font-weight': { strValue: font.weight ?? 'normal' },
    'font-size': { pfValue: font.size ?? 12 }, 'font-family': { strValue: font.family ?? 'sans-serif' },
    'text-metrics': { strValue: font.metrics ?? 'font' },
  };
  return { pstyle: (n: string) => s[n]! };
};

/** a stand-in measure that depends on every part of the font and on the text, and counts its calls */
function renderer() {
  const r = {
    calls: 0,
    calculateLabelDimensions(e: ReturnType<typeof ele>, text: string): LabelDims {
      r.calls++;
      const k = ['font-style', 'font-weight', 'font-family', 'text-metrics'].map((n) => e.pstyle(n).strValue!.length).reduce((a, b) => a * 7 + b, 0);
      const size = e.pstyle('font-size').pfValue!;
      return { width: text.length * size + k, height: size + k % 3, labelActualAscent: k % 5, labelActualDescent: text.length % 4 };
    },
  };
  return r;
}

describe('installLabelDimsMemo', () => {
  it('answers as the renderer does for every font and text, measuring each pair once', () => {
    const plain = renderer(), memo = renderer();
    const m = installLabelDimsMemo(memo)!;
    const fonts = [{}, { style: 'italic' }, { weight: 'bold' }, { size: 14 }, { family: 'serif' }, { metrics: 'glyph' }];
    const texts = ['Aldric', '† Aldric', 'Keep', 'Aldric\nthe Grey', ''];
    let rnd = 7;
    for (let i = 0; i < 400; i++) {
      rnd = (rnd * 1103515245 + 12345) % 2 ** 31;
      const e = ele(fonts[rnd % fonts.length]!), text = texts[(rnd >> 8) % texts.length]!;
      expect(memo.calculateLabelDimensions(e, text)).toEqual(plain.calculateLabelDimensions(e, text));
    }
    expect(memo.calls).toBe(m.size);
    expect(memo.calls).toBeLessThanOrEqual(fonts.length * texts.length);
    expect(m.hits).toBe(400 - memo.calls);
  });

  it('gives each caller its own copy, starts again when full or when a font has loaded, and leaves a renderer without the method alone', () => {
    const r = renderer();
    let loaded: (() => void) | null = null;
    const m = installLabelDimsMemo(r, { addEventListener: (t, f) => { if (t === 'loadingdone') loaded = f; } })!;
    const a = r.calculateLabelDimensions(ele({}), 'x');
    a.width = -1;
    expect(r.calculateLabelDimensions(ele({}), 'x').width).not.toBe(-1);
    expect(r.calls).toBe(1);
    loaded!();
    r.calculateLabelDimensions(ele({}), 'x');
    expect(r.calls).toBe(2);
    for (let i = 0; i <= LABEL_DIMS_MAX; i++) r.calculateLabelDimensions(ele({}), `t${i}`);
    expect(m.size).toBeLessThanOrEqual(LABEL_DIMS_MAX);
    expect(installLabelDimsMemo({})).toBeNull();
  });
});
