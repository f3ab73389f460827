/**
 * The Kafka pipeline under load: the gateway producing scans to a real broker, an ingestor
 * process appending them, a projector process keeping Redis. Prints, in one run and for each
 * number of concurrent scanners, scans/s accepted and p99 against the trivial route of the same
 * gateway, and end-to-end freshness (a 202 until the scan
 * shows in GET /api/fundraisers/{id}/stats) while a steady background load of scans runs.
 * Run: npm run bench:kafka [-- --seconds 4 --rounds 3 --rate 2500 --connections 50,100,200 --warmup 10]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import {
  as,
  createApiClient,
  createFundraiser,
  signUp,
  startGatewayProcess,
  startIngestorProcess,
  startKafka,
  startProjectorProcess,
  startRedis,
} from '@qrshirt/test-support';
import { roundOptions, runDirectly } from './cli';
import { scanLoad } from './scanners';

interface ConcurrencyFigures {
  connections: number;
  baseline: { requestsPerSecond: number; p99Ms: number };
  scan: { requestsPerSecond: number; p99Ms: number; errors: number };
  ratio: number;
}

export interface KafkaBenchFigures {
  /**
   * One row per number of concurrent scanners: the gateway's batches (and so the broker's and the
   * ingestor's work per scan) grow with them, so the ratio does too.
   */
  byConcurrency: ConcurrencyFigures[];
  freshness: { backgroundScansPerSecond: number; probes: number; p50Ms: number; p99Ms: number };
  /** The longest wait, after a round of scans at full speed, until every accepted scan showed in stats. */
  longestCatchUpMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

/** One autocannon run. */
async function measure(options: autocannon.Options) {
  const result = await autocannon(options);
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    sent: result.requests.total,
    accepted: result['2xx'],
  };
}

