import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  type ApiClient,
  as,
  createApiClient,
  createFundraiser,
  eventually,
  findJavaAndMaven,
  findRedisServer,
  infraRequired,
  type LaunchedProcess,
  outputTail,
  launchProcess,
  scaled,
  scanner,
  signUp,
  TEST_ALTCHA_MAX_NUMBER,
  TEST_PASSWORD_SCRYPT_N,
  waitForLine,
} from '@qrshirt/test-support';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../start-distributed.ts', import.meta.url));
const missing = !findJavaAndMaven()
  ? 'java or mvn (the local Kafka broker)'
  : !findRedisServer()
    ? 'redis-server'
    : undefined;
const required = infraRequired('kafka') || infraRequired('redis');
if (missing && !required) console.warn(`[start:distributed] skipped: ${missing} not found`);

/**
 * Its grace before SIGKILL: the gateways, then the workers, each within its shutdown deadline, then
 * Kafka and Redis, each given its own time to stop.
 */
const STOP_MS = scaled(60_000);

interface Service {
  name: string;
  url: string;
  /** Its /readyz and /metrics. */
  opsUrl: string;
  pid: number;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(missing !== undefined && !required)('npm run start:distributed', () => {
  let supervisor: LaunchedProcess | undefined;
  afterAll(async () => {
    // SIGTERM, which it relays to what it started: a SIGKILL ended it alone, and a failed run left
    // its four services and Kafka running for the rest of the suite.
    await supervisor?.terminate(STOP_MS);
  });

  it(
    'runs two gateways, the ingestor and the projector as processes that together serve a fundraiser’s whole story, then stops them all',
    async () => {
      if (missing) throw new Error(`REQUIRE_INFRA is set, but ${missing} was not found`);
      const started = launchProcess({
        name: 'start:distributed',
        entry: script,
        args: ['--port', '0'],
        // Its gateways inherit it: the sign-up below solves a cheap proof of work.
        env: {
          LOG_LEVEL: 'warn',
          ALTCHA_MAX_NUMBER: TEST_ALTCHA_MAX_NUMBER,
          PASSWORD_SCRYPT_N: TEST_PASSWORD_SCRYPT_N,
        },
      });
      supervisor = started;
      const output = () => started.output.join('\n');
      // Kafka, Redis, then its four processes, each ready before it prints where they listen.
      await waitForLine(started, (line) => line.includes('Ctrl+C stops them all.'), scaled(180_000));

      const services = [
        ...output().matchAll(
          /^ {2}(gateway-1|gateway-2|ingestor|projector) +(http:\/\/\S+) pid (\d+)(?: {2}ops (http:\/\/\S+))?/gm,
        ),
      ].map(([, name, url, pid, opsUrl]): Service => ({
        name: name!,
        url: url!,
        opsUrl: opsUrl ?? url!,
        pid: Number(pid),
      }));
      expect(services.map((service) => service.name)).toEqual(['gateway-1', 'gateway-2', 'ingestor', 'projector']);
      expect(new Set(services.map((service) => service.pid)).size).toBe(4);
      const [one, two] = [createApiClient(services[0]!.url), createApiClient(services[1]!.url)];

      const owner = await signUp(one);
      const { id: fundraiserId } = await createFundraiser(two, as(owner), { name: 'Across processes' });

      const scan = async (api: ApiClient, n: number) =>
        (await api('POST', `/api/fundraisers/${fundraiserId}/scan`, { headers: scanner(n) })).status;
      // Fifty people, and ten more requests from one of them through the other gateway: a person
      // counts once, whichever gateway took the scan.
      const statuses = await Promise.all([
        ...Array.from({ length: 30 }, (_, i) => scan(one, i)),
        ...Array.from({ length: 20 }, (_, i) => scan(two, 30 + i)),
        ...Array.from({ length: 10 }, () => scan(two, 0)),
      ]);
      expect(statuses.every((status) => status === 202)).toBe(true);
      // A demo donation as the demo widget and the page make it: the demo processor in one gateway
      // confirms it with its signed webhook, the page reports it to another.
      const donate = async (processor: ApiClient, page: ApiClient, amount: number) => {
        const reference = randomUUID();
        const charged = await processor('POST', '/api/demo-processor/donations', {
          body: { fundraiserId, amount, reference },
        });
        expect(charged.status).toBe(202);
        const reported = await page('POST', `/api/fundraisers/${fundraiserId}/donate`, {
          body: { amount },
          headers: { 'Idempotency-Key': reference },
        });
        expect(reported.status).toBe(201);
      };
      await donate(one, two, 12.5);
      await donate(two, one, 7.5);

      // Eventually consistent: the ingestor and the projector run on their own time.
      // The demo's donations are test money: beside the money raised, never in it.
      const expected = {
        scans: 50,
        scanRequests: 60,
        donations: 0,
        amountRaised: 0,
        testDonations: 2,
        testAmountRaised: 20,
        amountReported: 0,
      };
      for (const api of [one, two]) {
        const stats = await eventually(
          async () => (await api('GET', `/api/fundraisers/${fundraiserId}/stats`, as(owner))).body,
          (body) =>
            body.scanRequests === expected.scanRequests &&
            body.testDonations === expected.testDonations &&
            body.amountReported === expected.amountReported,
        );
        expect(stats).toMatchObject(expected);
      }
      const mine = await one('GET', `/api/user/${owner.user.uid}/stats`, as(owner));
      expect(mine.body).toMatchObject({ totalScans: 50, totalImpact: 0, testAmountRaised: 20 });

      for (const service of services) {
        const answer = await fetch(`${service.opsUrl}/readyz`);
        expect(answer.status, service.name).toBe(200);
      }
      // A gateway's public port serves neither.
      expect((await fetch(`${services[0]!.url}/readyz`)).status).toBe(404);
      expect((await fetch(`${services[0]!.url}/metrics`)).status).toBe(404);
      const checks = async (service: Service) =>
        ((await (await fetch(`${service.opsUrl}/readyz`)).json()) as { checks: object }).checks;
      expect(Object.keys(await checks(services[0]!)).sort()).toEqual([
        'credentials',
        'diskSpace',
        'eventStore',
        'kafka',
        'outbox',
        'readModels',
        'serverPages',
      ]);
      expect(Object.keys(await checks(services[2]!)).sort()).toEqual(['consumer', 'diskSpace', 'eventStore', 'kafka']);
      expect(Object.keys(await checks(services[3]!)).sort()).toEqual(['eventStore', 'projections', 'readModels']);
      const ingestorMetrics = await (await fetch(`${services[2]!.opsUrl}/metrics`)).text();
      expect(ingestorMetrics).toMatch(
        /^kafka_consumer_lag_messages\{topic="scans\.v1",partition="0",service="ingestor"\} \d+$/m,
      );
      const projectorMetrics = await (await fetch(`${services[3]!.opsUrl}/metrics`)).text();
      expect(projectorMetrics).toMatch(/^projection_lag_events\{projection="fundraisers",service="projector"\} 0$/m);
      // The gateways project nothing themselves (PROJECTIONS=off).
      expect(await (await fetch(`${services[0]!.opsUrl}/metrics`)).text()).not.toContain('projection_lag_events{');

      // Exit 0: it stopped them all itself, before the SIGKILL at the end of the grace.
      const signalledAt = Date.now();
      expect(await started.terminate(STOP_MS), outputTail(started)).toBe(0);
      console.log(`[start:distributed] stopped everything ${Date.now() - signalledAt} ms after SIGTERM`);
      expect(services.filter((service) => alive(service.pid)).map((service) => service.name)).toEqual([]);
    },
    scaled(300_000),
  );
});
