/**
 * Oracle for the problems' names (issue 17: a players' view drops a problem whose message names an entity it
 * hides): the index of every name and the index of only the names that could be in the problems' messages
 * (nameIndex with `messages`) find in each message the entities a plain search of every name finds, on names of
 * every case and on letters whose lower case is not ASCII or changes the length.
 */
import { describe, expect, it } from 'vitest';
import { nameIndex, namesByIndex } from './audience.js';

type E = { id: string; name: string; aliases: string[] };
/** every message's names by the index of the names those messages may hold, against the index of every name; how many found */
const same = (entities: E[], messages: string[]) => {
  const all = nameIndex(entities), few = nameIndex(entities, messages);
  let n = 0;
  for (const msg of messages) {
    // plainly: the entities one of whose names (3 characters or more), lowercased, the lowercased message holds
    const lower = msg.toLowerCase();
    const want = new Set(entities.filter((e) => [e.name, ...e.aliases].some((x) => x.length >= 3 && lower.includes(x.toLowerCase()))).map((e) => e.id));
    expect(new Set(namesByIndex(all, msg)), msg).toEqual(want);
    expect(new Set(namesByIndex(few, msg)), msg).toEqual(want);
    n += want.size;
  }
  // not vacuous: the index of the messages' names is smaller than the whole one
  expect(few.byName.size).toBeLessThan(all.byName.size);
  return n;
};

describe("a problem's names, by the index of the names its messages may hold", () => {
  const entities: E[] = [
    { id: 'a', name: 'Mira Vell', aliases: ['The Widow', 'MV'] },
    { id: 'b', name: 'TOWN 12', aliases: [] },
    { id: 'c', name: 'İzmir Gate', aliases: ['izmir'] },
    { id: 'd', name: 'ΣΟΦΙΑ', aliases: ['Straße Nord'] },
    { id: 'e', name: 'Ab', aliases: ['Abc'] },
    { id: 'f', name: 'town 1', aliases: ['Town 12'] },
    { id: 'g', name: 'Øst', aliases: [] },
    { id: 'h', name: 'Unnamed Elsewhere', aliases: ['Nowhere Hall'] },
    { id: 'i', name: 'ZEPHYR Keep', aliases: [] },
  ];
  it('finds the names the index of every name finds', () => {
    const found = same(entities, [
      'unresolved link [[mira vell]] in the widow\'s note',
      'Town 12 and town 1 and TOWN 1',
      'i̇zmir gate is İZMIR GATE; izmir too',
      'σοφια, ΣΟΦΙΑ and STRASSE nord, straße nord',
      'ab abc ABC',
      'øst Øst',
      'nothing here',
      '',
      'mv',
      'the zephyr keep\'s note',
    ]);
    expect(found).toBeGreaterThanOrEqual(8);
  });

  it('finds the same on random names and messages', () => {
    // mulberry32: a small generator whose low bits are not periodic
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return (((t ^ (t >>> 14)) >>> 0) % n);
    };
    const letters = ['a', 'A', 'b', 'B', 'z', 'Z', ' ', '-', 'İ', 'i', 'I', 'ß', 'Σ', 'σ', 'ς', 'Ø', 'é', 'É', '1', 'q', 'Q', 'x'];
    const word = (len: number) => Array.from({ length: len }, () => letters[rnd(letters.length)]).join('');
    const ents: E[] = Array.from({ length: 2000 }, (_, i) => ({ id: `e${i}`, name: word(2 + rnd(5)), aliases: rnd(3) ? [] : [word(3 + rnd(3))] }));
    let named = 0;
    for (let k = 0; k < 30; k++) {
      // a few messages of random letters with a few names in them, their case changed
      const messages = Array.from({ length: 1 + rnd(4) }, () => Array.from({ length: 3 }, () => {
        const e = ents[rnd(ents.length)]!;
        const n = rnd(2) ? e.name : e.aliases[0] ?? e.name;
        return [word(rnd(4)), rnd(2) ? n.toUpperCase() : n.toLowerCase()].join('');
      }).join(''));
      named += same(ents, messages);
    }
    expect(named).toBeGreaterThan(100);
  });
});
