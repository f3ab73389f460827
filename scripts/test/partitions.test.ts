/**
 * The distributed processes on hosts of their own (network namespaces joined by a bridge, see
 * HostNetwork), cut apart by the network rather than killed: a cut link drops every packet both
 * ways without a reset, so connections stay half-open until timeouts notice, which a killed
 * process never shows. One stack for the four scenarios, in order, under a steady scan load each;
 * after each, every scan acknowledged since the start must be in the event store exactly once and
 * projected exactly once, every process ready again and the pipeline's lag under a second.
 *
 * Hosts: kafka, redis, gateway, ingestor, projector, and this test process (the scanners and the
 * checks), which reaches the gateway over a second, front link that cuts leave alone, as a load
 * balancer would. The event store is the embedded SQLite file, which every host opens from the
 * same disk: a file cannot be cut from a process by the network, so "an ingestor cut from the
 * store" is played as the ingestor cut from Kafka, its only network peer, mid-batch.
 *
 * Delay and loss: with `tc netem` (where the kernel has it) on every host's link; without it, every
 * connection between hosts goes through a fault proxy in this process (startFaultProxy), which
 * delays each chunk 200 ms each way and holds back 30 % of chunks as TCP does a lost packet
 * until its retransmission, and resets a few connections outright.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '@qrshirt/core';
import { KAFKA_ANSWER_DEADLINE_MS } from '@qrshirt/kafka';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  as,
  countByStatus,
  countErrors,
  createApiClient,
  createFundraiser,
  type Drained,
  drain,
  eventually,
  type FaultProxy,
  findJavaAndMaven,
  findRedisServer,
  type GatewayProcess,
  type HostNetwork,
  type LocalKafka,
  type LocalRedis,
  type ScanAnswer,
  type ScanLoad,
  scaled,
  scanLedger,
  signUp,
  START_MS,
  startFaultProxy,
  startGatewayProcess,
  startIngestorProcess,
  startKafka,
  startProjectorProcess,
  startRedis,
  startScanLoad,
  waitFor,
  type WorkerProcess,
} from '@qrshirt/test-support';
import { describeWithHostNetwork } from '@qrshirt/test-support/vitest';

const HOSTS = ['kafka', 'redis', 'gateway', 'ingestor', 'projector'];
const FUNDRAISERS = 3;
const SCANS_PER_SECOND = 200;
/** The durations: the gateway cut 20 s, the bad network 30 s. */
const GATEWAY_CUT_MS = 20_000;
const BAD_NETWORK_MS = 30_000;
/** Past the ingestor's session timeout, so the broker drops it from the group and it must rejoin. */
const INGESTOR_CUT_MS = 10_000;
const SESSION_TIMEOUT_MS = 6_000;
const PROJECTOR_CUT_MS = 10_000;
/**
 * Once healed, everything is back long before this (in seconds, on a calm machine; each test logs
 * how long it took): only a pipeline that does not recover reaches it.
 */
const RECOVERY_MS = scaled(90_000);
const BAD_NETWORK = { delayMs: 200, loss: 0.3, resetShare: 0.02 };
/** What a gateway's answer may take beyond its Kafka deadline: the HTTP round trip on a busy machine. */
const ANSWER_MARGIN_MS = scaled(2_000);
/** One scenario: its load, the fault, the recovery and the drain, each with a deadline of its own. */
const SCENARIO_MS = scaled(240_000);

interface Stack {
  network: HostNetwork;
  gateway: GatewayProcess;
  ingestor: WorkerProcess;
  projector: WorkerProcess;
  proxies: FaultProxy[];
  /** A connection of this process to the event store file the processes share. */
  store: EventStore;
  fundraiserIds: string[];
  /** Every answer of every load so far: the ledger holds the pipeline to all of them. */
  answers: ScanAnswer[];
  /** Scanners on every fundraiser until stopped; their answers join `answers`. */
  startLoad(): ScanLoad & { stopInto(): Promise<void> };
  drain(): Promise<Drained>;
  /** The status of GET /readyz of each process. */
  readiness(): Promise<Record<string, number>>;
  /** The projector's projection lag (s) and the ingestor's Kafka lag (messages), summed. */
  lag(): Promise<{ projectionSeconds: number; kafkaMessages: number }>;
}

