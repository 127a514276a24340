import { describe, expect, it } from 'vitest';
import { CompactGraphZ, decodeGraph, encodeGraph } from './graph-compact.js';
import type { GraphSnapshot } from './types.js';

/** a generated snapshot with every shape a node and an edge can take (null type/path/field, placeholders, shared tags) */
function world(n: number): GraphSnapshot {
  const nodes: GraphSnapshot['nodes'] = [];
  for (let i = 0; i < n; i++) {
    nodes.push({
      id: `world/n${i}`, name: `Név ${i}`, type: i % 5 === 0 ? null : ['npc', 'place', 'faction'][i % 3]!,
      layer: i % 7 === 0 ? 'campaign' : 'world', path: i % 4 === 0 ? null : `F${i % 3}/N ${i}.md`,
      placeholder: i % 9 === 0, tags: i % 2 ? ['a', `t${i % 4}`] : [],
    });
  }
  const edges: GraphSnapshot['edges'] = [];
  for (let i = 0; i < 3 * n; i++) {
    const a = (i * 7919) % n, b = (i * 104729 + 3) % n;
    edges.push({ from: nodes[a]!.id, to: nodes[b]!.id, type: ['KNOWS', 'LINKS_TO', 'MEMBER_OF'][i % 3]!, field: i % 3 === 1 ? null : ['knows', 'member_of'][i % 2]! });
  }
  return { nodes, edges };
}

describe('graph-compact', () => {
  it('decode(encode(g)) is g, and the encoded form passes its schema and is smaller', () => {
    for (const n of [0, 1, 50, 700]) {
      const g = world(n);
      const c = encodeGraph(g);
      expect(CompactGraphZ.safeParse(JSON.parse(JSON.stringify(c))).success).toBe(true);
      expect(decodeGraph(JSON.parse(JSON.stringify(c)) as typeof c)).toEqual(g);
      if (n > 1) expect(JSON.stringify(c).length).toBeLessThan(JSON.stringify(g).length / 2);
    }
  });

  it('leaves out an edge whose end is not among the nodes (it cannot be indexed)', () => {
    const g = world(10);
    const dangling = { ...g, edges: [...g.edges, { from: 'world/n1', to: 'world/gone', type: 'KNOWS', field: null }] };
    expect(decodeGraph(encodeGraph(dangling))).toEqual(g);
  });

  it('its schema refuses a list of the wrong kind, naming the field', () => {
    const c = JSON.parse(JSON.stringify(encodeGraph(world(20)))) as Record<string, unknown>;
    const bad = (k: string, v: unknown) => {
      const r = CompactGraphZ.safeParse({ ...c, [k]: v });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]!.path).toEqual([k]);
    };
    bad('from', [0, 1.5]);
    bad('to', [0, '1']);
    bad('rel', 'x');
    bad('type', [null]);
    bad('placeholders', {});
    bad('nodeTags', [[0], [0.5]]);
    bad('nodeTags', [0]);
    bad('ids', ['a', 1]);
    bad('names', undefined);
    bad('path', ['a', 1]);
    bad('tags', [null]);
    expect(CompactGraphZ.safeParse({ ...c, path: [null, 'a'] }).success).toBe(true);
  });

  it('refuses an inconsistent message naming the field', () => {
    const c = encodeGraph(world(20));
    expect(() => decodeGraph({ ...c, names: c.names.slice(1) })).toThrow(/field 'names': 19 entries for 20 nodes/);
    expect(() => decodeGraph({ ...c, rel: c.rel.slice(1) })).toThrow(/field 'rel'/);
    expect(() => decodeGraph({ ...c, to: c.to.map(() => 99) })).toThrow(/field 'to': index 99 at 0 is out of range/);
    expect(() => decodeGraph({ ...c, type: c.type.map(() => 42) })).toThrow(/field 'type'/);
    expect(() => decodeGraph({ ...c, placeholders: [20] })).toThrow(/field 'placeholders'/);
  });
});
