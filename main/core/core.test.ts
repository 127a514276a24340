import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../sync/test-helpers.js';
import { CoreError } from './api.js';
import { openCore, type CoreHost } from './index.js';

const SCHEMA = `
entity_types:
  - name: npc
    field_mappings: [{ field: faction, relationship: MEMBER_OF }, { field: allies, relationship: ALLIED_WITH }]
  - name: faction
  - name: place
    field_mappings: [{ field: part_of, relationship: PART_OF }]
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: ALLIED_WITH, symmetric: true }
  - { name: PART_OF, inverse: CONTAINS, hierarchy: true }
`;
const CONFIG = `
layers:
  - { name: world, paths: [world] }
  - { name: campaign, paths: [campaign], canonical: false, depends_on: [world] }
`;
const FILES = {
  'schema.yaml': SCHEMA, 'lorecraft.yaml': CONFIG,
  'world/npcs/varo-file.md': '---\ntitle: Captain Varo\ntype: npc\naliases: [The Captain]\nfaction: "[[Red Hand]]"\nallies: [Wren]\ntags: [villain]\n---\nVaro burned [[Millbrook]] to the ground.\n',
  'world/npcs/Wren.md': '---\ntype: npc\nfaction: Red Hand\n---\nA thief who loves the harbour.\n',
  'world/Red Hand.md': '---\ntype: faction\ntags: [faction/criminal]\n---\nA guild of cutthroats.\n',
  'world/places/Millbrook.md': '---\ntype: place\npart_of: Vale\n---\nA quiet village.\n',
  'world/places/Vale.md': '---\ntype: place\n---\n',
  'campaign/Millbrook.md': '---\ntype: place\n---\nMillbrook, as the players saw it. [[Captain Varo]]\n',
};

const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });
function vault(files: Record<string, string> = FILES): string {
  const v = tempDir('lc-core-');
  tmp.push(v);
  writeFiles(v, files);
  return v;
}

