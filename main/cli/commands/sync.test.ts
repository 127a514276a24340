import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCore } from '../../core/index.js';
import { tempDir, writeFiles } from '../../sync/test-helpers.js';
import { lorecraft } from './cli-test-helpers.js';

const SCHEMA = `
entity_types:
  - name: npc
    properties: [{ name: status, type: enum, values: [alive, dead] }]
    field_mappings: [{ field: faction, relationship: MEMBER_OF }]
  - name: faction
  - name: place
    field_mappings: [{ field: part_of, relationship: PART_OF }]
relationship_types:
  - { name: MEMBER_OF, inverse: HAS_MEMBER }
  - { name: PART_OF, inverse: CONTAINS, hierarchy: true }
`;
const tmp: string[] = [];
afterAll(() => { for (const d of tmp) rmSync(d, { recursive: true, force: true }); });

describe('lorecraft sync', () => {
  it('syncs a clean vault, prints the counts as JSON and exits 0; a second run is incremental', async () => {
    const v = tempDir('lc-cli-sync-');
    tmp.push(v);
    writeFiles(v, {
      'schema.yaml': SCHEMA,
      'Varo.md': '---\ntype: npc\nfaction: "[[Red Hand]]"\nstatus: alive\n---\n[[Nowhere]]\n',
      'Red Hand.md': '---\ntype: faction\n---\n',
    });
    const r = await lorecraft(['sync', '--vault', v, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ entities: 3, relationships: 2, placeholders: 1, problems: 1, errors: 0, full: true });
    expect(typeof j.ms).toBe('number');
    const again = await lorecraft(['sync', '--vault', v]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('3 entities, 2 relationships, 1 placeholders, 1 problems (0 errors)');
    expect(again.stdout).toContain('0 changed files');
    const full = JSON.parse((await lorecraft(['sync', '--vault', v, '--json', '--full'])).stdout);
    expect(full.full).toBe(true);
  });

  it('reports usage errors with exit 2', async () => {
    const r = await lorecraft(['sync', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option --bogus');
    expect((await lorecraft(['sync', '--vault', '/nonexistent/vault'])).code).toBe(1);
  });

  it('bad input: every defect becomes a problem with file and line, the rest syncs, exit 1, no crash', async () => {
    const v = tempDir('lc-cli-bad-');
    tmp.push(v);
    writeFiles(v, {
      'schema.yaml': SCHEMA,
      'good/Varo.md': '---\ntype: npc\nfaction: Red Hand\n---\nfriend of [[Wren]]\n',
      'good/Wren.md': '---\ntype: npc\nstatus: alive\n---\n',
      'good/Red Hand.md': '---\ntype: faction\n---\n',
      'bad/malformed.md': '---\ntitle: Broken\ntags: [a, b\nmore: x\n---\nbody [[Varo]]\n',
      'bad/latin1.md': Buffer.concat([Buffer.from('---\ntitle: Caf'), Buffer.from([0xe9]), Buffer.from('\n---\n[[Wren]]\n')]),
      'bad/binary.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
      'bad/huge.md': Buffer.alloc(50 * 1024 * 1024, 0x61),
      'bad/dragon.md': '---\ntitle: Smaug\ntype: dragon\n---\n',
      'bad/undead.md': '---\ntype: npc\nstatus: undead\n---\n',
      'other/Varo.md': '---\ntype: npc\n---\nanother Varo\n',
      'places/P1.md': '---\ntype: place\npart_of: "[[P2]]"\n---\n',
      'places/P2.md': '---\ntype: place\npart_of: P1\n---\n',
    });
    symlinkSync(v, join(v, 'bad', 'loop'));
    const r = await lorecraft(['sync', '--vault', v, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j.errors).toBeGreaterThan(0);
    expect(j.entities).toBeGreaterThanOrEqual(12);

    const human = await lorecraft(['sync', '--vault', v]);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/error bad\/malformed\.md:\d+ \[yaml-syntax\]/);

    const core = await openCore({ vaultDir: v });
    try {
      const at = (code: string) => core.problems().filter((p) => p.code === code || p.code.startsWith(code)).map((p) => `${p.file}:${p.line}`).sort();
      expect(at('yaml-syntax')).toEqual(['bad/malformed.md:4']);
      expect(at('encoding')).toEqual(['bad/latin1.md:2']);
      expect(at('binary')).toEqual(['bad/binary.md:3']); // the line of the first NUL byte
      expect(at('too-large')).toEqual(['bad/huge.md:1']);
      expect(at('symlink-loop')).toEqual(['bad/loop:1']);
      expect(at('unknown-type')).toEqual(['bad/dragon.md:3']);
      expect(at('enum')).toEqual(['bad/undead.md:3']);
      expect(at('duplicate-name')).toEqual(['other/Varo.md:1']);
      expect(at('part-of-cycle')).toEqual(['places/P1.md:3', 'places/P2.md:3']);
      for (const p of core.problems()) { expect(p.file).toBeTruthy(); expect(p.line).toBeGreaterThan(0); }
      // the rest synced, bad notes are still entities (so links to them resolve)
      expect((await core.getEntity('varo'))?.relations.map((x) => `${x.direction} ${x.label} ${x.other.name}`)).toEqual(['in LINKS_TO malformed', 'out LINKS_TO Wren', 'out MEMBER_OF Red Hand']);
      expect((await core.getEntity('Smaug'))?.type).toBeNull();
      expect((await core.getEntity('latin1'))?.name).toBe('Caf\uFFFD'); // invalid bytes replaced, note kept
      expect((await core.getEntity('varo', { layer: 'main' }))?.path).toBe('good/Varo.md');
      expect(core.resolveEntity('main/varo#2')?.path).toBe('other/Varo.md');
    } finally { await core.close(); }
  });
});
