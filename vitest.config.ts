import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['main/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.ts', 'renderer/**/*.test.tsx', 'preload/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Kùzu is a native addon holding file locks: run test files in forked processes.
    pool: 'forks',
  },
});