const missingServers = [
  findJavaAndMaven() ? undefined : 'java and mvn (for Kafka)',
  findRedisServer() ? undefined : 'redis-server',
].filter(Boolean);

describeWithHostNetwork(
  'the distributed processes on hosts of their own, cut apart by the network and healed',
  { hosts: HOSTS, frontHosts: ['gateway'] },
  (network) => {
    let stack: Stack;
    const cleanups: (() => Promise<unknown>)[] = [];

    // Kafka, then the gateway, then the workers, each given START_MS to be ready.
    beforeAll(async () => {
      if (missingServers.length > 0) throw new Error(`the partition tests need ${missingServers.join(' and ')}`);
      stack = await startStack(network(), cleanups);
    }, scaled(300_000));

    afterAll(async () => {
      // Processes before the servers they use, then the servers, then the files.
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    });

    it(
      'a gateway cut from Kafka for 20 s answers 503, never acknowledges what Kafka did not store, and recovers',
      async () => {
        const load = stack.startLoad();
        await sleep(3_000);
        await stack.network.cut('gateway');
        // Only once `ip` returned: a scan acknowledged while it ran may have reached Kafka.
        const cutAt = performance.now();
        const readyWhileCut = await eventually(
          () => statusOf(`${stack.gateway.opsUrl}/readyz`),
          (status) => status === 503,
        );
        await sleep(GATEWAY_CUT_MS - (performance.now() - cutAt));
        const healedAt = performance.now();
        await stack.network.heal('gateway');
        const back = await waitForRecovery(stack, load.answers, healedAt);
        await load.stopInto();

        // Sent after the cut and answered before the heal: no packet reached Kafka or came back.
        const duringCut = load.answers.filter((answer) => answer.sentAt >= cutAt && answer.answeredAt <= healedAt);
        const slowest = Math.max(...duringCut.map((answer) => answer.answeredAt - answer.sentAt));
        console.log(
          `[gateway cut] during the cut ${summary(duringCut)}, the slowest answer after ${Math.round(slowest)} ms; ` +
            `all ${summary(load.answers)}`,
        );
        expect(readyWhileCut).toBe(503);
        // The scanners waiting when it was cut got their answer before the heal, not a hang.
        expect(duringCut.length).toBeGreaterThan(16);
        expect(countByStatus(duringCut)).toEqual({ 503: duringCut.length });
        // Counted from when each scan was accepted, time queued behind stuck produces included.
        expect(slowest).toBeLessThan(KAFKA_ANSWER_DEADLINE_MS + ANSWER_MARGIN_MS);
        await expectHealed(stack, back);
      },
      SCENARIO_MS,
    );

    it(
      'an ingestor cut from Kafka mid-batch, then healed, appends every acknowledged scan once',
      async () => {
        const load = stack.startLoad();
        await sleep(3_000);
        await nextAppend(stack.store);
        await stack.network.cut('ingestor');
        const cutAt = performance.now();
        await sleep(INGESTOR_CUT_MS);
        const healedAt = performance.now();
        await stack.network.heal('ingestor');
        const back = await waitForRecovery(stack, load.answers, healedAt);
        await load.stopInto();

        const duringCut = load.answers.filter((answer) => answer.sentAt >= cutAt && answer.answeredAt <= healedAt);
        console.log(`[ingestor cut] during the cut ${summary(duringCut)}; all ${summary(load.answers)}`);
        // The gateway and Kafka never noticed: scanning went on.
        expect(countByStatus(duringCut)).toEqual({ 202: duringCut.length });
        await expectHealed(stack, back);
      },
      SCENARIO_MS,
    );

    it(
      'a projector cut from Redis, then healed, catches up without counting anything twice',
      async () => {
        const load = stack.startLoad();
        await sleep(3_000);
        await stack.network.cut('projector');
        const cutAt = performance.now();
        await sleep(PROJECTOR_CUT_MS);
        const healedAt = performance.now();
        await stack.network.heal('projector');
        const back = await waitForRecovery(stack, load.answers, healedAt);
        await load.stopInto();

        const duringCut = load.answers.filter((answer) => answer.sentAt >= cutAt && answer.answeredAt <= healedAt);
        console.log(`[projector cut] during the cut ${summary(duringCut)}; all ${summary(load.answers)}`);
        expect(countByStatus(duringCut)).toEqual({ 202: duringCut.length });
        await expectHealed(stack, back);
      },
      SCENARIO_MS,
    );

    it(
      '30 % loss and 200 ms delay between every pair of hosts for 30 s lose and double nothing',
      async () => {
        const load = stack.startLoad();
        await sleep(3_000);
        const how = stack.network.netem ? 'tc netem' : 'the fault proxy';
        if (stack.network.netem) await stack.network.shape(['delay', '200ms', 'loss', '30%']);
        else for (const proxy of stack.proxies) proxy.setFaults(BAD_NETWORK);
        const startedAt = performance.now();
        await sleep(BAD_NETWORK_MS);
        const healedAt = performance.now();
        if (stack.network.netem) await stack.network.shape(undefined);
        else for (const proxy of stack.proxies) proxy.setFaults(undefined);
        const back = await waitForRecovery(stack, load.answers, healedAt);
        await load.stopInto();

        const during = load.answers.filter((answer) => answer.sentAt >= startedAt && answer.answeredAt <= healedAt);
        const proxied = stack.proxies.map((proxy) => `${proxy.address} ${JSON.stringify(proxy.stats)}`).join(', ');
        console.log(
          `[bad network, ${how}] during ${summary(during)}; all ${summary(load.answers)}` +
            (stack.network.netem ? '' : `; proxies ${proxied}`),
        );
        // Some scans still got through: a slow network is not a dead one.
        expect(countByStatus(during)[202] ?? 0).toBeGreaterThan(0);
        await expectHealed(stack, back);
      },
      SCENARIO_MS,
    );
  },
);

