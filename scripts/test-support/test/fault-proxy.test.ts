import { randomBytes } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultProxy, seededRandom, startFaultProxy } from '@qrshirt/test-support';

/** A loopback echo server: what a connection sends comes back unchanged. */
let echo: Server;
let proxy: FaultProxy;

beforeAll(async () => {
  echo = createServer((socket) => {
    // The reset test resets this end too.
    socket.on('error', () => {});
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  proxy = await startFaultProxy({
    listen: { host: '127.0.0.1' },
    target: { host: '127.0.0.1', port: (echo.address() as AddressInfo).port },
    random: seededRandom(32),
  });
});

afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => echo.close(resolve));
});

/**
 * Sends `payload` in `chunks` writes through the proxy and resolves with what came back and when
 * its first bytes did: `firstMs` after the first write, at `firstAt` (performance.now()).
 */
async function roundTrip(
  payload: Buffer,
  chunks: number,
): Promise<{ received: Buffer; firstMs: number; firstAt: number; error?: string }> {
  const [host, port] = proxy.address.split(':');
  const socket: Socket = connect({ host, port: Number(port) });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const startedAt = performance.now();
  let firstAt = -1;
  const parts: Buffer[] = [];
  const done = new Promise<string | undefined>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      if (firstAt < 0) firstAt = performance.now();
      parts.push(chunk);
      if (Buffer.concat(parts).length >= payload.length) resolve(undefined);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve('closed'));
  });
  const size = Math.ceil(payload.length / chunks);
  for (let offset = 0; offset < payload.length; offset += size) {
    socket.write(payload.subarray(offset, offset + size));
    // Separate chunks, as separate TCP segments would arrive.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const error = await done;
  socket.destroy();
  return { received: Buffer.concat(parts), firstMs: firstAt - startedAt, firstAt, error };
}

describe('the fault proxy', () => {
  it('relays bytes unchanged and at once without faults', async () => {
    const payload = randomBytes(64 * 1024);
    const { received, firstMs } = await roundTrip(payload, 8);
    expect(received.equals(payload)).toBe(true);
    expect(firstMs).toBeLessThan(100);
  });

  it('delays each direction, holds back lost chunks and still delivers every byte in order', async () => {
    proxy.setFaults({ delayMs: 100, loss: 0.3, resetShare: 0 });
    const lostBefore = proxy.stats.lost;
    const payload = randomBytes(256 * 1024);
    const { received, firstMs } = await roundTrip(payload, 40);
    proxy.setFaults(undefined);
    // 100 ms there and 100 ms back at least.
    expect(firstMs).toBeGreaterThanOrEqual(195);
    expect(proxy.stats.lost - lostBefore).toBeGreaterThan(0);
    expect(received.equals(payload)).toBe(true);
  });

  it('delivers a chunk held back when the faults end at its next retransmission', async () => {
    // Every try is lost while the faults last: retransmissions 200, 600 and 1,400 ms after the send.
    proxy.setFaults({ delayMs: 0, loss: 1, resetShare: 0 });
    const payload = randomBytes(1024);
    const trip = roundTrip(payload, 1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const healedAt = performance.now();
    proxy.setFaults(undefined);
    const { received, firstAt } = await trip;
    expect(received.equals(payload)).toBe(true);
    expect(firstAt).toBeGreaterThanOrEqual(healedAt);
  });

  it('resets connections when told to', async () => {
    proxy.setFaults({ delayMs: 0, loss: 0, resetShare: 1 });
    const resetsBefore = proxy.stats.resets;
    const { received, error } = await roundTrip(randomBytes(1024), 1);
    proxy.setFaults(undefined);
    expect(received.length).toBe(0);
    expect(error).toBe('ECONNRESET');
    expect(proxy.stats.resets).toBe(resetsBefore + 1);
  });
});
