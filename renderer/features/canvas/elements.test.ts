import { describe, expect, it } from 'vitest';
import type { EntitySummary, GraphSnapshot } from '../../../shared/types.js';
import { DEFAULT_COLOR, PLACEHOLDER_COLOR, colourKey, defaultColor, linksByDefault, nodeSize, drawsDirect, edgeId, filterChoices, iconOf, iconSvg, relLabel, toElements } from './elements.js';

const node = (name: string, type: string | null, placeholder = false, tags: string[] = [], layer = 'setting'): EntitySummary =>
  ({ id: `${layer}/${name.toLowerCase()}`, name, type, layer, path: placeholder ? null : `${name}.md`, placeholder, tags });

const graph: GraphSnapshot = {
  nodes: [node('Mira', 'npc', false, ['spy']), node('Guild', 'faction'), node('Ghost', null, true), node('Odd', 'custom'), node('Tam', 'npc', false, [], 'campaign')],
  edges: [
    { from: 'setting/mira', to: 'setting/guild', type: 'MEMBER_OF', field: 'faction' },
    { from: 'setting/mira', to: 'setting/guild', type: 'MEMBER_OF', field: 'faction' },
    { from: 'setting/mira', to: 'setting/ghost', type: 'LINKS_TO', field: null },
    { from: 'setting/mira', to: 'setting/nowhere', type: 'KNOWS', field: 'knows' },
    { from: 'setting/mira', to: 'campaign/tam', type: 'KNOWS', field: 'knows' },
    { from: 'campaign/tam', to: 'setting/mira', type: 'KNOWS', field: 'knows' },
    { from: 'campaign/tam', to: 'setting/guild', type: 'LEADS', field: 'leader' },
  ],
};
const styles = [{ name: 'npc', color: '#3b6ea5', shape: 'ellipse', icon: '☺' }, { name: 'faction', color: '#8e3b46', shape: 'diamond' }, { name: 'custom', shape: 'blob' }];
const relTypes = [
  { name: 'MEMBER_OF', inverse: 'HAS_MEMBER', symmetric: false },
  { name: 'KNOWS', symmetric: true },
  { name: 'LEADS', inverse: 'LED_BY', symmetric: false },
];
const ids = (els: { data: { id: string } }[]) => els.map((e) => e.data.id);
const byId = <T extends { data: { id: string } }>(els: T[], id: string): T => els.find((e) => e.data.id === id)!;

