import cytoscape from 'cytoscape';
import { describe, expect, it, vi } from 'vitest';
import { strike, toElements } from './elements.js';
import { BIG_EDGE_WIDTH, BIG_LABEL_MIN_FONT, BLANK_IMAGE, CANVAS_STYLE } from './style.js';
import { skipOpacityZOrder, zCompare, type ZOrdered } from './zsorted.js';

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

/** The style an element gets from the rules whose simple selectors (type, classes, :selected) match, in order. */
function effective(group: 'node' | 'edge', classes: string, selected = false): Record<string, unknown> {
  const has = new Set(classes.split(' '));
  const out: Record<string, unknown> = {};
  for (const r of rules) {
    const hit = r.selector.split(',').some((sel) => {
      const m = /^(node|edge)?((?:\.[\w-]+)*)(:selected)?$/.exec(sel.trim());
      if (!m) return false;
      if (m[1] && m[1] !== group) return false;
      if (m[3] && !selected) return false;
      return (m[2] ?? '').split('.').filter(Boolean).every((c) => has.has(c));
    });
    if (hit) Object.assign(out, r.style);
  }
  return out;
}

describe('big graphs', () => {
  it('plain edges are hairlines (under a screen pixel) up to the zoom that fits such a graph', () => {
    const e = effective('edge', 'rel status-normal big');
    expect(e.width).toBe(BIG_EDGE_WIDTH);
    expect(BIG_EDGE_WIDTH * 1.6).toBeLessThan(1);
    expect(e['curve-style']).toBe('haystack');
    expect(e.label).toBe('');
    // small graphs keep their edges
    expect(effective('edge', 'rel status-normal').width).toBe(1.2);
  });

  it('touching, timeline and selected edges keep their widths and colours', () => {
    expect(effective('edge', 'rel status-normal big touching')).toMatchObject({ width: 2, 'line-color': '#1f2937', 'curve-style': 'straight' });
    expect(effective('edge', 'rel status-added big')).toMatchObject({ width: 3, 'line-color': '#16a34a' });
    expect(effective('edge', 'rel status-removed big')).toMatchObject({ 'line-color': '#b91c1c', 'line-style': 'dashed' });
    expect(effective('edge', 'rel status-normal big', true)).toMatchObject({ width: 3, 'line-color': '#2563eb', label: 'data(label)' });
  });

  it('node labels show from zoom 2 on; the selection and the focus root always show theirs', () => {
    // Cytoscape tests font-size x the zoom rounded up to a power of two against min-zoomed-font-size
    const shownAt = (s: Record<string, unknown>, zoom: number) =>
      (s['font-size'] as number) * 2 ** Math.ceil(Math.log2(zoom)) >= (s['min-zoomed-font-size'] as number);
    const n = effective('node', 'note status-normal big');
    expect(n['min-zoomed-font-size']).toBe(BIG_LABEL_MIN_FONT);
    expect(shownAt(n, 1.5)).toBe(false);
    expect(shownAt(n, 2.5)).toBe(true);
    expect(shownAt(effective('node', 'note status-normal big selected'), 0.3)).toBe(true);
    expect(shownAt(effective('node', 'note status-normal big focus-root'), 0.3)).toBe(true);
    // small graphs: from zoom 1 on, as before
    expect(shownAt(effective('node', 'note status-normal'), 1.5)).toBe(true);
    // timeline classes still apply to big nodes
    expect(effective('node', 'note status-dead big')).toMatchObject({ 'background-color': '#4b5563', label: 'data(struck)' });
  });
});

describe('Cytoscape accepts the stylesheet', () => {
  it('no rule is rejected (it once used text-decoration: line-through, refused on every load); dead and destroyed labels are struck', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const els = toElements({
      nodes: [
        { id: 'a', name: 'Varo', type: 'npc', layer: 'setting', path: 'npcs/varo.md', placeholder: false, tags: [] },
        { id: 'b', name: 'Mill', type: 'place', layer: 'setting', path: 'places/mill.md', placeholder: false, tags: [] },
      ],
      edges: [{ from: 'a', to: 'b', type: 'LOCATED_IN', field: 'location' }],
    }, { overlay: { session: 3, entities: { a: { status: 'dead' }, b: { status: 'destroyed' } }, addedEdges: [], removedEdges: [] } });
    const cy = cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE, elements: [...els.nodes, ...els.edges] as never });
    expect(cy.getElementById('a').style('label')).toBe(strike('Varo'));
    expect(cy.getElementById('b').style('label')).toBe(strike('Mill'));
    expect(strike('Mill')).toBe('M\u0336i\u0336l\u0336l\u0336');
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([]);
    warn.mockRestore();
    cy.destroy();
  });
});

