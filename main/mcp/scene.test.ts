/**
 * load_scene_context at a (layer, session) like get_current_state, and its chain of containing
 * places innermost first (real core on the sample world, real SDK client over InMemoryTransport).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, type Harness } from './testkit.js';

type State = { lifecycle: string; exists: boolean; dead: boolean } | null;
type Scene = {
  layer: string | null; session: number | null;
  location: { entity: { name: string }; state: State };
  parents: Array<{ entity: { name: string }; depth: number }>;
  characters: Array<{ entity: { name: string }; properties: Record<string, unknown>; state: State }>;
};

let h: Harness;
beforeAll(async () => { h = await openHarness(); });
afterAll(async () => { await h?.close(); });

const scene = (args: Record<string, unknown>) => h.ok<Scene>('load_scene_context', { location: 'Millbrook', characters: ['Captain Varo', 'Kira Ashwood'], ...args });

describe('load_scene_context', () => {
  it('defaults to the campaign layer after its latest session: Varo, killed at session 5, is dead', async () => {
    const s = await scene({});
    expect(s.layer).toBe('campaign');
    expect(s.session).toBeNull();
    const varo = s.characters.find((c) => c.entity.name === 'Captain Varo')!;
    expect(varo.state).toMatchObject({ dead: true });
    expect(varo.properties.status).toBe('dead');
    expect(s.characters.find((c) => c.entity.name === 'Kira Ashwood')!.state).toMatchObject({ dead: false, exists: true });
  });

  it('takes a layer and a session: before session 5 Varo is alive', async () => {
    const s = await scene({ layer: 'campaign', session: 4 });
    expect(s.session).toBe(4);
    const varo = s.characters.find((c) => c.entity.name === 'Captain Varo')!;
    expect(varo.state).toMatchObject({ dead: false });
    expect(varo.properties.status).toBe('alive');
    const setting = await scene({ layer: 'setting' });
    expect(setting.characters.find((c) => c.entity.name === 'Captain Varo')!.properties.status).toBe('alive');
  });

  it('refuses an unknown layer', async () => {
    const r = await h.call('load_scene_context', { location: 'Millbrook', layer: 'nope' });
    expect(r.isError).toBe(true);
  });

  it('lists the containing places innermost first', async () => {
    const s = await scene({});
    expect(s.parents.length).toBeGreaterThan(1);
    expect(s.parents[0]!.depth).toBe(1);
    for (let i = 1; i < s.parents.length; i++) expect(s.parents[i]!.depth).toBeGreaterThanOrEqual(s.parents[i - 1]!.depth);
  });

  it('follows a chain through two hierarchy types, innermost first (cellar in an inn, part of a town, part of a realm)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lc-scene-'));
    const schema = [
      'entity_types:', '  - name: place', '    field_mappings:',
      '      - { field: part_of, relationship: PART_OF }', '      - { field: located_in, relationship: LOCATED_IN }',
      'relationship_types:', '  - { name: PART_OF, inverse: HAS_PART, hierarchy: true }', '  - { name: LOCATED_IN, inverse: HOLDS, hierarchy: true }', '',
    ].join('\n');
    await writeFile(join(dir, 'schema.yaml'), schema);
    await writeFile(join(dir, 'Realm.md'), '---\ntype: place\n---\n');
    await writeFile(join(dir, 'Town.md'), '---\ntype: place\npart_of: "[[Realm]]"\n---\n');
    await writeFile(join(dir, 'Inn.md'), '---\ntype: place\npart_of: "[[Town]]"\n---\n');
    await writeFile(join(dir, 'Cellar.md'), '---\ntype: place\nlocated_in: "[[Inn]]"\n---\n');
    const own = await openHarness({ dir });
    try {
      const s = await own.ok<Scene>('load_scene_context', { location: 'Cellar' });
      expect(s.parents.map((p) => [p.entity.name, p.depth])).toEqual([['Inn', 1], ['Town', 2], ['Realm', 3]]);
    } finally {
      await own.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
