/**
 * sameAfterParse (shared/zod-same.ts) against zod itself: SAME must mean zod's parse succeeds and gives back a
 * value with the same keys and values; INVALID that zod refuses. Every case below is asked of both, and a
 * generated run of mutated answers checks the same over the contract's own response schemas.
 */
import { describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { contract } from './contract.js';
import { dispatch } from './rpc.js';
import { DIFFERS, INVALID, SAME, verdict, type Verdict } from './zod-same.js';
import { prng } from './prng.js';

/** the walker's verdict, checked against zod's parse: SAME => same value back, INVALID => refused */
function agreed(schema: z.ZodType, v: unknown): Verdict {
  const got = verdict(schema, v);
  const z0 = schema.safeParse(v);
  if (got === SAME) {
    expect(z0.success, `SAME but zod refuses ${JSON.stringify(v)}`).toBe(true);
    expect(isDeepStrictEqual(z0.data, v), `SAME but zod gives ${JSON.stringify(z0.data)} for ${JSON.stringify(v)}`).toBe(true);
  }
  if (got === INVALID) expect(z0.success, `INVALID but zod accepts ${JSON.stringify(v)}`).toBe(false);
  return got;
}

const Item = z.object({ id: z.string(), n: z.number(), tags: z.array(z.string()), note: z.string().optional(), at: z.number().nullable() });

describe('sameAfterParse', () => {
  it('SAME for a value zod gives back as it is, nested', () => {
    expect(agreed(Item, { id: 'a', n: 1, tags: ['x'], at: null })).toBe(SAME);
    expect(agreed(Item, { id: 'a', n: 1, tags: [], note: 'y', at: 2 })).toBe(SAME);
    expect(agreed(Item, { id: 'a', n: 1, tags: [], note: undefined, at: 2 })).toBe(SAME);
    expect(agreed(z.array(Item), [{ id: 'a', n: 1, tags: [], at: null }, { id: 'b', n: 2, tags: ['t'], at: 3 }])).toBe(SAME);
    expect(agreed(z.record(z.string(), z.number()), { a: 1, b: 2 })).toBe(SAME);
    expect(agreed(z.object({ k: z.literal('x'), e: z.enum(['p', 'q']), u: z.unknown() }), { k: 'x', e: 'q', u: { any: [1] } })).toBe(SAME);
  });

  it('DIFFERS when zod would strip a key the contract does not declare (a lens-internal field), at any depth', () => {
    expect(agreed(Item, { id: 'a', n: 1, tags: [], at: null, internal: 'QSECRET' })).toBe(DIFFERS);
    expect(agreed(z.array(Item), [{ id: 'a', n: 1, tags: [], at: null }, { id: 'b', n: 1, tags: [], at: null, internal: 1 }])).toBe(DIFFERS);
    expect(agreed(z.object({ inner: z.record(z.string(), Item) }), { inner: { k: { id: 'a', n: 1, tags: [], at: null, gm: true } } })).toBe(DIFFERS);
    // even an undefined one (zod's copy has no such key)
    expect(agreed(Item, { id: 'a', n: 1, tags: [], at: null, internal: undefined })).toBe(DIFFERS);
  });

  it('INVALID where zod refuses: a strict object with an unknown key, wrong types, NaN, a missing key', () => {
    expect(agreed(Item.strict(), { id: 'a', n: 1, tags: [], at: null, internal: 'x' })).toBe(INVALID);
    expect(agreed(Item, { id: 'a', n: '1', tags: [], at: null })).toBe(INVALID);
    expect(agreed(Item, { id: 'a', n: Number.NaN, tags: [], at: null })).toBe(INVALID);
    expect(agreed(Item, { id: 'a', n: Number.POSITIVE_INFINITY, tags: [], at: null })).toBe(INVALID);
    expect(agreed(Item, { id: 'a', n: 1, tags: [] })).toBe(INVALID);
    expect(agreed(Item, [])).toBe(INVALID);
    expect(agreed(z.array(z.string()), ['a', 1])).toBe(INVALID);
  });

  it('a union answers as zod does: the first option that succeeds, even when it strips', () => {
    const A = z.object({ a: z.string() });
    const AB = z.object({ a: z.string(), b: z.string() });
    // zod picks A (stripping b): not the value as it is
    expect(agreed(z.union([A, AB]), { a: 'x', b: 'y' })).toBe(DIFFERS);
    expect(agreed(z.union([AB, A]), { a: 'x', b: 'y' })).toBe(SAME);
    expect(agreed(z.union([z.string(), z.number()]), 3)).toBe(SAME);
    expect(agreed(z.union([z.string(), z.number()]), true)).toBe(INVALID);
  });

  it('refinements, defaults and transforms are zod\'s: SAME only when it gives the very value back', () => {
    expect(agreed(z.string().min(1), 'a')).toBe(SAME);
    expect(agreed(z.string().min(1), '')).toBe(INVALID);
    expect(agreed(z.number().int(), 1.5)).toBe(INVALID);
    expect(agreed(z.object({ d: z.string().default('x') }), {})).toBe(DIFFERS);
    expect(agreed(z.object({ t: z.string().transform((s) => s.toUpperCase()) }), { t: 'a' })).toBe(DIFFERS);
    expect(agreed(z.array(z.string()).min(1), ['a'])).toBe(DIFFERS); // an array with checks: zod's copy
    expect(agreed(z.object({ x: z.string() }).passthrough(), { x: 'a', y: 1 })).toBe(SAME);
    expect(agreed(z.object({ x: z.string() }).catchall(z.number()), { x: 'a', y: 'no' })).toBe(INVALID);
  });

  it('an object that is not plain (a class instance, a Map) goes to zod', () => {
    class P { id = 'a'; n = 1; tags: string[] = []; at = null; }
    expect(agreed(Item, new P())).toBe(DIFFERS);
    expect(agreed(z.record(z.string(), z.number()), new Map())).not.toBe(SAME);
  });

  it("the contract's response schemas: mutated answers never read SAME unless zod gives them back", () => {
    // every response schema, on values made from a small grammar of JSON (objects, arrays, strings, numbers…)
    // and on each value zod accepted, a key added, removed or retyped
    const rnd = prng(17);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const json = (d: number): unknown => {
      const k = rnd();
      if (d > 3 || k < 0.3) return pick<unknown>(['a', '', 0, 1.5, -2, true, false, null, undefined, Number.NaN]);
      if (k < 0.55) return Array.from({ length: Math.floor(rnd() * 3) }, () => json(d + 1));
      const o: Record<string, unknown> = {};
      for (let i = 0; i < 1 + Math.floor(rnd() * 4); i++) o[pick(['id', 'name', 'type', 'items', 'total', 'x', 'nodes', 'edges', 'extra'])] = json(d + 1);
      return o;
    };
    let same = 0, checked = 0;
    for (const def of Object.values(contract)) {
      const schema = def.res as z.ZodType;
      for (let i = 0; i < 40; i++) { agreed(schema, json(0)); checked++; }
    }
    // valid answers from zod's own output of valid-looking values, then mutated
    const samples: Array<[z.ZodType, unknown]> = [
      [contract['entity-list'].res, { items: [{ id: 'a', name: 'A', type: 't', layer: 'l', path: 'a.md', placeholder: false, tags: ['x'] }], total: 1 }],
      [contract['graph-snapshot'].res, { nodes: [{ id: 'a', name: 'A', type: null, layer: 'l', path: null, placeholder: true, tags: [] }], edges: [{ from: 'a', to: 'b', type: 'KNOWS', field: null }] }],
      [contract['canvas-importance'].res, { ranks: { a: 1, b: 0.5 } }],
    ];
    for (const [schema, v] of samples) {
      expect(agreed(schema, v)).toBe(SAME);
      same++;
      const walk = (x: unknown, f: (o: Record<string, unknown>) => void): void => {
        if (Array.isArray(x)) x.forEach((y) => walk(y, f));
        else if (x && typeof x === 'object') { f(x as Record<string, unknown>); Object.values(x).forEach((y) => walk(y, f)); }
      };
      for (const mutate of [
        (o: Record<string, unknown>) => { o.lensInternal = 'QSECRET'; },
        (o: Record<string, unknown>) => { const k = Object.keys(o)[0]; if (k) delete o[k]; },
        (o: Record<string, unknown>) => { const k = Object.keys(o)[0]; if (k) o[k] = 7; },
        (o: Record<string, unknown>) => { const k = Object.keys(o)[0]; if (k) o[k] = null; },
      ]) {
        const copy = structuredClone(v);
        walk(copy, mutate);
        expect(agreed(schema, copy)).not.toBe(SAME);
        checked++;
      }
    }
    expect(same).toBe(3);
    expect(checked).toBeGreaterThan(Object.keys(contract).length * 40);
  });

  it('dispatch: an answer with a field the contract does not declare goes out without it; a strict one is refused', async () => {
    const item = { id: 'a', name: 'A', type: 't', layer: 'l', path: 'a.md', placeholder: false, tags: [], gmOnly: 'QSECRETLENSFIELD' };
    const impl = {
      'entity-list': async () => ({ items: [item], total: 1 }),
      'graph-snapshot': async () => ({ nodes: [], edges: [{ from: 'a', to: 'b', type: 'KNOWS', field: null, declaredBy: 'QSECRETLENSFIELD' }] }),
      'view-get': async () => ({ audience: 'players', layer: null, session: null, secret: 'QSECRETLENSFIELD' }),
    } as never;
    const list = await dispatch('entity-list', {}, { transport: 'ws' }, impl);
    expect(list.ok).toBe(true);
    expect(JSON.stringify(list)).not.toContain('QSECRETLENSFIELD');
    expect((list as { value: { items: unknown[] } }).value.items[0]).toEqual({ id: 'a', name: 'A', type: 't', layer: 'l', path: 'a.md', placeholder: false, tags: [] });
    const graph = await dispatch('graph-snapshot', {}, { transport: 'ws' }, impl);
    expect(graph.ok).toBe(true);
    expect(JSON.stringify(graph)).not.toContain('QSECRETLENSFIELD');
    // the answer as it is, when nothing needs stripping: the very object (no copy)
    const { gmOnly: _internal, ...summary } = item;
    const clean = { items: [summary], total: 1 };
    const same = await dispatch('entity-list', {}, { transport: 'ws' }, { 'entity-list': async () => clean } as never);
    expect(same.ok && same.value).toBe(clean);
    const view = await dispatch('view-get', {}, { transport: 'ws' }, impl);
    expect(JSON.stringify(view)).not.toContain('QSECRETLENSFIELD');
  });
});