describe('openCore', () => {
  it('answers entity, lookup, suggest, list, relations, path, search, cypher, problems, graph, status', async () => {
    const core: CoreHost = await openCore({ vaultDir: vault() });
    try {
      const v = await core.getEntity('the captain');
      expect(v?.id).toBe('world/captain varo');
      expect((await core.getEntity('varo-file'))?.id).toBe('world/captain varo');
      expect((await core.getEntity('world/captain varo'))?.name).toBe('Captain Varo');
      expect(v?.relations.map((r) => `${r.direction} ${r.label} ${r.other.name}`)).toEqual([
        'both ALLIED_WITH Wren', 'in LINKS_TO Millbrook', 'out LINKS_TO Millbrook', 'out MEMBER_OF Red Hand',
      ]);
      // one name in two layers: canonical first, the other by layer
      expect((await core.getEntity('Millbrook'))?.layer).toBe('world');
      expect((await core.getEntity('Millbrook', { layer: 'campaign' }))?.path).toBe('campaign/Millbrook.md');
      expect(await core.getEntity('Millbrook', { type: 'npc' })).toBeNull();
      const rh = await core.getEntity('red hand');
      expect(rh?.relations.filter((r) => r.label === 'HAS_MEMBER').map((r) => r.other.name).sort()).toEqual(['Captain Varo', 'Wren']);

      const look = await core.lookup('The Captain');
      expect(look[0]).toMatchObject({ confidence: 0.9, matchedOn: 'alias' });
      expect((await core.lookup('captain varo'))[0]).toMatchObject({ confidence: 1, matchedOn: 'name' });
      expect((await core.lookup('varo-file'))[0]).toMatchObject({ confidence: 0.8, matchedOn: 'filename' });
      const pre = await core.suggest('mill');
      expect(pre[0]?.entity.name).toBe('Millbrook');
      expect(pre[0]!.confidence).toBeLessThan(0.8);
      expect((await core.suggest('cptvaro'))[0]).toMatchObject({ matchedOn: 'fuzzy' });
      expect((await core.suggest('varo'))[0]?.entity.name).toBe('Captain Varo');

      expect((await core.list({ type: 'npc' })).items.map((e) => e.name)).toEqual(['Captain Varo', 'Wren']);
      expect((await core.list({ layer: 'campaign' })).total).toBe(1);
      expect((await core.list({ tag: 'faction' })).items.map((e) => e.name)).toEqual(['Red Hand']);

      const rel = await core.relations('Red Hand', { direction: 'in', type: 'MEMBER_OF' });
      expect(rel.entities.map((e) => e.name).sort()).toEqual(['Captain Varo', 'Wren']);
      await expect(core.relations('Red Hand', { type: 'NOPE' })).rejects.toMatchObject({ code: 'unknown-relationship' });
      await expect(core.relations('Nobody')).rejects.toMatchObject({ code: 'not-found' });
      const p = await core.path('Wren', 'Vale', 5);
      expect(p?.entities.map((e) => e.name)).toEqual(['Wren', 'Captain Varo', 'Millbrook', 'Vale']);

      const hits = await core.search('harbour');
      expect(hits[0]?.entity.name).toBe('Wren');
      expect(hits[0]?.snippet).toContain('«harbour»');
      expect((await core.search('Red Hand'))[0]?.matched).toBe('name');

      expect(await core.cypher("MATCH (n:Entity)-[:MEMBER_OF]->(f:Entity {name: 'Red Hand'}) RETURN n.name AS name ORDER BY name")).toEqual([
        { name: 'Captain Varo' }, { name: 'Wren' },
      ]);
      await expect(core.cypher('MATCH (n) DETACH DELETE n')).rejects.toBeInstanceOf(CoreError);
      expect(core.problems()).toEqual([]);
      const g = await core.graph();
      expect(g.nodes.length).toBe(6);
      expect(g.edges.length).toBe(core.status().relationships);
      expect(core.status()).toMatchObject({ state: 'idle', entities: 6, placeholders: 0 });
    } finally { await core.close(); }
  });

  it('reads ahead only for the sync it runs itself: with sync: false a later sync reads the files as they are then', async () => {
    const v = vault();
    const core = await openCore({ vaultDir: v, sync: false });
    try {
      writeFileSync(join(v, 'world/npcs/Tam.md'), '---\ntype: npc\nfaction: Red Hand\n---\n');
      await core.sync();
      expect(core.status().entities).toBe(7);
      expect((await core.relations('Red Hand', { direction: 'in' })).entities.map((e) => e.name)).toContain('Tam');
    } finally { await core.close(); }
  });

  it('creates .lorecraft/.gitignore, holds a lock, refuses a second opener and takes over a stale lock', async () => {
    const v = vault();
    const core = await openCore({ vaultDir: v, sync: false });
    const lockFile = join(v, '.lorecraft', 'lock');
    try {
      expect(readFileSync(join(v, '.lorecraft', '.gitignore'), 'utf8')).toBe('*\n');
      expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
      const err = await openCore({ vaultDir: v }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CoreError);
      expect((err as CoreError).code).toBe('vault-locked');
      expect((err as CoreError).message).toContain(String(process.pid));
    } finally { await core.close(); }
    expect(existsSync(lockFile)).toBe(false);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(lockFile, JSON.stringify({ pid: dead }));
    const again = await openCore({ vaultDir: v });
    try {
      expect(again.status().entities).toBe(6);
    } finally { await again.close(); }
  });

  it('deletes a corrupt database and rebuilds it from the files', async () => {
    const v = vault();
    const first = await openCore({ vaultDir: v });
    await first.close();
    writeFileSync(join(v, '.lorecraft', 'graph.kuzu'), Buffer.alloc(4096, 0xab));
    const core = await openCore({ vaultDir: v });
    try {
      expect(core.status().lastSync?.full).toBe(true);
      expect((await core.relations('Red Hand', { direction: 'in' })).entities.length).toBe(2);
    } finally { await core.close(); }
  });

  it('announces external edits while watching', async () => {
    const v = vault();
    const core = await openCore({ vaultDir: v, watch: true });
    try {
      const got = new Promise<string[]>((resolve) => core.onChange((e) => { if (e.origin === 'disk') resolve(e.upserted); }));
      writeFileSync(join(v, 'world/npcs/Wren.md'), '---\ntype: npc\nfaction: "[[Blue Hand]]"\n---\n');
      expect(await got).toEqual(expect.arrayContaining(['world/wren', 'world/blue hand']));
      expect((await core.getEntity('blue hand'))?.placeholder).toBe(true);
      expect((await core.cypher("MATCH (:Entity {name: 'Wren'})-[:MEMBER_OF]->(f) RETURN f.name AS f"))).toEqual([{ f: 'Blue Hand' }]);
    } finally { await core.close(); }
  });
});
