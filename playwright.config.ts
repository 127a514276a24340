import { defineConfig } from '@playwright/test';

// E2E runs the real renderer in Debian's Chromium against the real core
// through the web shell. Never `npx playwright install` (no downloads here).
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'e2e/.artifacts',
  timeout: 60_000,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    viewport: { width: 1440, height: 900 },
    trace: 'off',
  },
});
