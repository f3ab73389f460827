import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_JWT_SECRET, TEST_WEBHOOK_SECRET } from './test-secret';

const mainFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  /** Every line it wrote to stdout and stderr so far: its log. */
  output: string[];
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * `npm start`'s entry point as a separate OS process, signing tokens (and checking webhooks) with the tests' secrets unless
 * `env` says otherwise; resolves once /healthz answers.
 */
export async function startGatewayProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<GatewayProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      DONATION_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A run that ends early (a failed test, an interrupted benchmark) must not leave gateways behind
  // to use the cores the next measurement needs.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      process.off('exit', killOnExit);
      resolve(code);
    }),
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      output.push(...lines);
    });
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`gateway exited with ${exitCode} before listening: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`gateway did not start in ${timeoutMs} ms: ${stderr}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    output,
    async stop() {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}