interface Recovery {
  /** Each since the heal; undefined when it did not come before RECOVERY_MS. */
  acceptingAfterMs: number | undefined;
  readyAfterMs: number | undefined;
  caughtUpAfterMs: number | undefined;
  readiness: Record<string, number>;
  lag: { projectionSeconds: number; kafkaMessages: number };
}

const allReady = (statuses: Record<string, number>) => Object.values(statuses).every((status) => status === 200);
/** Under a second: the projector's oldest unhandled event, and Kafka's backlog at the load's rate. */
const underASecond = (lag: Recovery['lag']) => lag.projectionSeconds < 1 && lag.kafkaMessages < SCANS_PER_SECOND;

/**
 * Waits, under the load, until scans are acknowledged again, every process is ready and the lag
 * is under a second, all within RECOVERY_MS of the heal; says how far it got, and when.
 */
async function waitForRecovery(stack: Stack, answers: readonly ScanAnswer[], healedAt: number): Promise<Recovery> {
  const left = () => Math.max(0, healedAt + RECOVERY_MS - performance.now());
  const sinceHeal = () => performance.now() - healedAt;
  const accepting = await eventually(
    async () => answers.find((answer) => answer.sentAt >= healedAt && answer.status === 202),
    (answer) => answer !== undefined,
    left(),
  );
  const readiness = await eventually(() => stack.readiness(), allReady, left());
  const readyAfterMs = allReady(readiness) ? sinceHeal() : undefined;
  const lag = await eventually(() => stack.lag(), underASecond, left());
  const caughtUpAfterMs = underASecond(lag) ? sinceHeal() : undefined;
  return { acceptingAfterMs: accepting && accepting.sentAt - healedAt, readyAfterMs, caughtUpAfterMs, readiness, lag };
}

