/**
 * What a model keeps per note beyond the notes themselves (rss15i, issue 15 point 6): the web shell holds one model
 * of the whole vault, so every object kept per note counts ~10,000 times at 10k notes. Measured with a full
 * collection before and after a load, the notes held outside the model in both readings.
 */
import { deserialize, serialize, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseNote } from '../parse/parse.js';
import { VaultModel } from './model.js';
import { decodeSnapshot, encodeSnapshot } from './snapshot.js';
import { config, schemaView } from './test-helpers.js';

describe('model memory', () => {
  it("keeps no per-note array of the keys a note answers to: they are made when asked for (the name index holds them)", () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const n = 4000;
    const notes: ReturnType<typeof parseNote>[] = [];
    for (let i = 0; i < n; i++) {
      notes.push(parseNote(`Folk/Person ${i}.md`, Buffer.from(`---\ntitle: Someone Called ${i}\naliases: [Nick ${i}, Other ${i}]\n---\nText.\n`)));
    }
    const m = new VaultModel(config(), schemaView());
    gc();
    const before = process.memoryUsage().heapUsed;
    m.load(notes);
    gc();
    const perNote = (process.memoryUsage().heapUsed - before) / n;
    // Node 20 (rss15i): 1,324-1,367 bytes a note; 1,771-1,858 when every state kept its [kind, key] pairs
    expect(perNote).toBeLessThan(1550);
  });
  it("keeps a note's edges and targets at their exact size, built or restored from a snapshot", () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const n = 3000;
    const notes: ReturnType<typeof parseNote>[] = [];
    for (let i = 0; i < n; i++) {
      const links = [1, 2, 3, 4, 5].map((d) => `[[Person ${(i + d) % n}]]`).join(', ');
      notes.push(parseNote(`Folk/Person ${i}.md`, Buffer.from(`---\ntitle: Person ${i}\n---\nKnows ${links}.\n`)));
    }
    const perNote = (make: () => VaultModel) => {
      gc();
      const before = process.memoryUsage().heapUsed;
      const m = make();
      gc();
      const bytes = (process.memoryUsage().heapUsed - before) / n;
      expect(m.counts()).toMatchObject({ notes: n, relationships: 5 * n });
      return bytes;
    };
    const built = new VaultModel(config(), schemaView());
    const load = perNote(() => { built.load(notes); return built; });
    const raw = serialize(encodeSnapshot(built, notes, 'k')!);
    const restore = perNote(() => {
      const d = decodeSnapshot(deserialize(raw), notes, 'k')!;
      const m = new VaultModel(config(), schemaView());
      m.restoreResolved(d.notes, d.idOrder, d.groups);
      return m;
    });
    // Node 20 (rss15i): load 2,058-2,166 and restore 1,475 bytes a note; 2,432-2,442 and 1,834-1,898 with lists grown by push
    expect(load).toBeLessThan(2300);
    expect(restore).toBeLessThan(1650);
  });
});
