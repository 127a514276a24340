/**
 * A process of its own for memory.test.ts: fills ~90 MB of old space with small objects, keeps every other one
 * (so every page stays about half full), then runs a plain full collection and collectGarbageCompacting(); prints
 * the old space's committed size (bytes) after the first plain collection, after a second plain one and after the
 * compacting one, the old space's used size at the end and the compacting collection's ms, as
 * `COMPACT <plain> <afterPlain> <afterCompacting> <used> <ms>`.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { collectGarbage, collectGarbageCompacting } from './memory.js';

const old = (): { size: number; used: number } => {
  const s = getHeapSpaceStatistics().find((x) => x.space_name === 'old_space');
  return { size: s?.space_size ?? -1, used: s?.space_used_size ?? -1 };
};
const kept: object[] = [];
const all: object[] = [];
for (let i = 0; i < 600_000; i++) {
  const o = { a: `x${i}`, b: [i, i + 1, i + 2], c: { d: i } };
  all.push(o);
  if (i % 2 === 0) kept.push(o);
}
// promoted while all are alive, then half of them dropped
collectGarbage();
collectGarbage();
all.length = 0;
collectGarbage();
const plain = old().size;
collectGarbage();
const afterPlain = old().size;
const ms = await collectGarbageCompacting();
const end = old();
process.stdout.write(`COMPACT ${plain} ${afterPlain} ${end.size} ${end.used} ${ms === null ? 'null' : ms.toFixed(0)} ${kept.length}\n`);