export async function benchKafka(options: {
  seconds: number;
  rounds: number;
  connections: number[];
  rate: number;
  /** Seconds of scans before anything is measured. */
  warmup: number;
}): Promise<KafkaBenchFigures> {
  const [kafka, redis] = await Promise.all([startKafka(), startRedis()]);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-bench-kafka-'));
  const env = { DATA_DIR: dataDir, KAFKA_BROKERS: kafka.brokers, REDIS_URL: redis.url, LOG_LEVEL: 'warn' };
  // The distributed topology (compose, start:distributed): the projector is a process of its own.
  const gateway = await startGatewayProcess({ ...env, PROJECTIONS: 'off' });
  const ingestor = await startIngestorProcess({ ...env, LOG_LEVEL: 'info' });
  const projector = await startProjectorProcess({ DATA_DIR: dataDir, REDIS_URL: redis.url });
  try {
    const api = createApiClient(gateway.url);
    const listed = async (path: string) => ((await api('GET', path)).body as unknown[]).length;
    // The projector catches up with the seeded catalogue on its own time.
    while ((await listed('/api/charities')) === 0 || (await listed('/api/shirts')) === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // One owner for every fundraiser: its session, got by signing up, reads their stats.
    const owner = as(await signUp(api));
    const fundraiserIds: string[] = [];
    for (let i = 0; i < 12; i++) fundraiserIds.push((await createFundraiser(api, owner)).id);
    const probe = await createFundraiser(api, owner);
    // Requests, counted or not: the load is one client, one person counted once per fundraiser.
    const projectedScans = async (id: string) =>
      ((await api('GET', `/api/fundraisers/${id}/stats`, owner)).body as { scanRequests: number }).scanRequests;
    let accepted = 0;
    // Every fundraiser in turn, so every partition gets its share.
    const scanners = scanLoad((n) => `/api/fundraisers/${fundraiserIds[n % fundraiserIds.length]}/scan`);
    const scans = async (options: autocannon.Options) => {
      const figures = await measure({ ...options, ...scanners });
      accepted += figures.accepted;
      return figures;
    };
    let longestCatchUpMs = 0;
    /**
     * The ingestor and the projector trail a burst of scans at full speed; the baseline is measured
     * once they have caught up, so it does not share the cores with them.
     */
    const caughtUp = async () => {
      const startedAt = performance.now();
      for (;;) {
        const scans = await Promise.all(fundraiserIds.map(projectedScans));
        const projected = scans.reduce((sum, count) => sum + count, 0);
        if (projected >= accepted) break;
        if (performance.now() - startedAt > 60_000)
          throw new Error(`${accepted - projected} accepted scans never reached the stats`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      longestCatchUpMs = Math.max(longestCatchUpMs, performance.now() - startedAt);
    };
    // Every process starts cold: V8's and the broker's compilers first, then a steady state, which
    // is what the figures describe.
    const first = { url: gateway.url, connections: options.connections[0]! };
    await scans({ ...first, duration: options.warmup });
    await caughtUp();
    await measure({ ...first, url: `${gateway.url}/healthz`, duration: Math.min(options.warmup, 2) });
    const byConcurrency: ConcurrencyFigures[] = [];
    for (const connections of options.connections) {
      const base = { url: gateway.url, connections };
      await measure({ ...base, url: `${gateway.url}/healthz`, duration: 1 });
      await scans({ ...base, duration: 1 });
      const rounds = [];
      for (let round = 0; round < options.rounds; round++) {
        await caughtUp();
        const baseline = await measure({ ...base, url: `${gateway.url}/healthz`, duration: options.seconds });
        const scan = await scans({ ...base, duration: options.seconds });
        rounds.push({ baseline, scan });
      }
      byConcurrency.push({
        connections,
        baseline: {
          requestsPerSecond: median(rounds.map((round) => round.baseline.requestsPerSecond)),
          p99Ms: median(rounds.map((round) => round.baseline.p99Ms)),
        },
        scan: {
          requestsPerSecond: median(rounds.map((round) => round.scan.requestsPerSecond)),
          p99Ms: median(rounds.map((round) => round.scan.p99Ms)),
          errors: rounds.reduce((sum, round) => sum + round.scan.errors, 0),
        },
        ratio: median(rounds.map((round) => round.scan.requestsPerSecond / round.baseline.requestsPerSecond)),
      });
    }

    // Freshness: probes one at a time on their own fundraiser, under a steady background load.
    const background = measure({
      url: gateway.url,
      connections: options.connections[0]!,
      ...scanners,
      overallRate: options.rate,
      duration: options.seconds * 2,
    });
    const lags: number[] = [];
    const deadline = Date.now() + options.seconds * 2 * 1000 - 500;
    let sent = await projectedScans(probe.id);
    while (Date.now() < deadline) {
      const answer = await api('POST', `/api/fundraisers/${probe.id}/scan`);
      if (answer.status !== 202) continue;
      const acknowledgedAt = performance.now();
      sent += 1;
      for (let polls = 0; polls < 2000; polls++) {
        if ((await projectedScans(probe.id)) >= sent) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      lags.push(performance.now() - acknowledgedAt);
    }
    const load = await background;
    return {
      byConcurrency,
      longestCatchUpMs: Math.round(longestCatchUpMs),
      freshness: {
        backgroundScansPerSecond: Math.round(load.sent / (options.seconds * 2)),
        probes: lags.length,
        p50Ms: Math.round(percentile(lags, 50)),
        p99Ms: Math.round(percentile(lags, 99)),
      },
    };
  } finally {
    await Promise.all([ingestor.kill(), projector.kill()]);
    await gateway.terminate();
    await Promise.all([kafka.stop(), redis.stop()]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatKafkaFigures(figures: KafkaBenchFigures): string {
  const { freshness, longestCatchUpMs } = figures;
  return [
    'Kafka pipeline (gateway -> Kafka 3.9.1 -> ingestor -> SQLite -> projector -> Redis), medians over rounds',
    '| concurrent scanners | baseline GET /healthz | POST /api/fundraisers/{id}/scan via Kafka | ratio (target >= 0.6) |',
    '|---|---|---|---|',
    ...figures.byConcurrency.map(
      ({ connections, baseline, scan, ratio }) =>
        `| ${connections} | ${Math.round(baseline.requestsPerSecond)} req/s, p99 ${baseline.p99Ms} ms | ${Math.round(scan.requestsPerSecond)} req/s, p99 ${scan.p99Ms} ms, ${scan.errors} errors | ${ratio.toFixed(2)} |`,
    ),
    '',
    '| freshness (202 -> visible in stats) | value |',
    '|---|---|',
    `| p50 / p99 | ${freshness.p50Ms} ms / ${freshness.p99Ms} ms over ${freshness.probes} probes (target p99 <= 1000 ms) |`,
    `| background load during the probes | ${freshness.backgroundScansPerSecond} scans/s (target >= 2000) |`,
    `| after a round at full speed, every accepted scan in stats within | ${longestCatchUpMs} ms (baselines wait for it) |`,
  ].join('\n');
}

if (runDirectly(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      ...roundOptions,
      /** Comma-separated: one measurement per number of concurrent scanners. */
      connections: { type: 'string', default: '50,100,200' },
      rate: { type: 'string', default: '2500' },
      warmup: { type: 'string', default: '10' },
    },
  });
  const figures = await benchKafka({
    seconds: Number(values.seconds),
    rounds: Number(values.rounds),
    connections: values.connections.split(',').map(Number),
    rate: Number(values.rate),
    warmup: Number(values.warmup),
  });
  console.log(formatKafkaFigures(figures));
}
