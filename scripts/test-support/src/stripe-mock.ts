import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-ports';
import { spawnScratchServer } from './scratch-server';
import { START_MS } from './deadlines';

export interface LocalStripeMock {
  /** `http://127.0.0.1:<port>`, as STRIPE_API_URL takes it. */
  readonly url: string;
  stop(): Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const INSTALL_DIR = join(REPO_ROOT, '.infra/stripe-mock');
const BINARY = join(INSTALL_DIR, 'bin/stripe-mock');
/** Its bundled fixtures with a Checkout Session's client secret set (install-stripe-mock.sh says why). */
const FIXTURES = join(INSTALL_DIR, 'fixtures3.json');

export const STRIPE_MOCK_MISSING = 'stripe-mock not installed (run scripts/infra/install-stripe-mock.sh)';

const POLL_MS = 50;

/** Whether install-stripe-mock.sh has built stripe-mock and its fixtures. */
export function stripeMockInstalled(): boolean {
  return existsSync(BINARY) && existsSync(FIXTURES);
}

/**
 * Starts Stripe's own mock API server on a free loopback port and resolves once it answers. It is
 * killed when this process exits, in case stop() is never reached.
 */
export async function startStripeMock(): Promise<LocalStripeMock> {
  if (!stripeMockInstalled()) throw new Error(STRIPE_MOCK_MISSING);
  // Another process can take the free port before stripe-mock binds it; pick again then.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort());
    } catch (error) {
      if (attempt === 3 || !(error instanceof PortTakenError)) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOn(port: number): Promise<LocalStripeMock> {
  const server = await spawnScratchServer('stripe-mock', () => [
    BINARY,
    '-http-addr',
    `127.0.0.1:${port}`,
    // Without it stripe-mock also takes HTTPS on :12112, every interface: a second one exits.
    '-https-addr',
    '127.0.0.1:',
    '-fixtures',
    FIXTURES,
  ]);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForAnswer(url, server.child);
  } catch (error) {
    const output = server.logTail();
    await server.stop();
    const message = `stripe-mock did not start on port ${port}: ${(error as Error).message}\n${output}`;
    throw output.includes('address already in use') ? new PortTakenError(message) : new Error(message);
  }
  return { url, stop: server.stop };
}

async function waitForAnswer(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`it exited (${child.exitCode ?? child.signalCode})`);
    }
    try {
      // Any API answer will do: it is listening and has loaded its spec.
      await fetch(`${url}/v1/balance`, { headers: { authorization: 'Bearer sk_test_ready' } });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  throw new Error(`no answer within ${START_MS} ms`);
}