describe('toElements', () => {
  it('makes one node per entity styled by its type (schema ui.types, else defaults), placeholders greyed', () => {
    const { nodes } = toElements(graph, { styles });
    expect(byId(nodes, 'setting/mira').data).toMatchObject({ label: 'Mira', color: '#3b6ea5', shape: 'ellipse', type: 'npc', icon: '☺', status: 'normal' });
    expect(byId(nodes, 'setting/guild').data).toMatchObject({ color: '#8e3b46', shape: 'diamond', icon: 'F' });
    expect(byId(nodes, 'setting/ghost').data.color).toBe(PLACEHOLDER_COLOR);
    expect(byId(nodes, 'setting/ghost').classes).toContain('placeholder');
    // unknown shape falls back; a type without a colour gets a stable palette colour
    expect(byId(nodes, 'setting/odd').data.shape).toBe('ellipse');
    expect(byId(nodes, 'setting/odd').data.color).toBe(defaultColor('custom'));
    expect(defaultColor(null)).toBe(DEFAULT_COLOR);
    expect(defaultColor('custom')).toBe(defaultColor('custom'));
  });

  it('dedupes edges, drops edges to missing nodes, classes body links apart, labels by relationship', () => {
    const { edges } = toElements(graph, { styles, relTypes, filters: { showLinks: true } });
    expect(ids(edges)).toEqual([
      edgeId('setting/mira', 'MEMBER_OF', 'setting/guild'),
      edgeId('setting/mira', 'LINKS_TO', 'setting/ghost'),
      edgeId('campaign/tam', 'KNOWS', 'setting/mira'),
      edgeId('campaign/tam', 'LEADS', 'setting/guild'),
    ]);
    expect(edges[0]!.classes).toBe('rel status-normal');
    expect(edges[0]!.data.label).toBe('member of');
    expect(edges[1]!.classes).toContain('link');
    expect(edges[1]!.data.label).toBe('');
  });

  it('draws a symmetric type once, undirected; an inverse-declared field in its stored direction', () => {
    const { edges } = toElements(graph, { relTypes });
    const knows = edges.filter((e) => e.data.type === 'KNOWS');
    expect(knows).toHaveLength(1);
    expect(knows[0]!.data.symmetric).toBe(true);
    expect(knows[0]!.classes).toContain('symmetric');
    // a faction's `leader:` field is stored as npc LEADS faction: drawn from the npc
    const leads = edges.find((e) => e.data.type === 'LEADS')!;
    expect([leads.data.source, leads.data.target, leads.data.label]).toEqual(['campaign/tam', 'setting/guild', 'leads']);
    expect(leads.classes).not.toContain('symmetric');
  });

  it('marks the selection and the edges touching it; bigger nodes for more edges; pinned class', () => {
    const { nodes, edges } = toElements(graph, { styles, selectedId: 'setting/guild', pinned: new Set(['setting/odd']) });
    expect(byId(nodes, 'setting/guild').classes).toContain('selected');
    expect(edges[0]!.classes).toContain('touching');
    expect(edges[1]!.classes).not.toContain('touching');
    expect(byId(nodes, 'setting/mira').data.size).toBeGreaterThan(byId(nodes, 'setting/odd').data.size);
    expect(byId(nodes, 'setting/odd').classes).toContain('pinned');
    expect(byId(nodes, 'setting/mira').classes).not.toContain('pinned');
  });

  it('filters by type, layer, tag, relationship type, links and placeholders', () => {
    expect(ids(toElements(graph, { filters: { showLinks: false, showPlaceholders: false } }).nodes)).not.toContain('setting/ghost');
    expect(toElements(graph, { filters: { showLinks: false } }).edges.map((e) => e.data.type)).not.toContain('LINKS_TO');
    const npcs = toElements(graph, { relTypes, filters: { types: ['npc'] } });
    expect(ids(npcs.nodes)).toEqual(['setting/mira', 'campaign/tam']);
    expect(npcs.edges.map((e) => e.data.type)).toEqual(['KNOWS']);
    expect(ids(toElements(graph, { filters: { layers: ['campaign'] } }).nodes)).toEqual(['campaign/tam']);
    expect(ids(toElements(graph, { filters: { tags: ['spy'] } }).nodes)).toEqual(['setting/mira']);
    expect(toElements(graph, { filters: { relTypes: ['MEMBER_OF'] } }).edges.map((e) => e.data.type)).toEqual(['MEMBER_OF']);
    // empty lists restrict nothing
    expect(toElements(graph, { filters: { types: [], tags: [] } }).nodes).toHaveLength(5);
  });

  it('focus keeps only the neighbourhood (root always shown, even if filtered out)', () => {
    const { nodes, edges } = toElements(graph, { focus: { root: 'setting/guild', ids: ['setting/mira'] }, filters: { types: ['npc'] } });
    expect(ids(nodes)).toEqual(['setting/mira', 'setting/guild']);
    expect(byId(nodes, 'setting/guild').classes).toContain('focus-root');
    expect(edges.map((e) => e.data.type)).toEqual(['MEMBER_OF']);
  });

  it('overlay: node statuses, removed edges marked, added edges marked or drawn when absent', () => {
    const { nodes, edges } = toElements(graph, {
      relTypes,
      overlay: {
        session: 3,
        entities: { 'setting/mira': { status: 'dead', note: 'slain in session 3' }, 'setting/guild': { status: 'destroyed' }, 'campaign/tam': { status: 'not-yet-created' } },
        removedEdges: [{ from: 'setting/mira', to: 'setting/guild', type: 'MEMBER_OF' }],
        addedEdges: [{ from: 'setting/guild', to: 'campaign/tam', type: 'HOSTILE_TO' }, { from: 'setting/mira', to: 'campaign/tam', type: 'KNOWS' }],
      },
    });
    expect(byId(nodes, 'setting/mira').data).toMatchObject({ status: 'dead', note: 'slain in session 3' });
    expect(byId(nodes, 'setting/mira').classes).toContain('status-dead');
    expect(byId(nodes, 'setting/guild').data.status).toBe('destroyed');
    expect(byId(nodes, 'campaign/tam').classes).toContain('status-not-yet-created');
    expect(byId(nodes, 'setting/odd').data.status).toBe('normal');
    expect(byId(edges, edgeId('setting/mira', 'MEMBER_OF', 'setting/guild')).data.status).toBe('removed');
    expect(byId(edges, edgeId('setting/mira', 'MEMBER_OF', 'setting/guild')).classes).toContain('status-removed');
    expect(byId(edges, edgeId('setting/guild', 'HOSTILE_TO', 'campaign/tam')).data.status).toBe('added');
    // symmetric: the overlay's direction does not matter
    expect(byId(edges, edgeId('campaign/tam', 'KNOWS', 'setting/mira')).data.status).toBe('added');
  });

  it('big graphs: every element gets class big (cheaper drawing); small ones do not', () => {
    const big = toElements(graph, { bigAt: 5 });
    expect(big.nodes.every((n) => n.classes.split(' ').includes('big'))).toBe(true);
    expect(big.edges.every((e) => e.classes.split(' ').includes('big'))).toBe(true);
    const small = toElements(graph, { bigAt: 6 });
    expect([...small.nodes, ...small.edges].some((e) => e.classes.includes('big'))).toBe(false);
    // a big graph is drawn without Cytoscape's texture caches
    expect(drawsDirect(big)).toBe(true);
    expect(drawsDirect(small)).toBe(false);
    expect(drawsDirect({ nodes: [], edges: [] })).toBe(false);
  });

  it('labels, icons and filter choices', () => {
    expect(relLabel('HAS_MEMBER')).toBe('has member');
    expect(iconOf('npc', undefined)).toBe('N');
    expect(iconOf('npc', 'a-long-icon-name')).toBe('N');
    expect(iconSvg('')).toBe('');
    expect(decodeURIComponent(iconSvg('<'))).toContain('>&#60;</text>');
    const { nodes } = toElements(graph, { styles });
    expect(byId(nodes, 'setting/mira').data.iconUrl).toBe(iconSvg('☺'));
    expect(toElements(graph, { styles, bigAt: 1 }).nodes[0]!.data.iconUrl).toBe('');
    expect(filterChoices(graph)).toEqual({
      types: ['custom', 'faction', 'npc'], layers: ['campaign', 'setting'], tags: ['spy'],
      relTypes: ['KNOWS', 'LEADS', 'LINKS_TO', 'MEMBER_OF'],
    });
  });
});

