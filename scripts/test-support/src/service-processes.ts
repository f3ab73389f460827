import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { START_MS } from './deadlines';
import { freePorts } from './free-ports';
import { TEST_ALTCHA_MAX_NUMBER } from './proof-of-work';
import { type LaunchedProcess, killUnlessReady, launchProcess, waitForLine, waitForUrl } from './launch';
import type { ServerPlacement } from './redis';

/**
 * How `npm start`, the image and compose run a process: its bundle, as its package exports it
 * (`@qrshirt/gateway/bundle`), so this package runs the product's processes without importing any
 * of their code. Tests start them from the bundle too: it is what ships, and a start costs
 * a third of the CPU of compiling the sources with tsx (2.2 s against 5.4 s for the gateway).
 * The node tests' global setup rebuilds stale bundles (scripts/vitest/fresh-bundles.ts).
 */
export function processCommand(name: 'gateway' | 'ingestor' | 'projector'): [string, ...string[]] {
  let bundle: string;
  try {
    bundle = createRequire(import.meta.url).resolve(`@qrshirt/${name}/bundle`);
  } catch (error) {
    throw new Error(`No ${name} bundle: run \`node scripts/build-if-stale.mjs --server\``, { cause: error });
  }
  return [process.execPath, '--enable-source-maps', bundle];
}

/**
 * How package.json runs a command-line tool (`npm run restore` and the others): its bundle in
 * scripts/dist, built with the processes' (scripts/server-bundles.ts), followed by `args`.
 */
export function toolCommand(name: string, args: string[] = []): [string, ...string[]] {
  const bundle = fileURLToPath(new URL(`../../dist/${name}.mjs`, import.meta.url));
  if (!existsSync(bundle)) throw new Error(`No ${name} bundle: run \`node scripts/build-if-stale.mjs --server\``);
  return [process.execPath, '--enable-source-maps', bundle, ...args];
}

/**
 * The secret the gateways started here sign tokens with: made anew by each test process, so it is
 * found nowhere in the repository either. The gateway's own tests forge tokens with it.
 */
export const TEST_JWT_SECRET = randomBytes(32).toString('hex');

/**
 * The secret test gateways key lookup keys with (stream names of addresses and signups), made anew
 * likewise: a test that writes a log itself names its streams with it.
 */
export const TEST_LOOKUP_KEY_SECRET = randomBytes(32).toString('hex');

/**
 * The cost of the test gateways' new password hashes (scrypt's N): the lowest the gateway takes, a
 * millisecond a hash, as the suite's sign-ups and sign-ins spent minutes of its cores at the default.
 */
export const TEST_PASSWORD_SCRYPT_N = '1024';

/** The donation processor's webhook secret of test gateways, in Standard Webhooks' `whsec_` form; made anew likewise. */
export const TEST_WEBHOOK_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The log's cap on anonymous events stored one by one per minute in the processes started here,
 * unless `env` says otherwise: far above any test's load, since the load and fault tests find
 * each acknowledged scan by its id, which a tally past the cap does not keep. The cap's own
 * tests set a small one.
 */
const TEST_ANONYMOUS_EVENTS_PER_MINUTE = '100000000';

export interface GatewayProcess extends LaunchedProcess {
  url: string;
  /** Where its GET /readyz and /metrics answer (its operations port). */
  opsUrl: string;
}

/** A placed gateway's ports: a namespace of its own has every port free. */
const PLACED_GATEWAY_PORTS = [8080, 9464] as const;

/**
 * `npm start`'s entry point as a separate OS process on free loopback ports (its own and its
 * operations port: parallel tests must not compete for the defaults), logging at warn, signing
 * tokens with TEST_JWT_SECRET and keying lookup keys with TEST_LOOKUP_KEY_SECRET unless `env`
 * says otherwise; resolves once /healthz answers. Ports are asked of the OS here rather than left
 * to it (0): at warn, the process logs no line saying which it got. With `placement`, it runs in
 * that network namespace on 8080 and 9464 of every address it has, reached at `placement.host`.
 */
