import { spawnSync } from 'node:child_process';
import { rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaled } from '@qrshirt/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { webBuildIsCurrent } from '../../web/scripts/build-fingerprint.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `npm start`'s prestart, as package.json runs it: what it reports, on stderr. */
function check(...args: string[]): string {
  const run = spawnSync(process.execPath, ['scripts/build-if-stale.mjs', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: scaled(180_000),
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toBe('');
  return run.stderr;
}

/** Gives a file a new mtime, as saving it in an editor does. */
function touch(file: string): void {
  const now = new Date();
  utimesSync(file, now, now);
}

describe("npm start's staleness check", () => {
  beforeAll(() => {
    check();
  });

  it('builds nothing on a restart of a built tree', () => {
    const output = check();
    expect(output).toContain('web client: web/dist and web/dist-server are up to date');
    expect(output).toContain('server: the bundles are up to date');
  });

  it('rebuilds the server bundles after a source they are made of changed, once', () => {
    const bundle = path.join(root, 'services/gateway/dist/main.mjs');
    const before = statSync(bundle).mtimeMs;
    // A module of core's, which the gateway's bundle takes in through @qrshirt/core.
    touch(path.join(root, 'services/core/src/index.ts'));
    expect(check('--server')).toContain('server: bundled services/gateway/dist/main.mjs');
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(before);
    expect(check('--server')).toContain('server: the bundles are up to date');
  });

  it('sees a changed web source as a stale web build', () => {
    expect(webBuildIsCurrent()).toBe(true);
    // Only the check: building here would empty web/dist under the browser tests that serve it. A
    // new file rather than an edit, so that taking it away leaves the sources exactly as built.
    const probe = path.join(root, 'web/src/build-check-probe.ts');
    writeFileSync(probe, 'export {};\n');
    try {
      expect(webBuildIsCurrent()).toBe(false);
    } finally {
      rmSync(probe);
    }
    expect(webBuildIsCurrent()).toBe(true);
  });
});