describe('legible by default (issues 15.5, 20.4)', () => {
  it('body links are off where the world has typed relationships, on where they are all it has; the filter overrides', () => {
    const types = (g: GraphSnapshot, showLinks?: boolean) => toElements(g, { filters: { showLinks } }).edges.map((e) => e.data.type);
    expect(linksByDefault(graph)).toBe(false);
    expect(types(graph)).not.toContain('LINKS_TO');
    expect(types(graph, true)).toContain('LINKS_TO');
    const linksOnly: GraphSnapshot = { nodes: graph.nodes, edges: [{ from: 'setting/mira', to: 'setting/guild', type: 'LINKS_TO', field: null }] };
    expect(linksByDefault(linksOnly)).toBe(true);
    expect(types(linksOnly)).toEqual(['LINKS_TO']);
    expect(types(linksOnly, false)).toEqual([]);
  });

  it('an untyped vault is coloured by top-level folder; a typed one by type', () => {
    const u = (name: string, path: string): EntitySummary => ({ id: name, name, type: null, layer: 'setting', path, placeholder: false, tags: [] });
    const g: GraphSnapshot = { nodes: [u('a', 'Characters/a.md'), u('b', 'Characters/sub/b.md'), u('c', 'World/c.md'), u('d', 'd.md')], edges: [] };
    const col = Object.fromEntries(toElements(g).nodes.map((n) => [n.data.id, n.data.color]));
    expect(col.a).toBe(col.b);
    expect(col.a).toBe(defaultColor('folder:Characters'));
    expect(col.c).toBe(defaultColor('folder:World'));
    expect(col.a).not.toBe(DEFAULT_COLOR);
    expect(colourKey(g.nodes[0]!, true)).toBe(null);
    expect(colourKey(graph.nodes[0]!, true)).toBe('npc');
  });

  it('node size shrinks as more nodes show and grows with importance (PageRank when given, else degree)', () => {
    expect(nodeSize(20, 0)).toBeGreaterThan(nodeSize(5000, 0));
    expect(nodeSize(5000, 1)).toBeGreaterThan(nodeSize(5000, 0));
    const ranked = toElements(graph, { rank: new Map([['setting/odd', 0.9], ['setting/mira', 0.1]]) }).nodes;
    expect(byId(ranked, 'setting/odd').data.importance).toBe(1);
    expect(byId(ranked, 'setting/odd').data.size).toBeGreaterThan(byId(ranked, 'setting/mira').data.size);
    const byDegree = toElements(graph).nodes;
    expect(byId(byDegree, 'setting/mira').data.importance).toBe(1);
    expect(byId(byDegree, 'setting/odd').data.importance).toBe(0);
  });

  it("the selected node's neighbours are marked `near`", () => {
    const { nodes } = toElements(graph, { relTypes, selectedId: 'setting/guild' });
    expect(byId(nodes, 'setting/mira').classes).toContain('near');
    expect(byId(nodes, 'campaign/tam').classes).toContain('near');
    expect(byId(nodes, 'setting/odd').classes).not.toContain('near');
    expect(byId(nodes, 'setting/guild').classes).toContain('selected');
  });
});

