import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, processCommand, START_MS } from '@qrshirt/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Each process and port, with what it needs to reach its listen (nothing connects to 127.0.0.1:9). */
const cases = [
  { process: 'gateway', variable: 'PORT', env: { OPS_PORT: '0' } },
  { process: 'gateway', variable: 'OPS_PORT', env: { PORT: '0' } },
  { process: 'ingestor', variable: 'OPS_PORT', env: { KAFKA_BROKERS: '127.0.0.1:9' } },
  { process: 'projector', variable: 'OPS_PORT', env: { REDIS_URL: 'redis://127.0.0.1:9' } },
] as const;

describe('a port in use', () => {
  let holder: Server;
  let port: number;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'qrshirt-port-in-use-'));
    port = await freePort();
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => holder.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  it.each(cases)('stops the $process on its $variable with one line naming both, exit code 2', (each) => {
    const [node, ...args] = processCommand(each.process);
    const run = spawnSync(node, args, {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: path.join(folder, `${each.process}-${each.variable}`),
        HOST: '127.0.0.1',
        OPS_HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        ...each.env,
        [each.variable]: String(port),
      },
      encoding: 'utf8',
      // Only a process that went on serving reaches it.
      timeout: START_MS,
    });
    expect(run.stderr.trim().split('\n')).toEqual([
      `${each.process}: port ${port} is in use by another process: stop that one, or set ${each.variable} to a free port`,
    ]);
    expect(run.status).toBe(2);
  });
});
