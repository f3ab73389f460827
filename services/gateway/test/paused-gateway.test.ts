import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, startGatewayProcess } from '@qrshirt/test-support';

/** One kept-alive connection, reused for every request, as nginx's upstream pool reuses one. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Sent {
  /** Once the request is written to the connection. */
  written: Promise<void>;
  answer: Promise<{ status: number; socketReused: boolean }>;
}

function get(url: string): Sent {
  let written!: Promise<void>;
  const answer = new Promise<{ status: number; socketReused: boolean }>((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, socketReused: request.reusedSocket }));
    });
    request.on('error', reject);
    written = new Promise((resolveWritten) => request.once('finish', () => resolveWritten()));
  });
  return { written, answer };
}

describe('a gateway whose event loop stood still for longer than Node’s keep-alive timeout', () => {
  let dataDir: string;
  let gateway: GatewayProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-paused-'));
    gateway = await startGatewayProcess({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    agent.destroy();
    await gateway?.terminate();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers the request that came meanwhile on a kept-alive connection, instead of resetting it', async () => {
    expect((await get(`${gateway.url}/healthz`).answer).status).toBe(200);
    // Stopped, it runs no timer: on waking, one due during the stop fires before any socket is
    // read, as after a long page render or a busy machine's wait for a core.
    gateway.pause();
    try {
      // Past Node's default of 5 s, which closed the idle connection with the request unread.
      await sleep(6_000);
      const sent = get(`${gateway.url}/healthz`);
      await sent.written;
      gateway.resume();
      expect(await sent.answer).toEqual({ status: 200, socketReused: true });
    } finally {
      gateway.resume();
    }
  });
});
