import { describe, expect, it } from 'vitest';
import { parseNote } from '../parse/parse.js';
import { buildSchema, proposeSchema, typeNameOf } from './infer.js';
import { compileSchema } from './schema-index.js';

const note = (path: string, text: string) => parseNote(path, Buffer.from(text));

describe('typeNameOf: singular type names', () => {
  it.each([
    ['Characters', 'character'], ['Factions', 'faction'], ['Classes', 'class'], ['Fungus', 'fungus'],
    ['fungi', 'fungus'], ['amphibious', 'amphibious'], ['FS', 'FS'], ['NPCs', 'NPC'], ['Deities', 'deity'],
    ['Species', 'species'], ['01 Places', 'place'], ['Magic Items', 'magic_item'], ['Organizations', 'organization'],
  ])('%s -> %s', (label, name) => expect(typeNameOf(label)).toBe(name));
});

function vault() {
  const notes = [];
  for (let i = 0; i < 6; i++) {
    notes.push(note(`Characters/C${i}.md`, [
      '---', `age: ${20 + i}`, `height: ${1.5 + i / 10}`, `alive: ${i % 2 === 0}`, `born: 1203-0${i + 1}-14`,
      `status: ${['alive', 'dead'][i % 2]}`, `epithet: "the ${i}th of a kind"`, `titles: [Sir, "Warden ${i}"]`,
      `home: "[[Town ${i % 3}]]"`, `faction: "[[Guild]]"`, 'stats: { str: 3 }', '---', 'Body.',
    ].join('\n')));
  }
  for (let i = 0; i < 3; i++) notes.push(note(`World/Places/Town ${i}.md`, `---\ntags: [place]\n---\n`));
  notes.push(note('World/Organizations/Guild.md', '---\ntags: [place]\n---\n'));
  notes.push(note('World/Organizations/Crown.md', '---\ntype: faction\n---\n'));
  notes.push(note('Loose.md', 'no frontmatter'));
  return notes;
}

describe('proposeSchema', () => {
  const notes = vault();
  const p = proposeSchema(notes);
  const byName = (n: string) => p.types.find((t) => t.name === n)!;

  it('proposes types from folders, tags and type: values, one per singular name', () => {
    expect(p.candidates.map((c) => [c.id, c.name]).sort()).toEqual([
      ['field:faction', 'faction'], ['folder:Characters', 'character'], ['folder:World/Organizations', 'organization'], ['tag:place', 'place'],
    ]);
    // the Places folder and the #place tag are one type with both rules on offer
    const place = p.candidates.find((c) => c.name === 'place')!;
    expect(place).toMatchObject({ folder: 'World/Places', tag: 'place', rule: 'both', ruleCounts: { tag: 4, folder: 3 } });
  });

  it('counts and examples agree with the summary and with the built schema', () => {
    const ix = compileSchema(p.schema);
    const recount: Record<string, number> = {};
    for (const n of notes) { const t = ix.resolveType(n); if (t) recount[t] = (recount[t] ?? 0) + 1; }
    expect(p.summary.types).toEqual(recount);
    for (const t of p.types) expect(t.count).toBe(p.summary.types[t.name] ?? 0);
    expect(p.summary.untyped).toBe(1);
    expect(p.summary.notes).toBe(notes.length);
    expect(byName('character').examples).toEqual(['C0', 'C1', 'C2', 'C3', 'C4']);
    expect(p.schema.entity_types.find((t) => t.name === 'character')!.description).toBe('notes from Characters/ (6)');
  });

  it('infers property kinds from the frontmatter the notes have', () => {
    const props = Object.fromEntries(byName('character').properties.map((x) => [x.name, x]));
    expect(props.age).toMatchObject({ type: 'integer', count: 6 });
    expect(props.height).toMatchObject({ type: 'number' });
    expect(props.alive).toMatchObject({ type: 'boolean' });
    expect(props.born).toMatchObject({ type: 'date' });
    expect(props.status).toMatchObject({ type: 'enum', values: ['alive', 'dead'] });
    expect(props.epithet).toMatchObject({ type: 'string' }); // six distinct values: not an enum
    expect(props.titles).toMatchObject({ type: 'list', items: 'string' });
    expect(props.stats).toBeUndefined(); // nested: left undeclared (still editable)
  });

  it('turns link-valued keys into relationships with their observed target types', () => {
    const rel = Object.fromEntries(byName('character').relations.map((x) => [x.field, x]));
    expect(rel.home).toMatchObject({ relationship: 'HOME', target_type: 'place', cardinality: 'scalar' });
    // Guild is tagged #place: the tag rule wins over the Organizations folder
    expect(rel.faction).toMatchObject({ relationship: 'MEMBER_OF', target_type: 'place' });
    expect(p.schema.relationship_types.map((r) => r.name).sort()).toEqual(['HOME', 'MEMBER_OF']);
    expect(byName('character').properties.some((x) => x.name === 'home')).toBe(false);
  });

  it('builds from the GM\'s choices: rename, merge, drop, folder instead of tag', () => {
    const b = buildSchema(notes, p.candidates, [
      { id: 'folder:Characters', name: 'person', keep: true },
      { id: 'folder:World/Organizations', name: 'faction', keep: true }, // merged with type: faction
      { id: 'tag:place', name: 'place', rule: 'folder', keep: true },
    ]);
    expect(b.summary.types).toEqual({ person: 6, faction: 2, place: 3 });
    expect(b.types.find((t) => t.name === 'faction')!.from).toEqual(['field:faction', 'folder:World/Organizations']);
    expect(b.schema.type_rules).toContainEqual({ folder: 'World/Places', type: 'place' });
    expect(b.schema.type_rules.some((r) => 'tag' in r)).toBe(false);
    const dropped = buildSchema(notes, p.candidates, [{ id: 'folder:Characters', name: 'character', keep: false }]);
    expect(dropped.summary.types.character).toBeUndefined();
    expect(dropped.summary.untyped).toBe(7);
    // renaming a type: value maps it
    const renamed = buildSchema(notes, p.candidates, [{ id: 'field:faction', name: 'realm', keep: true }]);
    expect(renamed.schema.type_rules[0]).toEqual({ field: 'type', map: { faction: 'realm' } });
    expect(renamed.summary.types.realm).toBe(1);
  });
});
