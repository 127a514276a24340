/**
 * A process of its own for memory.test.ts: fills V8's old space with objects, keeps one in eight (so every page
 * keeps live objects among dead ones, as a first open's notes and records do among its garbage), then runs
 * releaseAfterOpen() with its own collections (its delays run at once), or with plain full collections in their
 * place (`plain` argument), and prints the old space's committed and used sizes (bytes) before and after, as
 * `OLD <committedBefore> <committedAfter> <usedAfter>`. A fresh process, so that nothing else allocates meanwhile.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { collectGarbage, releaseAfterOpen } from './memory.js';

const old = (): { size: number; used: number } => {
  const s = getHeapSpaceStatistics().find((x) => x.space_name === 'old_space');
  return { size: s?.space_size ?? -1, used: s?.space_used_size ?? -1 };
};

const all: Array<{ i: number; a: string; b: number[] }> = [];
for (let i = 0; i < 600_000; i++) all.push({ i, a: `v${i}`, b: [i, i + 1, i + 2] });
collectGarbage();
collectGarbage(); // all of it in old space now
const kept = all.filter((_, i) => i % 8 === 0);
all.length = 0;
const before = old();
const now = (fn: () => void): void => { fn(); };
if (process.argv[2] === 'plain') releaseAfterOpen(() => true, () => collectGarbage(), now);
else releaseAfterOpen(() => true, undefined, now);
const after = old();
process.stdout.write(`OLD ${before.size} ${after.size} ${after.used} ${kept.length}\n`);
