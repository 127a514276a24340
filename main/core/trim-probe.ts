/**
 * A process of its own for memory.test.ts: leaves ~90 MB of the C heap free but resident (1,600 buffers of
 * 64 KB, below glibc's mmap threshold, every 16th kept, the rest collected: free runs between live chunks that
 * glibc does not give back by itself), then runs trimNativeHeap(); prints RSS in bytes after the collections
 * and after the trim, and the trim's result, as `TRIM <before> <after> <ms|null>`.
 */
import { collectGarbage, trimNativeHeap } from './memory.js';

const keep: Buffer[] = [];
function fill(): void {
  const all: Buffer[] = [];
  for (let i = 0; i < 1600; i++) {
    const b = Buffer.allocUnsafeSlow(64 * 1024);
    b.fill(i & 255);
    all.push(b);
    if (i % 16 === 0) keep.push(b);
  }
}
fill();
// backing stores are freed once V8 has swept the buffers that held them: two collections, a moment apart
const pause = (): Promise<void> => new Promise((r) => { setTimeout(r, 300); });
await pause();
collectGarbage();
await pause();
collectGarbage();
await pause();
const before = process.memoryUsage().rss;
const ms = trimNativeHeap();
const after = process.memoryUsage().rss;
process.stdout.write(`TRIM ${before} ${after} ${ms === null ? 'null' : ms.toFixed(1)} ${keep.length}\n`);
