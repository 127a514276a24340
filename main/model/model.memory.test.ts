/**
 * What a model keeps per note beyond the notes themselves (rss15i, issue 15 point 6): the web shell holds one model
 * of the whole vault, so every object kept per note counts ~10,000 times at 10k notes. Measured with a full
 * collection before and after a load, the notes held outside the model in both readings.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseNote } from '../parse/parse.js';
import { VaultModel } from './model.js';
import { config, schemaView } from './test-helpers.js';

describe('model memory', () => {
  it("keeps no per-note array of the keys a note answers to: they are made when asked for (the name index holds them)", () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const n = 4000;
    const notes = [];
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
});
