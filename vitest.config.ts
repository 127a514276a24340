import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['main/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.ts', 'renderer/**/*.test.tsx', 'preload/**/*.test.ts', 'scripts/**/*.test.ts'],
    // budgets for reporting a hung test, not timings (speed is the bench's): several tests start the CLI or the web
    // shell from source as child processes, or write hundreds of real notes, and took 15–20 s on a 2-core machine at
    // load 4; a loaded CI machine can take three times that
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Kùzu is a native addon holding file locks: run test files in forked processes.
    pool: 'forks',
  },
});
