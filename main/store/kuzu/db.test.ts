import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bufferPoolBytes } from './db.js';

const dir = mkdtempSync(join(tmpdir(), 'lorecraft-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const GB = 1024 ** 3;
const cap = Math.floor(totalmem() * 0.8);

describe('bufferPoolBytes', () => {
  it('is 2 GB for a new or small database, 8x a large one, never above 80% of memory', () => {
    expect(bufferPoolBytes(join(dir, 'none.kuzu'), {})).toBe(Math.min(cap, 2 * GB));
    const file = join(dir, 'big.kuzu');
    writeFileSync(file, '');
    writeFileSync(`${file}.wal`, Buffer.alloc(1024));
    expect(bufferPoolBytes(file, {})).toBe(Math.min(cap, 2 * GB));
    // a sparse 400 MB file: 8x is 3.2 GB
    writeFileSync(file, '');
    truncateSync(file, 400 * 1024 * 1024);
    expect(bufferPoolBytes(file, {})).toBe(Math.min(cap, 8 * (400 * 1024 * 1024 + 1024)));
  });

  it('takes LORECRAFT_KUZU_BUFFER_MB (at least 64), capped the same way', () => {
    expect(bufferPoolBytes(join(dir, 'x.kuzu'), { LORECRAFT_KUZU_BUFFER_MB: '512' })).toBe(Math.min(cap, 512 * 1024 * 1024));
    expect(bufferPoolBytes(join(dir, 'x.kuzu'), { LORECRAFT_KUZU_BUFFER_MB: '10' })).toBe(Math.min(cap, 2 * GB));
    expect(bufferPoolBytes(join(dir, 'x.kuzu'), { LORECRAFT_KUZU_BUFFER_MB: '99999999' })).toBe(cap);
  });
});
