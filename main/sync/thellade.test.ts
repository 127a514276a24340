/**
 * The real fixture vault (read-only; synced from a temp copy) with the
 * committed example schema: sane counts, path-style links resolve, the place
 * hierarchy is queryable. The counts are logged for the closing report.
 */
import { cpSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCore } from '../core/index.js';
import { tempDir } from './test-helpers.js';

const FIXTURE = join(import.meta.dirname, '../../examples/thellade/vault');
const EXAMPLE = resolve(__dirname, '../../examples/thellade');
const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

describe('Thellade fixture', () => {
  it('syncs unchanged with the example schema: sane counts, resolved path links, place hierarchy', async () => {
    const vault = join(tempDir('lc-thellade-'), 'thellade');
    tmp.push(join(vault, '..'));
    cpSync(FIXTURE, vault, { recursive: true });
    const core = await openCore({ vaultDir: vault, schemaPath: join(EXAMPLE, 'schema.yaml'), configPath: join(EXAMPLE, 'lorecraft.yaml') });
    try {
      const r = core.status().lastSync!;
      const problems = core.problems();
      const byCode = new Map<string, number>();
      for (const p of problems) byCode.set(`${p.severity}:${p.code}`, (byCode.get(`${p.severity}:${p.code}`) ?? 0) + 1);
      console.log(`thellade: ${r.entities} entities, ${r.relationships} relationships, ${r.placeholders} placeholders, ${problems.length} problems ${JSON.stringify(Object.fromEntries(byCode))}`);
      expect(r.entities).toBeGreaterThan(1400);
      expect(r.entities).toBeLessThan(1700);
      expect(r.relationships).toBeGreaterThan(8000);
      expect(r.placeholders).toBeLessThan(200);
      expect(byCode.get('error:yaml-syntax') ?? 0).toBe(0);
      expect(byCode.get('warning:duplicate-name')).toBe(6);

      const f = await core.getEntity('Fallowmarsh');
      expect(f?.type).toBe('settlement');
      // `[[01 Campaign/01 World/04 Subregions/01 Thellade/The Outcast Isles/Lambaro Isles]]` is a vault path
      const located = f!.relations.filter((x) => x.type === 'LOCATED_IN' && x.direction === 'out').map((x) => x.other);
      expect(located.map((o) => o.name).sort()).toEqual(['Lambaro Isles', 'The Outcast Isles']);
      expect(located.every((o) => !o.placeholder)).toBe(true);
      const parents = await core.cypher("MATCH (s:Entity {name: 'Fallowmarsh'})-[:PART_OF]->(p:Entity) RETURN p.name AS name ORDER BY name");
      expect(parents.map((x) => x.name)).toEqual(expect.arrayContaining(['Lambaro Isles', 'Thellade', 'Material Plane']));
      const contained = await core.relations('Thellade', { direction: 'in', type: 'PART_OF' });
      expect(contained.entities.length).toBeGreaterThan(100);
      expect((await core.search('Fallowmarsh'))[0]?.entity.name).toBe('Fallowmarsh');
    } finally { await core.close(); }
  });
});