async function expectHealed(stack: Stack, recovery: Recovery): Promise<void> {
  const drained = await stack.drain();
  const events = drained.tallies.reduce((sum, row) => sum + row.recorded, 0);
  const accepted = drained.tallies.reduce((sum, row) => sum + row.accepted, 0);
  const after = (ms: number | undefined) => (ms === undefined ? 'never' : `${Math.round(ms)} ms`);
  console.log(
    `  after the heal: 202s again ${after(recovery.acceptingAfterMs)}, all ready by ${after(recovery.readyAfterMs)}, ` +
      `lag under a second by ${after(recovery.caughtUpAfterMs)}; ` +
      `readiness ${JSON.stringify(recovery.readiness)}; lag ${JSON.stringify(recovery.lag)}; ` +
      `${accepted} acknowledged, ${events} ScanRecorded; ${drained.settled ? 'drained' : 'NOT drained'} in ${Math.round(drained.waitedMs)} ms`,
  );
  // What a process that did not recover went through (crashes, restarts, joins, lost
  // connections): the lag and the readiness alone do not say why.
  const lastSaid = (name: 'ingestor' | 'projector') => {
    const said = stack[name].logs.filter((line) => Number(line.level) >= 40 || /consumer/.test(line.msg));
    console.log(
      `  the ${name}'s last warnings:\n${said
        .slice(-30)
        .map((line) => JSON.stringify(line))
        .join('\n')}`,
    );
  };
  if (recovery.lag.kafkaMessages >= SCANS_PER_SECOND || recovery.readiness.ingestor !== 200) lastSaid('ingestor');
  if (recovery.lag.projectionSeconds >= 1 || recovery.readiness.projector !== 200) lastSaid('projector');
  expect(recovery.acceptingAfterMs, 'a scan acknowledged after the heal').toBeDefined();
  expect(recovery.readiness).toEqual({ gateway: 200, ingestor: 200, projector: 200 });
  expect(recovery.lag.projectionSeconds).toBeLessThan(1);
  expect(recovery.lag.kafkaMessages).toBeLessThan(SCANS_PER_SECOND);
  // A 503 whose produce reached the broker anyway may be stored: not acknowledged, not lost.
  expect(drained.tallies).toEqual(
    drained.tallies.map((row) => ({
      fundraiserId: row.fundraiserId,
      accepted: row.accepted,
      recorded: Math.max(row.recorded, row.accepted),
      projected: row.recorded,
      duplicates: 0,
      missing: 0,
    })),
  );
  expect(drained.settled).toBe(true);
}

