import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CoreError } from '../../domain/errors.js';
import { MIN_BUFFER_MB, bufferFullError, bufferPoolBytes, bufferSetting } from './db.js';

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

  it('takes LORECRAFT_KUZU_BUFFER_MB (at least MIN_BUFFER_MB), capped the same way', () => {
    expect(MIN_BUFFER_MB).toBe(128);
    expect(bufferPoolBytes(join(dir, 'x.kuzu'), { LORECRAFT_KUZU_BUFFER_MB: '512' })).toBe(Math.min(cap, 512 * 1024 * 1024));
    expect(bufferPoolBytes(join(dir, 'x.kuzu'), { LORECRAFT_KUZU_BUFFER_MB: '128' })).toBe(Math.min(cap, 128 * 1024 * 1024));
    expect(bufferPoolBytes(join(dir, 'x.kuzu'), { LORECRAFT_KUZU_BUFFER_MB: '99999999' })).toBe(cap);
    // empty: unset
    expect(bufferPoolBytes(join(dir, 'x.kuzu'), { LORECRAFT_KUZU_BUFFER_MB: ' ' })).toBe(Math.min(cap, 2 * GB));
  });

  it('refuses a value below the floor or not a whole number, naming the variable and the value', () => {
    for (const bad of ['64', '127', '10', 'abc', '200.5', '-512']) {
      let caught: unknown = null;
      try { bufferPoolBytes(join(dir, 'x.kuzu'), { LORECRAFT_KUZU_BUFFER_MB: bad }); } catch (e) { caught = e; }
      expect(caught, bad).toBeInstanceOf(CoreError);
      expect((caught as CoreError).code).toBe('bad-config');
      expect((caught as CoreError).message).toContain(`LORECRAFT_KUZU_BUFFER_MB=${bad}:`);
      expect((caught as CoreError).message).toContain('at least 128');
    }
    expect(bufferSetting({})).toBeNull();
    expect(bufferSetting({ LORECRAFT_KUZU_BUFFER_MB: '256' })).toBe(256);
  });
});

describe('bufferFullError', () => {
  const raw = new Error('Buffer manager exception: Unable to allocate memory! The buffer pool is full and no memory could be freed!');

  it("turns Kùzu's buffer manager exception into store-out-of-memory naming the pool and the setting", () => {
    const set = bufferFullError(raw, 128 * 1024 * 1024, { LORECRAFT_KUZU_BUFFER_MB: '128' }) as CoreError;
    expect(set).toBeInstanceOf(CoreError);
    expect(set.code).toBe('store-out-of-memory');
    expect(set.message).toContain('128 MB');
    expect(set.message).toContain('LORECRAFT_KUZU_BUFFER_MB=128');
    const chosen = bufferFullError(raw, 2 * GB, {}) as CoreError;
    expect(chosen.code).toBe('store-out-of-memory');
    expect(chosen.message).toContain('2048 MB');
    expect(chosen.message).toContain('set LORECRAFT_KUZU_BUFFER_MB');
  });

  it('leaves every other error as it is', () => {
    const other = new Error('Binder exception: table X does not exist');
    expect(bufferFullError(other, GB, {})).toBe(other);
    const core = new CoreError('store-locked', 'in use');
    expect(bufferFullError(core, GB, {})).toBe(core);
  });
});
