/**
 * Lazy bodies (body.ts): what a lazy note and a note's entity record give, and what they cost. The cost is
 * checked through V8's own view of the objects (%HasFastProperties, %HaveSameMap; natives syntax switched on
 * for this worker): a getter per object used to turn every note and every record into a dictionary-mode
 * object (~800 bytes more each, ~16 MB of heap at 10k notes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { VaultModel } from '../model/model.js';
import { config, schemaView } from '../model/test-helpers.js';
import { parseNote } from '../parse/parse.js';
import { bodyInMemory, makeBodyLazy } from './body.js';
import { tempDir } from './test-helpers.js';

setFlagsFromString('--allow-natives-syntax');
const fast = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

function vault(n: number): { dir: string; texts: string[] } {
  const dir = tempDir('lazy-body');
  const texts: string[] = [];
  for (let i = 0; i < n; i++) {
    const text = `---\ntitle: Note ${i}\ntags: [a, b]\nhome: "[[Note ${(i + 1) % n}]]"\n---\nThe body of note ${i}, with [[Note ${(i + 2) % n}]] in it.\n`;
    writeFileSync(join(dir, `Note ${i}.md`), text);
    texts.push(text);
  }
  return { dir, texts };
}

describe('lazy note bodies', () => {
  it('a lazy note reads its body from its file, and lazy notes share one hidden class', () => {
    const { dir, texts } = vault(3);
    const notes = texts.map((t, i) => parseNote(`Note ${i}.md`, Buffer.from(t)));
    const bodies = notes.map((n) => n.body);
    for (const [i, n] of notes.entries()) makeBodyLazy(n, join(dir, `Note ${i}.md`));
    expect(notes.map((n) => n.body)).toEqual(bodies);
    expect(notes.every((n) => !bodyInMemory(n))).toBe(true);
    expect(Object.keys(notes[0]!)).toContain('body');
    // the file is the truth: a changed file gives its new body
    writeFileSync(join(dir, 'Note 1.md'), '---\ntitle: Note 1\n---\nrewritten\n');
    expect(notes[1]!.body).toBe('rewritten\n');
    // made lazy again (the engine does so after every sync): still the same shape
    makeBodyLazy(notes[2]!, join(dir, 'Note 2.md'));
    expect(notes[2]!.body).toBe(bodies[2]);
    for (const n of notes) expect(fast(n)).toBe(true);
    expect(sameMap(notes[0]!, notes[1]!)).toBe(true);
    expect(sameMap(notes[0]!, notes[2]!)).toBe(true);
  });

  it('a note without a body in memory (from the note cache) made lazy has the same hidden class', () => {
    const { dir, texts } = vault(2);
    const parsed = texts.map((t, i) => parseNote(`Note ${i}.md`, Buffer.from(t)));
    const cached = parsed.map((n) => { const { body: _body, ...rest } = n; return rest as typeof n; });
    for (const [i, n] of cached.entries()) makeBodyLazy(n, join(dir, `Note ${i}.md`));
    expect(cached.map((n) => n.body)).toEqual(parsed.map((n) => n.body));
    for (const n of cached) expect(fast(n)).toBe(true);
    expect(sameMap(cached[0]!, cached[1]!)).toBe(true);
  });

  it("a note's entity record gives the note's body as it is now, and records share one hidden class", () => {
    const { dir, texts } = vault(3);
    const notes = texts.map((t, i) => parseNote(`Note ${i}.md`, Buffer.from(t)));
    const m = new VaultModel(config(), schemaView());
    m.load(notes);
    const recs = [...m.entities()].filter((r) => !r.placeholder);
    expect(recs.length).toBe(3);
    for (const r of recs) expect(r.body).toBe(notes.find((n) => n.path === r.path)!.body);
    expect(Object.keys(recs[0]!)).toContain('body');
    expect(JSON.parse(JSON.stringify(recs[0]!)).body).toBe(recs[0]!.body);
    for (const r of recs) expect(fast(r)).toBe(true);
    expect(sameMap(recs[0]!, recs[1]!)).toBe(true);
    // the note's body leaves memory: the record follows it to the file
    for (const [i, n] of notes.entries()) makeBodyLazy(n, join(dir, `Note ${i}.md`));
    writeFileSync(join(dir, 'Note 0.md'), '---\ntitle: Note 0\n---\nnew prose\n');
    expect(recs.find((r) => r.path === 'Note 0.md')!.body).toBe('new prose\n');
  });
  it('a lazy note inside its vault folder keeps no path string of its own: one shared folder object (rss15i)', () => {
    const dir = tempDir('lazy-body-folder');
    mkdirSync(join(dir, 'People', 'North'), { recursive: true });
    const n = 4000;
    const make = () => {
      const list: ReturnType<typeof parseNote>[] = [];
      for (let i = 0; i < n; i++) list.push(parseNote(`People/North/Somebody with a long name ${i}.md`, Buffer.from(`---\ntitle: N${i}\n---\nbody ${i}\n`)));
      return list;
    };
    for (let i = 0; i < 3; i++) writeFileSync(join(dir, `People/North/Somebody with a long name ${i}.md`), `---\ntitle: N${i}\n---\nbody ${i}\n`);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
    const grownBy = (list: ReturnType<typeof make>, abs: (x: (typeof list)[number]) => string) => {
      const before = heap();
      for (const note of list) makeBodyLazy(note, abs(note));
      return heap() - before;
    };
    // the same notes made lazy at a path that is not theirs inside a folder (kept as a string each): the control.
    // The difference, as heapUsed reads it, swings by a few hundred kB from one reading to the next here (once from
    // 444k to 110k): the median of five, each of fresh notes
    const diffs: number[] = [];
    let notes: ReturnType<typeof make> = [];
    for (let t = 0; t < 5; t++) {
      notes = make();
      const control = make();
      const kept = grownBy(control, (x) => join(dir, `${x.path}.txt`));
      const shared = grownBy(notes, (x) => join(dir, x.path));
      diffs.push(kept - shared);
    }
    diffs.sort((a, b) => a - b);
    // a path string per note (join's result: its characters and a header; with the old code both lists kept one,
    // and the difference is ~0). Its length is the temp folder's, which differs by machine: at least 3/4 of its
    // characters a note
    const chars = join(dir, `${notes[0]!.path}.txt`).length;
    expect(diffs[2]!).toBeGreaterThan(n * chars * 0.75);
    // the body comes from the file at join(dir, note.path), as before
    expect(notes.slice(0, 3).map((x) => x.body)).toEqual(['body 0\n', 'body 1\n', 'body 2\n']);
    const where = (x: object) => (x as Record<symbol, unknown>)[Object.getOwnPropertySymbols(x).find((s) => s.description === 'lorecraft.bodyPath')!];
    expect(typeof where(notes[0]!)).toBe('object');
    expect(where(notes[0]!)).toBe(where(notes[n - 1]!));
    for (const x of notes.slice(0, 3)) expect(fast(x)).toBe(true);
    expect(sameMap(notes[0]!, notes[1]!)).toBe(true);
    // a path that is not the note's path inside a folder is kept as given
    const other = parseNote('Elsewhere.md', Buffer.from('---\ntitle: E\n---\nelsewhere\n'));
    writeFileSync(join(dir, 'renamed.md'), '---\ntitle: E\n---\nelsewhere, renamed\n');
    makeBodyLazy(other, join(dir, 'renamed.md'));
    expect(where(other)).toBe(join(dir, 'renamed.md'));
    expect(other.body).toBe('elsewhere, renamed\n');
  });
});