describe('a timeline status restyle keeps the draw order', () => {
  /** 'zorder' notifications (each makes the renderer sort every element again before its next frame) over a scrub-like run of status changes */
  function zorders(style: cytoscape.StylesheetJson, skipOpacity = false): number {
    const cy = cytoscape({ headless: true, styleEnabled: true, style });
    if (skipOpacity) expect(skipOpacityZOrder(cy.style())).toBe(true);
    cy.add([
      { group: 'nodes', data: { id: 'a', label: 'A', struck: strike('A'), color: '#888', shape: 'ellipse', size: 20 }, classes: 'big' },
      { group: 'nodes', data: { id: 'b', label: 'B', struck: strike('B'), color: '#888', shape: 'ellipse', size: 20 }, classes: 'big' },
      { group: 'edges', data: { id: 'e', source: 'a', target: 'b', label: '' }, classes: 'big' },
    ]);
    // Cytoscape's parsed style of an element (missing from its typings): reading it applies pending class changes
    const read = (el: unknown) => (el as { pstyle(k: string): unknown }).pstyle('opacity');
    // styled once, as the renderer's first frame does
    cy.elements().forEach((el) => { read(el); });
    let n = 0;
    const c = cy as unknown as { notify(name: string, eles?: unknown): void };
    const orig = c.notify.bind(cy);
    c.notify = (name, eles) => { if (name === 'zorder') n++; orig(name, eles); };
    // Cytoscape applies a class's style when it is next read (as the renderer's next frame does)
    const set = (id: string, cls: string) => { const el = cy.getElementById(id); el.classes(`big ${cls}`); read(el); };
    for (let round = 0; round < 3; round++) {
      for (const s of ['status-not-yet-created', 'status-created', 'status-destroyed', '', 'status-dead', '']) set('a', s);
      for (const s of ['status-not-yet-created', '', 'status-destroyed']) set('b', s);
      for (const s of ['status-removed', '', 'status-added', '']) set('e', s);
    }
    cy.destroy();
    return n;
  }

  it('stating opacity 1 on every node and edge spares most re-sorts (Cytoscape counts an unset opacity as "could be 0")', () => {
    const unstated = (CANVAS_STYLE as unknown as Rule[]).map((r) => {
      if (r.selector !== 'node' && r.selector !== 'edge') return r;
      const { opacity: _o, ...rest } = r.style;
      return { ...r, style: rest };
    }) as unknown as cytoscape.StylesheetJson;
    const stated = zorders(CANVAS_STYLE), without = zorders(unstated);
    expect(without).toBeGreaterThan(10);
    expect(stated).toBeLessThan(without / 3);
  });

  it('with opacity left out of the z-order triggers, the same run sorts nothing again', () => {
    expect(zorders(CANVAS_STYLE, true)).toBe(0);
  });

  it('what that leaves out is read by neither the draw order nor the interactive list (opacity 0, 0.18, unset, 1)', () => {
    const cy = cytoscape({ headless: true, styleEnabled: true, style: CANVAS_STYLE });
    cy.add([
      { group: 'nodes', data: { id: 'a', label: 'A', struck: '', color: '#888', shape: 'ellipse', size: 20 } },
      { group: 'nodes', data: { id: 'b', label: 'B', struck: '', color: '#888', shape: 'ellipse', size: 20 } },
      { group: 'edges', data: { id: 'e', source: 'a', target: 'b', label: '' } },
    ]);
    const seen = new Set<string>();
    for (const o of [0, 0.18, null, 1]) {
      cy.elements().forEach((el) => { if (o === null) el.removeStyle('opacity'); else el.style('opacity', o); });
      const state = cy.elements().map((el) => `${el.id()}:${String((el as unknown as { interactive(): boolean }).interactive())}`).join(' ')
        + ' | ' + cy.elements().toArray().sort((x, y) => zCompare(x as unknown as ZOrdered, y as unknown as ZOrdered)).map((el) => el.id()).join(' ');
      seen.add(state);
    }
    expect([...seen]).toEqual(['a:true b:true e:true | e a b']);
    cy.destroy();
  });
});