export async function startGatewayProcess(
  env: Record<string, string> = {},
  timeoutMs = START_MS,
  placement?: ServerPlacement,
): Promise<GatewayProcess> {
  const [port, opsPort] = placement ? PLACED_GATEWAY_PORTS : await freePorts(2);
  const listen = placement ? '0.0.0.0' : '127.0.0.1';
  const host = placement?.host ?? '127.0.0.1';
  const gateway = launchProcess({
    name: 'gateway',
    command: processCommand('gateway'),
    netns: placement?.netns,
    env: {
      PORT: String(port),
      HOST: listen,
      OPS_PORT: String(opsPort),
      OPS_HOST: listen,
      LOG_LEVEL: 'warn',
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      LOOKUP_KEY_SECRET: TEST_LOOKUP_KEY_SECRET,
      DONATION_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      ALTCHA_MAX_NUMBER: TEST_ALTCHA_MAX_NUMBER,
      // Production refuses a cost below its default.
      ...(env.NODE_ENV !== 'production' && { PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N }),
      ANONYMOUS_EVENTS_PER_MINUTE: TEST_ANONYMOUS_EVENTS_PER_MINUTE,
      ...env,
    },
  });
  const url = `http://${host}:${port}`;
  await killUnlessReady(gateway, waitForUrl(gateway, `${url}/healthz`, { timeoutMs }));
  return Object.assign(gateway, { url, opsUrl: `http://${host}:${env.OPS_PORT ?? opsPort}` });
}

/** One JSON line of a process's pino log; a line that is not JSON is its `msg`. */
export interface LogLine {
  msg: string;
  [field: string]: unknown;
}

export interface WorkerProcess extends LaunchedProcess {
  /** Where its GET /healthz, /readyz and /metrics answer. */
  opsUrl: string;
  /** Every line of its log so far, oldest first. */
  logs: LogLine[];
}

/**
 * `npm run start:ingestor` as its own OS process; resolves once it has joined the consumer group
 * (its 'ingestor running' line). That can take a whole session timeout when a killed member is
 * still in the group, since the coordinator waits for it before assigning partitions.
 */
export function startIngestorProcess(
  env: Record<string, string>,
  timeoutMs = START_MS,
  placement?: ServerPlacement,
): Promise<WorkerProcess> {
  // kafkajs shortens its retries under NODE_ENV=test (which vitest sets): run it as deployed.
  return startWorker(
    'ingestor',
    { NODE_ENV: 'development', ANONYMOUS_EVENTS_PER_MINUTE: TEST_ANONYMOUS_EVENTS_PER_MINUTE, ...env },
    timeoutMs,
    placement,
  );
}

/**
 * `npm run start:projector` as its own OS process; resolves once it logged 'projector running'.
 * With `placement`, either runs in that network namespace with its ops port on 9100 of every
 * address it has, reached at `placement.host`.
 */
export function startProjectorProcess(
  env: Record<string, string>,
  timeoutMs = START_MS,
  placement?: ServerPlacement,
): Promise<WorkerProcess> {
  return startWorker('projector', env, timeoutMs, placement);
}

const PLACED_OPS_PORT = 9100;

async function startWorker(
  name: 'ingestor' | 'projector',
  env: Record<string, string>,
  timeoutMs: number,
  placement: ServerPlacement | undefined,
): Promise<WorkerProcess> {
  const logs: LogLine[] = [];
  const worker = launchProcess({
    name,
    command: processCommand(name),
    netns: placement?.netns,
    // OPS_PORT 0: several of them in one test must not compete for the default port; the
    // 'running' line says which one it got.
    env: placement
      ? { LOG_LEVEL: 'info', OPS_PORT: String(PLACED_OPS_PORT), OPS_HOST: '0.0.0.0', ...env }
      : { LOG_LEVEL: 'info', OPS_PORT: '0', OPS_HOST: '127.0.0.1', ...env },
    onLine: (line, stream) => {
      if (stream === 'stdout' && line.trim() !== '') logs.push(parseLogLine(line));
    },
  });
  const running = `${name} running`;
  const line = await killUnlessReady(
    worker,
    waitForLine(worker, (text) => text.startsWith('{') && parseLogLine(text).msg === running, timeoutMs),
  );
  const opsUrl = placement ? `http://${placement.host}:${PLACED_OPS_PORT}` : String(parseLogLine(line).ops);
  return Object.assign(worker, { opsUrl, logs });
}

function parseLogLine(line: string): LogLine {
  try {
    return JSON.parse(line) as LogLine;
  } catch {
    return { msg: line };
  }
}
