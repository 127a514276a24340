import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../../sync/test-helpers.js';
import { lorecraft } from './cli-test-helpers.js';

// The schema and config live outside the vault and the db elsewhere: the overrides are exercised throughout.
const SCHEMA = `
entity_types:
  - name: npc
    field_mappings: [{ field: faction, relationship: MEMBER_OF }]
  - name: faction
    field_mappings: [{ field: hq, relationship: LOCATED_IN }]
  - name: place
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: LOCATED_IN }
`;
let vault = '';
let etc = '';
let db = '';
let common: string[] = [];
const tmp: string[] = [];

beforeAll(() => {
  vault = tempDir('lc-cli-q-');
  etc = tempDir('lc-cli-q-etc-');
  db = join(tempDir('lc-cli-q-db-'), 'graph');
  tmp.push(vault, etc, join(db, '..'));
  writeFiles(etc, { 'schema.yaml': SCHEMA, 'lorecraft.yaml': 'layers:\n  - { name: world, paths: ["."] }\n' });
  writeFiles(vault, {
    'Varo.md': '---\ntype: npc\nfaction: "[[Red Hand]]"\ntags: [villain]\n---\nVaro sails the harbour at night.\n',
    'Wren.md': '---\ntype: npc\nfaction: Red Hand\n---\nA quiet thief.\n',
    'Red Hand.md': '---\ntype: faction\nhq: Dockside\n---\n',
    'Dockside.md': '---\ntype: place\n---\nWet stones.\n',
  });
  common = ['--vault', vault, '--db', db, '--schema', join(etc, 'schema.yaml'), '--config', join(etc, 'lorecraft.yaml')];
});
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

describe('lorecraft query', () => {
  it('entity (human and JSON), not found with suggestions', async () => {
    const h = await lorecraft(['query', 'entity', 'varo', ...common]);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('id: world/varo   type: npc   layer: world   file: Varo.md');
    expect(h.stdout).toContain('-> MEMBER_OF Red Hand   [faction]');
    expect(existsSync(join(vault, '.lorecraft'))).toBe(false);
    const j = JSON.parse((await lorecraft(['query', 'entity', 'Red Hand', '--json', ...common])).stdout);
    expect(j.relations.map((r: { label: string; other: { name: string } }) => `${r.label} ${r.other.name}`)).toEqual([
      'HAS_MEMBER Varo', 'HAS_MEMBER Wren', 'LOCATED_IN Dockside',
    ]);
    const nf = await lorecraft(['query', 'entity', 'Vaaro', ...common]);
    expect(nf.code).toBe(1);
    expect(nf.stderr).toContain("no entity named 'Vaaro' (did you mean: Varo");
  });

  it('relations with depth, type and direction; path; list; search', async () => {
    const rel = JSON.parse((await lorecraft(['query', 'relations', 'Dockside', '--depth', '2', '--direction', 'in', '--json', ...common])).stdout);
    expect(rel.entities.map((e: { name: string }) => e.name).sort()).toEqual(['Red Hand', 'Varo', 'Wren']);
    const typed = await lorecraft(['query', 'relations', 'Varo', '--type', 'MEMBER_OF', ...common]);
    expect(typed.code).toBe(0);
    expect(typed.stdout).toContain('Varo -[MEMBER_OF]-> Red Hand');
    const path = await lorecraft(['query', 'path', 'Wren', 'Dockside', '--max-depth', '3', ...common]);
    expect(path.stdout).toBe('Wren\n  -[MEMBER_OF]-> Red Hand\n  -[LOCATED_IN]-> Dockside\n');
    const list = JSON.parse((await lorecraft(['query', 'list', '--type', 'npc', '--tag', 'villain', '--json', ...common])).stdout);
    expect(list).toMatchObject({ total: 1, items: [{ name: 'Varo' }] });
    const s = JSON.parse((await lorecraft(['query', 'search', 'harbour', '--json', ...common])).stdout);
    expect(s[0]).toMatchObject({ entity: { name: 'Varo' }, matched: 'body' });
    expect(s[0].snippet).toContain('«harbour»');
  });

  it('cypher reads, refuses writes', async () => {
    const ok = JSON.parse((await lorecraft(['query', 'cypher', 'MATCH (n:Entity)-[:HAS_MEMBER]->(x) RETURN x.name AS m ORDER BY m', '--json', ...common])).stdout);
    expect(ok).toEqual([{ m: 'Varo' }, { m: 'Wren' }]);
    const w = await lorecraft(['query', 'cypher', "CREATE (:Entity {id: 'x'})", ...common]);
    expect(w.code).toBe(1);
    expect(w.stderr).toMatch(/refused/);
  });

  it('usage errors exit 2; campaign-time sub-commands are routed', async () => {
    expect((await lorecraft(['query', 'relations', 'Varo', '--depth', '7', ...common])).code).toBe(2);
    expect((await lorecraft(['query', 'bogus'])).code).toBe(2);
    expect((await lorecraft(['query', 'path', 'OnlyOne', ...common])).code).toBe(2);
    const t = await lorecraft(['query', 'timeline', '--vault', vault]);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('query timeline');
  });
});