async function startStack(network: HostNetwork, cleanups: (() => Promise<unknown>)[]): Promise<Stack> {
  const place = (host: string) => network.placement(host);
  const proxies: FaultProxy[] = [];
  const proxied = async (host: string, port: number) => {
    if (network.netem) return `${place(host).host}:${port}`;
    const proxy = await startFaultProxy({
      listen: { host: network.runnerAddress },
      target: { host: place(host).host, port },
    });
    proxies.push(proxy);
    cleanups.push(() => proxy.close());
    return proxy.address;
  };
  const kafkaAddress = await proxied('kafka', 9092);
  const redisAddress = await proxied('redis', 6379);
  const [kafka] = await Promise.all([
    startKafka({ ...place('kafka'), advertised: kafkaAddress }).then((started: LocalKafka) => {
      cleanups.push(() => started.stop());
      return started;
    }),
    startRedis(place('redis')).then((started: LocalRedis) => {
      cleanups.push(() => started.stop());
      return started;
    }),
  ]);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-partitions-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const env = {
    DATA_DIR: dataDir,
    KAFKA_BROKERS: kafka.brokers,
    KAFKA_PARTITIONS: '3',
    REDIS_URL: `redis://${redisAddress}`,
  };

  const gatewayHost = { netns: place('gateway').netns, host: network.frontPlacement('gateway').host };
  const gateway = await startGatewayProcess(
    // The scanners' addresses come in X-Forwarded-For from this process, the gateway's "balancer".
    { ...env, PROJECTIONS: 'off', NODE_ENV: 'development', TRUST_PROXY: network.runnerFrontAddress },
    START_MS,
    gatewayHost,
  );
  cleanups.push(() => gateway.kill());
  const [ingestor, projector] = await Promise.all([
    startIngestorProcess(
      { ...env, INGESTOR_GROUP_ID: `partitions-${network.id}`, KAFKA_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS) },
      START_MS,
      place('ingestor'),
    ),
    startProjectorProcess(env, START_MS, place('projector')),
  ]);
  cleanups.push(
    () => ingestor.kill(),
    () => projector.kill(),
  );

  const api = createApiClient(gateway.url);
  const owner = as(await signUp(api));
  const fundraiserIds: string[] = [];
  for (let i = 0; i < FUNDRAISERS; i++) fundraiserIds.push((await createFundraiser(api, owner)).id);
  const store = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
  cleanups.push(() => store.close());
  const ledger = scanLedger(store);
  const answers: ScanAnswer[] = [];
  const lag = async () => {
    const [projectorMetrics, ingestorMetrics] = await Promise.all([
      metricsOf(projector.opsUrl),
      metricsOf(ingestor.opsUrl),
    ]);
    const projection = samples(projectorMetrics, 'projection_lag_seconds');
    const kafkaLag = samples(ingestorMetrics, 'kafka_consumer_lag_messages');
    // No sample: the process could not be scraped, or could not ask, which is no sign of a lag of 0.
    return {
      projectionSeconds: projection.length === 0 ? Infinity : Math.max(0, ...projection),
      kafkaMessages: kafkaLag.length === 0 ? Infinity : kafkaLag.reduce((sum, one) => sum + one, 0),
    };
  };

  return {
    network,
    gateway,
    ingestor,
    projector,
    proxies,
    store,
    fundraiserIds,
    answers,
    startLoad() {
      const load = startScanLoad({
        url: gateway.url,
        fundraiserIds,
        concurrency: 32,
        total: 1_000_000,
        ratePerSecond: SCANS_PER_SECOND,
      });
      return Object.assign(load, {
        async stopInto() {
          await load.stop();
          answers.push(...load.answers);
        },
      });
    },
    drain: () =>
      drain({
        ledger,
        fundraiserIds,
        answers,
        projectedScans: async (id) => (await api('GET', `/api/fundraisers/${id}/stats`, owner)).body.scanRequests,
        // The ingestors have committed everything in Kafka: no scan is left to arrive.
        caughtUp: async () => (await lag()).kafkaMessages === 0,
      }),
    async readiness() {
      const entries = await Promise.all(
        [gateway, ingestor, projector].map(async (process) => [
          process.name,
          await statusOf(`${process.opsUrl}/readyz`),
        ]),
      );
      return Object.fromEntries(entries) as Record<string, number>;
    },
    lag,
  };
}

/** Resolves as soon as the event store's head moves: an ingestor's batch just landed. */
async function nextAppend(store: EventStore): Promise<void> {
  const head = await store.headPosition();
  await waitFor(
    'an ingestor batch appended',
    () => store.headPosition(),
    (position) => position !== head,
    {
      intervalMs: 0,
    },
  );
}

/** The status of GET `url`; 0 when it did not answer (a cut host never does). */
async function statusOf(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(scaled(3_000)) })).status;
  } catch {
    return 0;
  }
}

/** Its Prometheus text; empty when it did not answer, which leaves no sample to read. */
async function metricsOf(opsUrl: string): Promise<string> {
  try {
    return await (await fetch(`${opsUrl}/metrics`, { signal: AbortSignal.timeout(scaled(5_000)) })).text();
  } catch {
    return '';
  }
}

/** The values of every sample of `name` in Prometheus text. */
function samples(text: string, name: string): number[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
}

function summary(answers: readonly ScanAnswer[]): string {
  return `${JSON.stringify(countByStatus(answers))} ${JSON.stringify(countErrors(answers))}`;
}
