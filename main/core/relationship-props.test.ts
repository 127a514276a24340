/**
 * Relationships that carry meaning (issue 18): a map item in a link-valued field
 * (`{ to: "[[X]]", attitude: wary }`, flow or block style) gives the relationship
 * its own properties; declared ones land as typed columns on the Kùzu REL rows,
 * per direction (she trusts him, he fears her), and the inverse table shows the
 * other side's own properties, never a copy. Real files, real Kùzu, the cold
 * bulk load and the incremental path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openCore, type CoreHost } from './index.js';
import { REL_PROPS_SCHEMA } from '../edit/test-host.js';


const notes: Record<string, string> = {
  'Mira.md': `---\ntype: npc\nallies: [{ to: "[[Red Hand]]", attitude: wary, trust: 2 }, "[[Iron Guild]]"]\nfaction: { to: "[[Lantern Guild]]", role: keeper }\n---\nMira.\n`,
  'Red Hand.md': `---\ntype: faction\nallies:\n  - to: "[[Mira]]"\n    attitude: fearful\n    note: owes her a favour\n---\n`,
  'Iron Guild.md': `---\ntype: faction\n---\n`,
  'Lantern Guild.md': `---\ntype: faction\nmembers:\n  - { to: "[[Tam]]", role: sweeper }\n---\n`,
  // the same fact written on both ends: one edge, each end's own properties for its direction
  'Tam.md': `---\ntype: npc\nfaction: { to: "[[Lantern Guild]]", role: apprentice }\n---\n`,
};

let dir: string;
let core: CoreHost;
const rows = async (q: string) => (await core.cypher(q)).map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lorecraft-relprops-'));
  await mkdir(path.join(dir, 'notes'));
  await writeFile(path.join(dir, 'schema.yaml'), REL_PROPS_SCHEMA);
  for (const [f, t] of Object.entries(notes)) await writeFile(path.join(dir, 'notes', f), t);
  core = await openCore({ vaultDir: dir, dbDir: path.join(dir, '.db') });
});
afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('relationship properties on Kùzu REL rows', () => {
  it('a declared property is a typed column, per direction', async () => {
    expect(await rows(`MATCH (a)-[r:ALLIED_WITH]->(b) WHERE r.attitude = 'wary' RETURN a.name AS a, b.name AS b, r.trust AS trust`))
      .toEqual([{ a: 'Mira', b: 'Red Hand', trust: 2 }]);
    expect(await rows(`MATCH (a)-[r:ALLIED_WITH]->(b) WHERE r.attitude = 'fearful' RETURN a.name AS a, b.name AS b, r.trust AS trust, r.props AS props`))
      .toEqual([{ a: 'Red Hand', b: 'Mira', trust: null, props: JSON.stringify({ attitude: 'fearful', note: 'owes her a favour' }) }]);
    expect(await rows(`MATCH (a {name: 'Mira'})-[r:ALLIED_WITH]->(b {name: 'Iron Guild'}) RETURN r.attitude AS attitude, r.props AS props`))
      .toEqual([{ attitude: null, props: null }]);
  });

  it('the inverse table shows the other side’s own properties, never a copy', async () => {
    expect(await rows(`MATCH (a)-[r:MEMBER_OF]->(b) RETURN a.name AS a, b.name AS b, r.role AS role ORDER BY a.name`))
      .toEqual([{ a: 'Mira', b: 'Lantern Guild', role: 'keeper' }, { a: 'Tam', b: 'Lantern Guild', role: 'apprentice' }]);
    expect(await rows(`MATCH (a)-[r:MEMBER_OF]->(b) RETURN count(r) AS n`)).toEqual([{ n: 2 }]);
    expect(await rows(`MATCH (a)-[r:HAS_MEMBER]->(b) RETURN a.name AS a, b.name AS b, r.role AS role ORDER BY b.name`))
      .toEqual([{ a: 'Lantern Guild', b: 'Mira', role: null }, { a: 'Lantern Guild', b: 'Tam', role: 'sweeper' }]);
  });

  it('the model’s records carry them (for the app, the CLI and MCP)', () => {
    const mira = [...core.engine.model.edgesFrom('notes/mira' as never)];
    expect(mira).toEqual([]);
    const id = core.resolveEntity('Mira')!.id;
    const out = [...core.engine.model.edgesFrom(id)].filter((e) => e.type === 'ALLIED_WITH');
    expect(out.find((e) => e.to === core.resolveEntity('Red Hand')!.id)!.properties).toEqual({ attitude: 'wary', trust: 2 });
    expect(out.find((e) => e.to === core.resolveEntity('Iron Guild')!.id)!.properties).toBeUndefined();
  });

  it('the entity view and traversals (query relations --json, MCP get_relationships) give each relationship its properties', async () => {
    const mira = (await core.getEntity('Mira'))!;
    expect(mira.relations.find((r) => r.other.name === 'Red Hand' && r.direction === 'both' && r.source.endsWith('Mira.md'))!.properties).toEqual({ attitude: 'wary', trust: 2 });
    expect(mira.relations.find((r) => r.label === 'MEMBER_OF')!.properties).toEqual({ role: 'keeper' });
    const guild = (await core.getEntity('Lantern Guild'))!;
    expect(guild.relations.find((r) => r.label === 'HAS_MEMBER' && r.other.name === 'Tam')!.properties).toEqual({ role: 'sweeper' });
    expect(guild.relations.find((r) => r.label === 'HAS_MEMBER' && r.other.name === 'Mira')!.properties).toBeUndefined();
    const t = await core.relations('Red Hand');
    expect(t.steps.find((s) => s.type === 'ALLIED_WITH')!.properties).toEqual({ attitude: 'fearful', note: 'owes her a favour' });
    const g = await core.relations('Lantern Guild', { type: 'MEMBER_OF', direction: 'in' });
    expect(g.steps.map((s) => [s.label, s.properties ?? null])).toEqual(expect.arrayContaining([['HAS_MEMBER', { role: 'sweeper' }], ['HAS_MEMBER', null]]));
  });

  it('a property of the wrong type is a problem naming the file, the line and the field', async () => {
    const file = path.join(dir, 'notes', 'Iron Guild.md');
    await writeFile(file, `---\ntype: faction\nallies:\n  - { to: "[[Tam]]", trust: very }\n---\n`);
    await core.sync();
    const p = core.problems().filter((x) => x.code === 'relationship-property');
    expect(p).toEqual([expect.objectContaining({ file: 'notes/Iron Guild.md', line: 4, field: 'allies', severity: 'warning' })]);
    expect(p[0]!.message).toContain("ALLIED_WITH property 'trust' should be a whole number, not \"very\"");
    expect(await rows(`MATCH (a {name: 'Iron Guild'})-[r:ALLIED_WITH]->(b) RETURN r.trust AS trust, r.props AS props`)).toEqual([{ trust: null, props: '{"trust":"very"}' }]);
  });

  it('an edit on disk updates the row (incremental path)', async () => {
    const file = path.join(dir, 'notes', 'Mira.md');
    await writeFile(file, notes['Mira.md']!.replace('attitude: wary, trust: 2', 'attitude: trusting, trust: 5'));
    await core.sync();
    expect(await rows(`MATCH (a {name: 'Mira'})-[r:ALLIED_WITH]->(b {name: 'Red Hand'}) RETURN r.attitude AS attitude, r.trust AS trust`))
      .toEqual([{ attitude: 'trusting', trust: 5 }]);
    expect(await rows(`MATCH (a {name: 'Lantern Guild'})-[r:HAS_MEMBER]->(b {name: 'Mira'}) RETURN r.role AS role`)).toEqual([{ role: null }]);
  });
});
