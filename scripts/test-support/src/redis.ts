import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from './find-executable';
import { freePort } from './free-ports';

export interface LocalRedis {
  url: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
const POLL_MS = 25;

/** The redis-server binary on PATH or Debian's usual place; undefined when not installed. */
export function findRedisServer(): string | undefined {
  return findExecutable('redis-server', ['/usr/bin/redis-server']);
}

/**
 * Starts a throwaway redis-server (no persistence) on a free loopback port and resolves once it
 * answers PING. It is killed when this process exits, in case stop() is never reached.
 */
export async function startRedis(): Promise<LocalRedis> {
  const binary = findRedisServer();
  if (!binary) throw new Error('redis-server not found (run scripts/infra/install-redis.sh)');
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

async function startOn(binary: string, port: number): Promise<LocalRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'qr-redis-'));
  const logPath = join(dir, 'redis.log');
  const log = openSync(logPath, 'w');
  const child = spawn(
    binary,
    ['--save', '', '--appendonly', 'no', '--bind', '127.0.0.1', '--port', String(port), '--dir', dir],
    { stdio: ['ignore', log, log] },
  );
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  // The exit hook owns the cleanup, so a forgotten stop() does not keep the process alive.
  child.unref();

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      await terminate(child, exited);
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };

  try {
    await waitForPing(port, child);
  } catch (error) {
    const output = safeRead(logPath);
    await stop();
    const message = `redis-server did not start on port ${port}: ${(error as Error).message}\n${output}`;
    throw output.includes('Address already in use') ? new PortTakenError(message) : new Error(message);
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

async function waitForPing(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`it exited (${child.exitCode ?? child.signalCode})`);
    }
    if (await pingOnce(port)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`no PONG within ${START_TIMEOUT_MS} ms`);
}

/** One inline PING over a raw socket: true on +PONG, false on refusal or anything else. */
function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
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

async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-2_000);
  } catch {
    return '';
  }
}
