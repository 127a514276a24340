/**
 * Bounded output: with a small budget every tool result stays within it
 * (text + structuredContent, ~4 chars/token), long lists paginate with an
 * opaque cursor that walks the whole list exactly once, and say so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN, decodeCursor, cursorKey, encodeCursor, fitCount, paginate } from './budget.js';
import { openHarness, textOf, type Harness } from './testkit.js';

describe('cursor and fitting helpers', () => {
  it('round-trips a cursor bound to tool and arguments', () => {
    const k = cursorKey('list_entities', { type: 'npc', cursor: 'ignored' });
    expect(k).toBe(cursorKey('list_entities', { type: 'npc' }));
    expect(decodeCursor('list_entities', k, encodeCursor('list_entities', k, 40))).toBe(40);
    expect(() => decodeCursor('list_entities', cursorKey('list_entities', { type: 'faction' }), encodeCursor('list_entities', k, 40))).toThrow(/other arguments/);
    expect(() => decodeCursor('search_lore', k, encodeCursor('list_entities', k, 40))).toThrow(/not valid for search_lore/);
    expect(() => decodeCursor('list_entities', k, '%%%')).toThrow(/not valid/);
  });

  it('fitCount finds the largest prefix that fits', () => {
    const items = Array.from({ length: 100 }, (_, i) => 'x'.repeat(i % 7 + 1));
    const n = fitCount(items, 200, (s) => ({ s }));
    expect(JSON.stringify({ s: items.slice(0, n) }).length).toBeLessThanOrEqual(200);
    expect(JSON.stringify({ s: items.slice(0, n + 1) }).length).toBeGreaterThan(200);
  });

  it('paginate walks a list in pages that each fit', () => {
    const all = Array.from({ length: 500 }, (_, i) => ({ i, pad: 'p'.repeat(20) }));
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 100; guard++) {
      const p = paginate({ tool: 't', args: { q: 1, cursor }, all, maxChars: 1000, wrap: (x) => ({ items: x.items, next: x.next_cursor }) });
      expect(JSON.stringify({ items: p.items, next: p.next_cursor }).length).toBeLessThanOrEqual(1000);
      seen.push(...p.items.map((x) => x.i));
      if (!p.next_cursor) { expect(p.truncated).toBe(false); break; }
      expect(p.truncated).toBe(true);
      cursor = p.next_cursor;
    }
    expect(seen).toEqual(all.map((x) => x.i));
  });
});

describe('every tool stays within a small budget (real core, sample world)', () => {
  const BUDGET = 600; // tokens: far below what several tools would produce unbounded
  let h: Harness;
  beforeAll(async () => { h = await openHarness({ mode: 'read', budgetTokens: BUDGET }); });
  afterAll(async () => { await h?.close(); });

  const size = (r: { content: unknown; structuredContent?: unknown }) =>
    textOf(r as never).length + JSON.stringify(r.structuredContent ?? null).length;

  const CALLS: Array<[string, Record<string, unknown>]> = [
    ['search_lore', { query: 'the', limit: 50 }],
    ['lookup', { name: 'the', limit: 50 }],
    ['get_entity', { name: 'Millbrook' }],
    ['get_relationships', { name: 'Millbrook', depth: 5 }],
    ['find_path', { from: 'Captain Varo', to: 'Westport' }],
    ['list_entities', { limit: 500 }],
    ['get_current_state', { name: 'Red Hand', layer: 'campaign' }],
    ['get_timeline', { layer: 'campaign' }],
    ['check_consistency', { entity: 'Millbrook', claim: 'Millbrook was rebuilt by the Red Hand after the burning, ruled by Lady Wren' }],
    ['get_schema', {}],
    ['load_scene_context', { location: 'Millbrook', characters: ['Captain Varo', 'Kira Ashwood', 'Tobin Reed', 'Lady Wren Alder', 'Grell Ironjaw'], pc: 'Selin Hale' }],
    ['get_problems', {}],
    ['query_graph', { cypher: 'MATCH (n:Entity) RETURN n.name, n.body' }],
  ];
  for (const [tool, args] of CALLS) {
    it(`${tool} fits ${BUDGET} tokens`, async () => {
      const r = await h.call(tool, args);
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(size(r)).toBeLessThanOrEqual(BUDGET * CHARS_PER_TOKEN);
    });
  }

  it('list_entities pages through every entity exactly once, saying so in text and structuredContent', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let total: number;
    let pages = 0;
    for (;;) {
      const r = await h.call('list_entities', cursor ? { cursor } : {});
      const s = r.structuredContent as { entities: Array<{ id: string }>; total: number; next_cursor: string | null; truncated: boolean };
      total = s.total;
      ids.push(...s.entities.map((e) => e.id));
      pages++;
      if (!s.next_cursor) { expect(s.truncated).toBe(false); break; }
      expect(s.truncated).toBe(true);
      expect(textOf(r)).toMatch(/pass next_cursor/);
      cursor = s.next_cursor;
    }
    expect(pages).toBeGreaterThan(1);
    expect(ids.length).toBe(total);
    expect(new Set(ids).size).toBe(total);
  });

  it('search_lore reports the real number of hits on every page, not offset + limit + 1', async () => {
    const ids: string[] = [];
    const totals: number[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 200; i++) {
      const s = (await h.call('search_lore', { query: 'guild', limit: 2, ...(cursor ? { cursor } : {}) })).structuredContent as { hits: Array<{ entity: { id: string } }>; total: number; next_cursor: string | null };
      ids.push(...s.hits.map((x) => x.entity.id));
      totals.push(s.total);
      cursor = s.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(ids.length).toBeGreaterThan(5);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(totals)).toEqual(new Set([ids.length]));
  });

  it('get_relationships and query_graph paginate with cursors too', async () => {
    for (const [tool, args, key] of [
      ['get_relationships', { name: 'Millbrook', depth: 3 }, 'steps'],
      ['query_graph', { cypher: 'MATCH (n:Entity) RETURN n.id, n.body ORDER BY n.id' }, 'rows'],
    ] as const) {
      let cursor: string | undefined;
      let got = 0;
      let total = 0;
      const seen = new Set<string>();
      for (let i = 0; i < 500; i++) {
        const s = (await h.call(tool, { ...args, ...(cursor ? { cursor } : {}) })).structuredContent as Record<string, unknown>;
        got += (s[key] as unknown[]).length;
        for (const x of s[key] as unknown[]) seen.add(JSON.stringify(x));
        total = s.total as number;
        cursor = (s.next_cursor as string | null) ?? undefined;
        if (!cursor) break;
      }
      expect(total).toBeGreaterThan(0);
      expect(got).toBe(total);
      expect(seen.size, 'no item repeated across pages').toBe(total);
    }
  });

  it('get_schema and get_current_state cut at the budget offer a cursor, and the pages hold every entry exactly once', async () => {
    const pageAll = async (tool: string, args: Record<string, unknown>, keys: string[]) => {
      const got: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      let total = 0;
      for (let i = 0; i < 200; i++) {
        const r = await h.call(tool, { ...args, ...(cursor ? { cursor } : {}) });
        expect(r.isError, textOf(r)).toBeFalsy();
        const s = r.structuredContent as Record<string, unknown>;
        for (const k of keys) got.push(...(s[k] as Array<Record<string, unknown>>).map((x) => `${k}:${JSON.stringify(x)}`));
        total = s.total as number;
        pages++;
        cursor = (s.next_cursor as string | null) ?? undefined;
        // every cut result offers a cursor
        expect(s.truncated).toBe(cursor !== undefined);
        if (!cursor) break;
        expect(textOf(r)).toMatch(/pass next_cursor/);
      }
      return { got, pages, total };
    };
    const schema = await pageAll('get_schema', {}, ['entity_types', 'relationship_types']);
    const sch = h.host.schema();
    expect(schema.pages).toBeGreaterThan(1);
    expect(schema.total).toBe(sch.entity_types.length + sch.relationship_types.length);
    expect(schema.got.length).toBe(schema.total);
    expect(new Set(schema.got).size).toBe(schema.total);
    expect(schema.got.filter((x) => x.startsWith('entity_types:')).map((x) => JSON.parse(x.slice('entity_types:'.length)).name)).toEqual(sch.entity_types.map((t) => t.name));

    const state = await pageAll('get_current_state', { name: 'Red Hand', layer: 'campaign' }, ['relationships', 'removed_relationships']);
    const full = (await h.host.timeline.stateAt('Red Hand', 'campaign', null))!;
    expect(state.pages).toBeGreaterThan(1);
    expect(state.total).toBe(full.relationships.length + full.removedRelationships.length);
    expect(state.got.length).toBe(state.total);
    expect(new Set(state.got).size).toBe(state.total);
  });

  it('a long note body is clipped and flagged', async () => {
    const r = await h.ok<{ entity: { body: string; body_truncated: boolean } }>('get_entity', { name: 'Millbrook' });
    expect(r.entity.body.length).toBeLessThan(BUDGET * CHARS_PER_TOKEN);
  });
});
