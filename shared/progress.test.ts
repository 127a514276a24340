import { expect, it } from 'vitest';
import { progressLabel } from './progress.js';

it('says files read of total, then loading, then indexing search, and nothing when done', () => {
  expect(progressLabel({ phase: 'reading', done: 1234, total: 7000 })).toBe('reading 1,234 / 7,000 files');
  expect(progressLabel({ phase: 'reading', done: 0, total: 3 })).toBe('reading 0 / 3 files');
  expect(progressLabel({ phase: 'loading' })).toBe('loading the graph…');
  expect(progressLabel({ phase: 'indexing' })).toBe('indexing search…');
  expect(progressLabel(null)).toBe('');
  expect(progressLabel(undefined)).toBe('');
});
