import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts, launchProcess, scaled, waitFor, waitForLine, waitForUrl } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCommand } from '../server-bundles';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a start of the gateway, as npm start runs it', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'qrshirt-warm-start-'));
    const built = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: root, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
  }, scaled(300_000));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers its operations port from the start and renders every server-rendered page once before /readyz says ready', async () => {
    const [port, opsPort] = await freePorts(2);
    const gateway = launchProcess({
      name: 'gateway',
      command: bundleCommand('gateway'),
      env: { DATA_DIR: dataDir, PORT: String(port), OPS_PORT: String(opsPort), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    });
    try {
      // The operations port opens before the public one: once a load balancer sees /healthz, a
      // probe of the operations port is answered too, not refused.
      await waitForUrl(gateway, `http://127.0.0.1:${port}/healthz`);
      const first = await fetch(`http://127.0.0.1:${opsPort}/readyz`);
      if (first.status !== 200) {
        expect(first.status).toBe(503);
        expect(await first.json()).toMatchObject({ checks: { serverPages: 'down: warming up' } });
      }
      // When /readyz first answered 200; the log line may reach this process after the answer.
      const ready = async () => {
        if (gateway.hasExited) throw new Error(gateway.output.join('\n'));
        return (await fetch(`http://127.0.0.1:${opsPort}/readyz`)).status === 200;
      };
      await waitFor('/readyz to answer 200', ready, Boolean, { intervalMs: 20 });
      const readyAt = Date.now();
      const warmedLine = await waitForLine(gateway, (line) => line.includes('"server pages warmed"'));
      const { warmed, time } = JSON.parse(warmedLine) as { warmed: { path: string; status: number }[]; time: number };
      expect(time).toBeLessThanOrEqual(readyAt);
      // The demo catalogue's first shirt, and the landing of a fundraiser that does not exist.
      expect(warmed).toEqual(
        expect.arrayContaining([
          { path: '/', status: 200 },
          { path: '/shop', status: 200 },
          { path: expect.stringMatching(/^\/shirt\/[^/]+$/) as unknown, status: 200 },
          { path: '/fundraiser/warm-up', status: 404 },
          { path: expect.stringMatching(/^\/assets\/pages-[\w-]+\.js$/) as unknown, status: 200 },
        ]),
      );
      // Pages as a visitor gets them: the warm-up left nothing behind that shows.
      const shop = await fetch(`http://127.0.0.1:${port}/shop`);
      expect(shop.status).toBe(200);
      expect(await shop.text()).toContain('<script type="module" async src="/assets/pages-');
    } finally {
      expect(await gateway.terminate()).toBe(0);
    }
  });
});
