/**
 * relationshipItems (the canvas's edge panel reads it): which notes write an
 * edge and each item's own properties — both ends of a symmetric alliance, the
 * faction's `members` (HAS_MEMBER) for a MEMBER_OF edge. Real files, real core.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openCore, type CoreHost } from './index.js';
import { REL_PROPS_SCHEMA } from '../edit/test-host.js';

const notes: Record<string, string> = {
  'Guild.md': `---\ntype: faction\nallies: [{ to: "[[Bureau]]", attitude: wary }]\nmembers: ["[[Tam]]"]\n---\n`,
  'Bureau.md': `---\ntype: faction\nallies: ["[[Guild]]"]\n---\n`,
  'Tam.md': `---\ntype: npc\nfaction: { to: "[[Guild]]", role: sweeper }\n---\n`,
};

let dir: string;
let core: CoreHost;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lorecraft-relitems-'));
  await mkdir(path.join(dir, 'n'));
  await writeFile(path.join(dir, 'schema.yaml'), REL_PROPS_SCHEMA);
  for (const [f, t] of Object.entries(notes)) await writeFile(path.join(dir, 'n', f), t);
  core = await openCore({ vaultDir: dir, dbDir: path.join(dir, '.db') });
});
afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('relationshipItems', () => {
  it('a relationship written on both ends: each item with its own properties', () => {
    const items = core.relationshipItems('Bureau', 'ALLIED_WITH', 'Guild');
    expect(items.map((i) => [i.holder.name, i.rel, i.other.name, i.field, i.path, i.properties])).toEqual([
      ['Bureau', 'ALLIED_WITH', 'Guild', 'allies', 'n/Bureau.md', {}],
      ['Guild', 'ALLIED_WITH', 'Bureau', 'allies', 'n/Guild.md', { attitude: 'wary' }],
    ]);
  });

  it('a MEMBER_OF edge: the member\'s field by its name, the faction\'s by the inverse name', () => {
    const items = core.relationshipItems('Tam', 'MEMBER_OF', 'Guild');
    expect(items.map((i) => [i.holder.name, i.rel, i.field, i.properties])).toEqual([
      ['Tam', 'MEMBER_OF', 'faction', { role: 'sweeper' }],
      ['Guild', 'HAS_MEMBER', 'members', {}],
    ]);
    // the other direction of a non-symmetric type is not this edge
    expect(core.relationshipItems('Guild', 'MEMBER_OF', 'Tam')).toEqual([]);
    expect(() => core.relationshipItems('Tam', 'NOPE', 'Guild')).toThrow(/not a relationship type/);
  });
});