describe('focus by depth', () => {
  it('walks the edges the canvas shows: body links count only when shown, filters apply, the root always shows', () => {
    const shown = (o: Parameters<typeof toElements>[1]) => ids(toElements(graph, o).nodes).sort();
    // Ghost is reached only by a body link (off by default here)
    expect(shown({ focus: { root: 'setting/mira', depth: 1 } })).toEqual(['campaign/tam', 'setting/guild', 'setting/mira']);
    expect(shown({ focus: { root: 'setting/mira', depth: 1 }, filters: { showLinks: true } })).toContain('setting/ghost');
    expect(shown({ focus: { root: 'setting/odd', depth: 2 } })).toEqual(['setting/odd']);
    // two hops from Ghost over the shown body link: Mira, then her neighbours
    expect(shown({ focus: { root: 'setting/ghost', depth: 2 }, filters: { showLinks: true } }))
      .toEqual(['campaign/tam', 'setting/ghost', 'setting/guild', 'setting/mira']);
    expect(shown({ focus: { root: 'setting/guild', depth: 1 }, filters: { types: ['npc'] } })).toEqual(['campaign/tam', 'setting/guild', 'setting/mira']);
  });
});

describe('a focus walks its neighbourhood only (the per-graph incident index)', () => {
  it('draws what the whole graph would, restricted to the nodes within depth hops: same elements, same order', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const nodes = Array.from({ length: 300 }, (_, i) => node(`N${i}`, ['npc', 'faction', null][i % 3]!, i % 17 === 0, i % 5 ? [] : ['t']));
    const types = ['KNOWS', 'MEMBER_OF', 'LINKS_TO', 'LEADS'];
    const edges = Array.from({ length: 900 }, (_, i) => ({ from: nodes[Math.floor(rnd() * 300)]!.id, to: nodes[Math.floor(rnd() * 300)]!.id, type: types[i % 4]!, field: null }));
    const g: GraphSnapshot = { nodes, edges };
    const relTypes = [{ name: 'KNOWS', symmetric: true }] as never;
    for (const filters of [{}, { types: ['npc'] }, { relTypes: ['KNOWS', 'LEADS'], showLinks: true }, { tags: ['t'] }]) {
      for (const root of [nodes[3]!.id, nodes[40]!.id, nodes[255]!.id]) {
        for (const depth of [1, 2, 3]) {
          // the reference: every node within depth hops over the whole graph's visible edges (a full scan)
          const full = toElements(g, { filters, relTypes, bigAt: 1e9 });
          // a root the filters hide is shown with its edges anyway: covered in 'focus by depth' above
          if (!full.nodes.some((n) => n.data.id === root)) continue;
          const adj = new Map<string, string[]>();
          for (const e of full.edges) {
            adj.set(e.data.source, [...(adj.get(e.data.source) ?? []), e.data.target]);
            adj.set(e.data.target, [...(adj.get(e.data.target) ?? []), e.data.source]);
          }
          const want = new Set([root]);
          let ring = [root];
          for (let d = 0; d < depth; d++) ring = ring.flatMap((id) => (adj.get(id) ?? []).filter((m) => !want.has(m) && (want.add(m), true)));
          const got = toElements(g, { filters, relTypes, bigAt: 1e9, focus: { root, depth } });
          expect(got.nodes.map((n) => n.data.id)).toEqual(nodes.map((n) => n.id).filter((id) => want.has(id)));
          expect(got.edges.map((e) => e.data.id)).toEqual(full.edges.filter((e) => want.has(e.data.source) && want.has(e.data.target)).map((e) => e.data.id));
        }
      }
    }
  });
});
