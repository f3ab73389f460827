import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
// By path, not by package name: the config is bundled, and the package's entry is TypeScript.
import { scaled, WAIT_MS } from './scripts/test-support/src/deadlines';
import { SlowestFirst } from './scripts/vitest/slowest-first';

/**
 * Only a wait that will never end reaches a deadline (scripts/test-support/src/deadlines.ts): each
 * is generous, and scaled by TEST_TIME_SCALE on a busy machine. Every project states them: a
 * project does not inherit the root's test options.
 */
const deadlines = (testMs: number, hookMs = testMs) => ({
  testTimeout: scaled(testMs),
  hookTimeout: scaled(hookMs),
  expect: { poll: { timeout: WAIT_MS } },
});

/*
 * Files that give processes hosts of their own (createHostNetwork): making and deleting a network
 * adds and removes addresses in this machine's own namespace, and Chromium then fails every request
 * still waiting for a connection with net::ERR_NETWORK_CHANGED (it watches every interface, and no
 * switch turns that off). They are a project of their own, which scripts/vitest-report.sh runs
 * before the browser tests, never beside them; createHostNetwork refuses to run outside it.
 */
const hostNetworkFiles = ['scripts/test/partitions.test.ts', 'scripts/test-support/test/host-network.test.ts'];

export default defineConfig({
  test: {
    // Most files spend their time waiting (on Kafka, Redis, child processes, a browser), not
    // computing: on CI's 2 cores, 4 files at a time took the suite from 15 to 10 minutes.
    maxWorkers: Math.max(4, availableParallelism()),
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        test: {
          name: 'node',
          include: ['**/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'web/**', ...hostNetworkFiles],
          // Real servers (SQLite files, redis-server, child processes) start in the hooks.
          ...deadlines(120_000, 240_000),
          pool: 'forks',
          // A worker keeps the modules it loaded for its next file: loading them anew for each of
          // 180 files was 565 s of the suite's import time (223 s without). These tests share no
          // module state (each builds its own servers); the few that fake timers put them back.
          isolate: false,
          globalSetup: ['scripts/vitest/fresh-bundles.ts'],
        },
      },
      {
        test: {
          name: 'hosts',
          include: hostNetworkFiles,
          ...deadlines(120_000, 240_000),
          pool: 'forks',
          globalSetup: ['scripts/vitest/fresh-bundles.ts'],
          env: { TEST_HOST_NETWORKS: 'allowed' },
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
          // One page per worker, as for the node files: a fresh jsdom and React for each file was
          // 60 % of this project's CPU. setup.ts resets what a page keeps between tests.
          isolate: false,
          ...deadlines(60_000),
          // testing-library's findBy and waitFor wait this long (web/src/testing/setup.ts).
          provide: { waitMs: WAIT_MS },
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
          ...deadlines(120_000, 300_000),
        },
      },
    ],
  },
});
