import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKuzuStore } from './kuzu-store.js';
import { edge, ent, testSchema } from './test-helpers.js';
import type { GraphStore } from './types.js';

let dir: string;
let store: GraphStore;

// Varo -MEMBER_OF-> Red Hand -ALLIED_WITH- Iron Guild -LOCATED_IN-> Millbrook -PART_OF-> Vale
// Wren -MEMBER_OF-> Red Hand;  Varo -LINKS_TO-> Vale;  Loner (no edges)
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lorecraft-store-'));
  store = createKuzuStore(join(dir, 'db'));
  await store.open(testSchema(), 'fp');
  await store.rebuild(
    ['Varo', 'Wren', 'Red Hand', 'Iron Guild', 'Millbrook', 'Vale', 'Loner'].map((n) => ent(n)),
    [
      edge('Varo', 'Red Hand', 'MEMBER_OF'),
      edge('Wren', 'Red Hand', 'MEMBER_OF'),
      edge('Red Hand', 'Iron Guild', 'ALLIED_WITH'),
      edge('Iron Guild', 'Millbrook', 'LOCATED_IN'),
      edge('Millbrook', 'Vale', 'PART_OF'),
      edge('Varo', 'Vale', 'LINKS_TO'),
    ],
  );
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const id = (n: string) => `main/${n.toLowerCase()}`;

describe('neighbours', () => {
  it('depth 1 both ways labels steps from the reached end', async () => {
    const t = await store.neighbours(id('Red Hand'), { depth: 1, direction: 'both' });
    expect(t.root.name).toBe('Red Hand');
    expect(t.entities.map((e) => e.name).sort()).toEqual(['Iron Guild', 'Varo', 'Wren']);
    expect(t.steps).toEqual(expect.arrayContaining([
      { depth: 1, from: id('Red Hand'), to: id('Varo'), type: 'MEMBER_OF', label: 'HAS_MEMBER', direction: 'in' },
      { depth: 1, from: id('Red Hand'), to: id('Wren'), type: 'MEMBER_OF', label: 'HAS_MEMBER', direction: 'in' },
      { depth: 1, from: id('Red Hand'), to: id('Iron Guild'), type: 'ALLIED_WITH', label: 'ALLIED_WITH', direction: 'both' },
    ]));
    expect(t.steps).toHaveLength(3);
  });

  it('symmetric types are found from the undeclared end too, with direction both', async () => {
    const t = await store.neighbours(id('Iron Guild'), { depth: 1, direction: 'out' });
    expect(t.steps).toEqual(expect.arrayContaining([
      { depth: 1, from: id('Iron Guild'), to: id('Red Hand'), type: 'ALLIED_WITH', label: 'ALLIED_WITH', direction: 'both' },
      { depth: 1, from: id('Iron Guild'), to: id('Millbrook'), type: 'LOCATED_IN', label: 'LOCATED_IN', direction: 'out' },
    ]));
    expect(t.steps).toHaveLength(2);
  });

  it('walks several hops, each entity once, at its first depth', async () => {
    const t = await store.neighbours(id('Varo'), { depth: 3, direction: 'both' });
    const depthOf = new Map(t.steps.map((s) => [s.to, s.depth]));
    expect(depthOf.get(id('Red Hand'))).toBe(1);
    expect(depthOf.get(id('Vale'))).toBe(1);
    expect(depthOf.get(id('Wren'))).toBe(2);
    expect(depthOf.get(id('Iron Guild'))).toBe(2);
    expect(depthOf.get(id('Millbrook'))).toBe(2); // via Vale (CONTAINS)
    expect(t.steps.find((s) => s.to === id('Millbrook'))).toMatchObject({ from: id('Vale'), label: 'CONTAINS', direction: 'in' });
    expect(new Set(t.entities.map((e) => e.id)).size).toBe(t.entities.length);
    expect(t.entities.map((e) => e.id)).not.toContain(id('Loner'));
  });

  it('a type filter accepts the inverse name and flips the direction', async () => {
    const viaInverse = await store.neighbours(id('Red Hand'), { depth: 1, type: 'HAS_MEMBER', direction: 'out' });
    expect(viaInverse.entities.map((e) => e.name).sort()).toEqual(['Varo', 'Wren']);
    const viaCanonical = await store.neighbours(id('Red Hand'), { depth: 1, type: 'MEMBER_OF', direction: 'in' });
    expect(viaCanonical).toEqual(viaInverse);
    expect((await store.neighbours(id('Red Hand'), { depth: 1, type: 'MEMBER_OF', direction: 'out' })).steps).toEqual([]);
    expect((await store.neighbours(id('Red Hand'), { depth: 1, type: 'NO_SUCH', direction: 'both' })).steps).toEqual([]);
  });

  it('an unknown root is a not-found error', async () => {
    await expect(store.neighbours('main/nobody', { depth: 1, direction: 'both' })).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('shortestPath', () => {
  it('finds the shortest undirected path with types and directions', async () => {
    const p = await store.shortestPath(id('Wren'), id('Millbrook'), 6);
    expect(p?.entities.map((e) => e.name)).toEqual(['Wren', 'Red Hand', 'Iron Guild', 'Millbrook']);
    expect(p?.steps).toEqual([
      { depth: 1, from: id('Wren'), to: id('Red Hand'), type: 'MEMBER_OF', label: 'MEMBER_OF', direction: 'out' },
      { depth: 2, from: id('Red Hand'), to: id('Iron Guild'), type: 'ALLIED_WITH', label: 'ALLIED_WITH', direction: 'both' },
      { depth: 3, from: id('Iron Guild'), to: id('Millbrook'), type: 'LOCATED_IN', label: 'LOCATED_IN', direction: 'out' },
    ]);
  });

  it('labels steps walked against the edge with the inverse name', async () => {
    const p = await store.shortestPath(id('Vale'), id('Varo'), 4);
    expect(p?.steps).toEqual([{ depth: 1, from: id('Vale'), to: id('Varo'), type: 'LINKS_TO', label: 'LINKS_TO', direction: 'in' }]);
    const q = await store.shortestPath(id('Vale'), id('Iron Guild'), 4);
    expect(q?.steps.map((s) => s.label)).toEqual(['CONTAINS', 'LOCATION_OF']);
  });

  it('returns null when no path is within maxDepth, and a single entity for from = to', async () => {
    expect(await store.shortestPath(id('Wren'), id('Millbrook'), 2)).toBeNull();
    expect(await store.shortestPath(id('Wren'), id('Loner'), 5)).toBeNull();
    expect(await store.shortestPath(id('Wren'), id('Wren'), 5)).toMatchObject({ steps: [], entities: [{ name: 'Wren' }] });
  });
});
