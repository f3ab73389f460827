import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Most files spend their time waiting (on Kafka, Redis, child processes, a browser), not
    // computing: on CI's 2 cores, 4 files at a time took the suite from 15 to 10 minutes.
    maxWorkers: Math.max(4, availableParallelism()),
    projects: [
      {
        test: {
          name: 'node',
          include: ['**/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'web/**'],
          // Real servers (SQLite files, redis-server, child processes) start in the hooks.
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        // The web client's components in jsdom, with web/vite.config.ts's aliases and React plugin.
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/src/testing/setup.ts'],
          testTimeout: 15_000,
        },
      },
      {
        // The whole product in a real browser: one `npm start` for all files, which take turns.
        test: {
          name: 'e2e',
          include: ['web/e2e/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          fileParallelism: false,
          globalSetup: ['web/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
