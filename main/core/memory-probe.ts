/**
 * A process of its own for memory.test.ts: grows V8's young generation as an open does (many short-lived
 * objects, a share of them surviving a while), then runs releaseAfterOpen() with its real collections and
 * timers and stays idle; prints the young generation's committed size (bytes) before the release, once its series
 * of young collections has run and once everything it scheduled has run, as `YOUNG <before> <afterSeries> <after>`.
 * A fresh process, so that nothing else allocates meanwhile (a test runner's worker might).
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { releaseAfterOpen, SECOND_GC_DELAY_MS, YOUNG_GC_DELAY_MS, YOUNG_GC_SERIES, YOUNG_GC_SERIES_GAP_MS } from './memory.js';

const young = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? -1;

const keep: Array<{ i: number; s: string }> = [];
for (let i = 0; i < 3_000_000; i++) {
  keep.push({ i, s: `note ${i}` });
  if (keep.length > 500_000) keep.length = 0;
}
keep.length = 0;
const before = young();
releaseAfterOpen();
let afterSeries = -1;
setTimeout(() => { afterSeries = young(); }, SECOND_GC_DELAY_MS + YOUNG_GC_SERIES * YOUNG_GC_SERIES_GAP_MS + 300);
setTimeout(() => { process.stdout.write(`YOUNG ${before} ${afterSeries} ${young()}\n`); }, SECOND_GC_DELAY_MS + YOUNG_GC_DELAY_MS + 500);
