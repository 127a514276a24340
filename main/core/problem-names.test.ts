/**
 * Oracle for the problems' names (issue 17: a players' view drops a problem whose message names an entity it
 * hides): namesByScan (a few problems, no index) finds the same entities as namesByIndex (the index of every
 * name), on names of every case and on letters whose lower case is not ASCII or changes the length.
 */
import { describe, expect, it } from 'vitest';
import { nameIndex, namesByIndex, namesByScan } from './audience.js';

type E = { id: string; name: string; aliases: string[] };
const same = (entities: E[], message: string) => {
  const want = new Set(namesByIndex(nameIndex(entities), message));
  expect(new Set(namesByScan(entities, message)), message).toEqual(want);
  return want.size;
};

describe("a problem's names, without the index", () => {
  const entities: E[] = [
    { id: 'a', name: 'Mira Vell', aliases: ['The Widow', 'MV'] },
    { id: 'b', name: 'TOWN 12', aliases: [] },
    { id: 'c', name: 'İzmir Gate', aliases: ['izmir'] },
    { id: 'd', name: 'ΣΟΦΙΑ', aliases: ['Straße Nord'] },
    { id: 'e', name: 'Ab', aliases: ['Abc'] },
    { id: 'f', name: 'town 1', aliases: ['Town 12'] },
    { id: 'g', name: 'Øst', aliases: [] },
  ];
  it('finds the names the index finds', () => {
    const found = [
      'unresolved link [[mira vell]] in the widow\'s note',
      'Town 12 and town 1 and TOWN 1',
      'i̇zmir gate is İZMIR GATE; izmir too',
      'σοφια, ΣΟΦΙΑ and STRASSE nord, straße nord',
      'ab abc ABC',
      'øst Øst',
      'nothing here',
      '',
      'mv',
    ].map((msg) => same(entities, msg));
    // not vacuous: most messages name something
    expect(found.filter((n) => n > 0).length).toBeGreaterThanOrEqual(6);
  });

  it('finds the same on random names and messages', () => {
    let seed = 7;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const letters = ['a', 'A', 'b', 'B', 'z', 'Z', ' ', '-', 'İ', 'i', 'I', 'ß', 'Σ', 'σ', 'ς', 'Ø', 'é', 'É', '1'];
    const word = (len: number) => Array.from({ length: len }, () => letters[rnd(letters.length)]).join('');
    const ents: E[] = Array.from({ length: 300 }, (_, i) => ({ id: `e${i}`, name: word(2 + rnd(5)), aliases: rnd(3) ? [] : [word(3 + rnd(3))] }));
    let named = 0;
    for (let k = 0; k < 300; k++) {
      // a message of random letters with a few names in it, their case changed
      const parts = Array.from({ length: 4 }, () => {
        const e = ents[rnd(ents.length)]!;
        const n = rnd(2) ? e.name : e.aliases[0] ?? e.name;
        return [word(rnd(4)), rnd(2) ? n.toUpperCase() : n.toLowerCase()].join('');
      });
      named += same(ents, parts.join(''));
    }
    expect(named).toBeGreaterThan(300);
  });
});
