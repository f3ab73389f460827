import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { findExecutable } from './find-executable';
import { freePort } from './free-ports';
import { inNetns } from './launch';
import { spawnScratchServer } from './scratch-server';
import { START_MS } from './deadlines';

export interface LocalRedis {
  url: string;
  stop(): Promise<void>;
}

const POLL_MS = 25;

/** The redis-server binary on PATH or Debian's usual place; undefined when not installed. */
export function findRedisServer(): string | undefined {
  return findExecutable('redis-server', ['/usr/bin/redis-server']);
}

/** Where a Redis runs other than this machine's loopback: a host of a HostNetwork. */
export interface ServerPlacement {
  /** The network namespace it runs in. */
  netns: string;
  /** The namespace's address it listens on (besides its own loopback), which this process can reach. */
  host: string;
}

const PLACED_REDIS_PORT = 6379;

/**
 * Starts a throwaway redis-server (no persistence) on a free loopback port, or on 6379 of
 * `placement`'s host, and resolves once it answers PING. It is killed when this process exits,
 * in case stop() is never reached.
 */
export async function startRedis(placement?: ServerPlacement): Promise<LocalRedis> {
  const binary = findRedisServer();
  if (!binary) throw new Error('redis-server not found (run scripts/infra/install-redis.sh)');
  // A namespace of its own has every port free.
  if (placement) return startOn(binary, PLACED_REDIS_PORT, placement);
  // Another process can take the free port before redis-server binds it; pick again then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(binary, await freePort());
    } catch (error) {
      if (attempt === 3 || !(error instanceof PortTakenError)) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOn(binary: string, port: number, placement?: ServerPlacement): Promise<LocalRedis> {
  const host = placement?.host ?? '127.0.0.1';
  // Other hosts connect to a placed one: protected mode would refuse everyone but its loopback.
  const listen = placement
    ? ['--bind', placement.host, '127.0.0.1', '--protected-mode', 'no']
    : ['--bind', '127.0.0.1'];
  const server = await spawnScratchServer('redis', (dir) =>
    inNetns(placement?.netns, [
      binary,
      ...['--save', '', '--appendonly', 'no', ...listen, '--port', String(port), '--dir', dir],
    ]),
  );
  try {
    await waitForPing(host, port, server.child);
  } catch (error) {
    const output = server.logTail();
    await server.stop();
    const message = `redis-server did not start on port ${port}: ${(error as Error).message}\n${output}`;
    throw output.includes('Address already in use') ? new PortTakenError(message) : new Error(message);
  }
  return { url: `redis://${host}:${port}`, stop: server.stop };
}

async function waitForPing(host: string, port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`it exited (${child.exitCode ?? child.signalCode})`);
    }
    if (await pingOnce(host, port)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`no PONG within ${START_MS} ms`);
}

/** One inline PING over a raw socket: true on +PONG, false on refusal or anything else. */
function pingOnce(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    let reply = '';
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}
