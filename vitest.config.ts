import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'web/**'],
    // Real servers (SQLite files, redis-server, child processes) start in the hooks.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
