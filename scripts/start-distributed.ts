/**
 * `npm run start:distributed [-- --port 8080]`: the docker-compose topology as plain processes on
 * this machine. A Redis and a Kafka broker (@qrshirt/test-support), then two gateways producing to Kafka
 * and reading Redis (PROJECTIONS=off), the ingestor and the projector, all sharing one SQLite event
 * store file in WAL mode. Prints where each listens once all are ready; Ctrl+C (or SIGTERM) stops
 * the gateways first, then the ingestor and the projector, then the servers.
 *
 * Ports: the gateways on --port and --port+1 with their operations endpoints (/readyz, /metrics)
 * on 9464 and 9465, the ingestor's and projector's on 9101 and 9102, all on loopback; `--port 0`
 * picks free ports for all six.
 *
 * Every run starts empty, in a fresh folder deleted at the end: the broker is a throwaway one, and
 * the event store must not outlive the broker whose offsets its ingested events record.
 *
 * The services run from their bundles, as `npm start` and the image run them: this bundles them
 * first (scripts/server-bundles.ts); `npm run start:distributed` also builds the web client the
 * gateways serve if it is stale, as `npm start` does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  freePorts,
  type LaunchedProcess,
  launchProcess,
  type LocalKafka,
  type LocalRedis,
  startKafka,
  startRedis,
  waitForUrl,
} from '@qrshirt/test-support';
import { bundleCommand, buildServerBundles, type ServerProcessName } from './server-bundles';

const READY_TIMEOUT_MS = 120_000;

interface ServiceProcess extends LaunchedProcess {
  /** Where it serves: a gateway's public port; the ingestor's and the projector's OPS_PORT. */
  url: string;
  /** Its GET /readyz and /metrics: its OPS_PORT. */
  opsUrl: string;
}

/**
 * One of the product's processes, its log lines written to this process's stdout behind its name,
 * as `docker compose up` shows them. It runs in its own process group: a Ctrl+C in the terminal
 * reaches only this supervisor, which stops the services in order.
 */
function startService(
  name: string,
  which: ServerProcessName,
  ports: { port: number; opsPort: number },
  env: Record<string, string>,
): ServiceProcess {
  const label = `${name.padEnd(10)}| `;
  const service = launchProcess({
    name,
    command: bundleCommand(which),
    env: { ...env, OPS_PORT: String(ports.opsPort), OPS_HOST: '127.0.0.1' },
    detached: true,
    onLine: (line) => process.stdout.write(`${label}${line}\n`),
  });
  return Object.assign(service, {
    url: `http://127.0.0.1:${ports.port}`,
    opsUrl: `http://127.0.0.1:${ports.opsPort}`,
  });
}

const waitUntilReady = (service: ServiceProcess) =>
  waitForUrl(service, `${service.opsUrl}/readyz`, { timeoutMs: READY_TIMEOUT_MS, intervalMs: 200 });

const { values } = parseArgs({ options: { port: { type: 'string', default: '8080' } } });
const basePort = Number(values.port);
if (!Number.isInteger(basePort) || basePort < 0 || basePort > 65534) {
  console.error('--port: expected a port number (0 for free ports)');
  process.exit(2);
}
const [gateway1Port, gateway2Port, gateway1OpsPort, gateway2OpsPort, ingestorPort, projectorPort] =
  basePort === 0 ? await freePorts(6) : [basePort, basePort + 1, 9464, 9465, 9101, 9102];

const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-distributed-'));
let redis: LocalRedis | undefined;
let kafka: LocalKafka | undefined;
const gateways: ServiceProcess[] = [];
const workers: ServiceProcess[] = [];
let stopping: Promise<void> | undefined;

function stop(): Promise<void> {
  stopping ??= (async () => {
    // Gateways first: what they acknowledged is in Kafka before the ingestor stops reading it.
    await Promise.all(gateways.map((service) => service.terminate()));
    await Promise.all(workers.map((service) => service.terminate()));
    await Promise.all([kafka?.stop(), redis?.stop()]);
    await rm(dataDir, { recursive: true, force: true });
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  // Not once(): under `tsx` a Ctrl+C arrives twice, and a second signal without a handler would kill
  // this process before the services are stopped.
  process.on(signal, () => {
    console.log(`\n${signal}: stopping every service`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}

try {
  console.log('bundling the services, starting Redis and Kafka...');
  [redis, kafka] = await Promise.all([startRedis(), startKafka(), buildServerBundles()]);
  const shared = {
    DATA_DIR: dataDir,
    KAFKA_BROKERS: kafka.brokers,
    REDIS_URL: redis.url,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
  const gateway = (name: string, port: number, opsPort: number) =>
    startService(
      name,
      'gateway',
      { port, opsPort },
      { ...shared, PORT: String(port), HOST: '127.0.0.1', PROJECTIONS: 'off' },
    );
  const worker = (name: 'ingestor' | 'projector', port: number) =>
    startService(name, name, { port, opsPort: port }, shared);
  // The first gateway creates the event store file, the Kafka topics and the catalogue alone.
  gateways.push(gateway('gateway-1', gateway1Port!, gateway1OpsPort!));
  await waitUntilReady(gateways[0]!);
  gateways.push(gateway('gateway-2', gateway2Port!, gateway2OpsPort!));
  workers.push(worker('ingestor', ingestorPort!), worker('projector', projectorPort!));
  await Promise.all([...gateways, ...workers].map(waitUntilReady));
} catch (error) {
  // Only the first line: the services' own lines, which the rest of the message repeats, are on screen already.
  console.error(`could not start the distributed stack: ${(error as Error).message.split('\n')[0]}`);
  await stop();
  process.exit(1);
}

const services = [...gateways, ...workers];
console.log(
  [
    '',
    'distributed stack ready:',
    `  redis       ${redis.url}`,
    `  kafka       ${kafka.brokers}`,
    `  event store ${path.join(dataDir, 'events.sqlite')} (SQLite, WAL, shared)`,
    ...services.map((service) =>
      service.opsUrl === service.url
        ? `  ${service.name.padEnd(11)} ${service.url} pid ${service.pid}  (/healthz /readyz /metrics)`
        : `  ${service.name.padEnd(11)} ${service.url} pid ${service.pid}  ops ${service.opsUrl} (/readyz /metrics)`,
    ),
    'Ctrl+C stops them all.',
    '',
  ].join('\n'),
);

// A service that dies on its own takes the stack down with it, loudly, rather than leaving half of it.
for (const service of services) {
  void service.exited.then((code) => {
    if (stopping) return;
    console.error(`${service.name} exited (${code}) unexpectedly; stopping every service`);
    void stop().then(() => process.exit(1));
  });
}
