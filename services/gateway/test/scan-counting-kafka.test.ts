import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type EventStore } from '@qrshirt/core';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import {
  createFundraiser,
  eventually,
  PHONE,
  ROBOTS,
  scaled,
  scanner,
  startIngestorProcess,
  type WorkerProcess,
} from '@qrshirt/test-support';
import { describeWithKafka, describeWithRedis } from '@qrshirt/test-support/vitest';
import { asUser, startTestServer, type TestServer, userToken } from './support/test-server';

const PARTITIONS = 6;
/** Short, so the killed ingestor's partitions move to its replacement within seconds. */
const SESSION_TIMEOUT_MS = 6_000;
/** Two gateways, two ingestors and a takeover: longer than a test's default. */
const TEST_MS = scaled(240_000);

interface StoredScan {
  fundraiserId: string;
  visitorHash: string;
  addressHash: string;
  bot: boolean;
  counted: boolean;
}

/**
 * Counting in the distributed topology: two gateways (in this process, so their clock can be
 * moved) producing to Kafka and sharing the day's salt through Redis (CREDENTIALS_STORE=redis),
 * an ingestor process appending to the SQLite file, killed and replaced by another that must
 * remember, from the partition's stream alone, who was counted before it took over.
 */
describeWithKafka('scan counting through Kafka, by two gateways and an ingestor that is replaced', (kafka) => {
  // The gateways write Redis's default key prefixes, so they get a server of their own.
  describeWithRedis(
    'with the salt and the read models in Redis',
    (redis) => {
      let dataDir = '';
      const gateways: TestServer[] = [];
      const ingestors: WorkerProcess[] = [];
      let store: EventStore | undefined;
      afterAll(async () => {
        await Promise.all(ingestors.map((ingestor) => ingestor.kill()));
        for (const gateway of gateways.reverse()) await gateway.stop();
        await store?.close();
        if (dataDir) await rm(dataDir, { recursive: true, force: true });
      });

      it(
        'counts each person once whichever gateway took the scan, and across a takeover of the partition',
        async () => {
          dataDir = await mkdtemp(path.join(tmpdir(), 'qrshirt-counting-'));
          let now = Date.parse('2026-03-01T10:00:00.000Z');
          const clock = () => new Date(now);
          const env = {
            KAFKA_BROKERS: kafka.brokers,
            KAFKA_PARTITIONS: String(PARTITIONS),
            REDIS_URL: redis.url,
            CREDENTIALS_STORE: 'redis',
          };
          // The first creates the topics, the event store file and the catalogue; the second only reads models.
          gateways.push(await startTestServer({ env, dataDir, clock }));
          gateways.push(await startTestServer({ env: { ...env, PROJECTIONS: 'off' }, dataDir, clock }));
          const [a, b] = gateways as [TestServer, TestServer];
          const ingestorEnv = {
            KAFKA_BROKERS: kafka.brokers,
            KAFKA_PARTITIONS: String(PARTITIONS),
            DATA_DIR: dataDir,
            INGESTOR_GROUP_ID: kafka.freshName(),
            KAFKA_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS),
          };
          ingestors.push(await startIngestorProcess(ingestorEnv));

          const { id } = await createFundraiser(a.api, asUser('counting-owner'));
          const scan = async (gateway: TestServer, headers: Record<string, string>) => {
            const answer = await gateway.api('POST', `/api/fundraisers/${id}/scan`, { headers });
            expect(answer.status).toBe(202);
          };
          const statsOnce = (scanRequests: number) =>
            eventually(
              async () =>
                (await a.api('GET', `/api/fundraisers/${id}/stats`, { token: userToken('counting-owner') })).body,
              (body) => body.scanRequests >= scanRequests,
            );

          const office = '203.0.113.10';
          const ada = { address: office, userAgent: PHONE };
          await scan(a, scanner(0, ada));
          now += 60_000;
          await scan(b, scanner(0, ada));
          await scan(b, scanner(0, { address: office, userAgent: `${PHONE} (Bo's)` }));
          // Twenty-nine more phones in the same office, through either gateway: the hour's budget is 30.
          for (let i = 0; i < 29; i++) {
            await scan(i % 2 ? a : b, scanner(0, { address: office, userAgent: `${PHONE} DeskProbe/${i}` }));
          }
          for (const userAgent of [ROBOTS.slack, ROBOTS.whatsapp, ROBOTS.facebook]) {
            await scan(a, scanner(0, { address: '198.51.100.5', userAgent }));
          }
          expect(await statsOnce(35)).toMatchObject({ scans: 30, scanRequests: 35 });

          // The partition changes hands: the new ingestor rebuilds who was counted from its stream.
          await ingestors[0]!.kill();
          ingestors.push(await startIngestorProcess(ingestorEnv));
          now += 10 * 60_000;
          await scan(b, scanner(0, ada));
          await scan(a, scanner(0, { address: '198.51.100.6' }));
          expect(await statsOnce(37)).toMatchObject({ scans: 31, scanRequests: 37 });
          // Half an hour after Ada's counted scan she could count again, but her office has used up
          // its hour: only an hour after its first scans does it have room again.
          now += 20 * 60_000;
          await scan(a, scanner(0, ada));
          expect(await statsOnce(38)).toMatchObject({ scans: 31, scanRequests: 38 });
          now += 30 * 60_000;
          await scan(b, scanner(0, ada));
          expect(await statsOnce(39)).toMatchObject({ scans: 32, scanRequests: 39 });

          store = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
          const stored = (await store.readAll({ eventTypes: ['ScanRecorded'] }))
            .map((event) => event.data as StoredScan)
            .filter((event) => event.fundraiserId === id);
          const adas = [0, 1, 35, 37, 38].map((index) => stored[index]!);
          expect(new Set(adas.map((event) => event.visitorHash)).size).toBe(1);
          expect(adas.map((event) => event.counted)).toEqual([true, false, false, false, true]);
          expect(stored.slice(32, 35).every((event) => event.bot && !event.counted)).toBe(true);
          // The office's 31st phone was turned away only by the hour's budget.
          expect(stored[31]).toMatchObject({ bot: false, counted: false });
          // Written by both ingestors: the partition's stream holds a claim of each.
          const [first] = await store.readAll({ eventTypes: ['ScanRecorded'] });
          const claims = (await store.readStream(first!.streamName)).filter(
            (event) => event.type === 'PartitionClaimed',
          );
          expect(
            new Set(claims.map((event) => (event.data as { memberId: string }).memberId)).size,
          ).toBeGreaterThanOrEqual(2);

          // One salt, today's, shared by both gateways through Redis.
          const raw = new Redis(redis.url);
          try {
            expect(Object.keys(await raw.hgetall('qr:cred:scan-salts'))).toEqual(['2026-03-01']);
            // Nothing anywhere says who scanned: not Redis (read models, credentials), not the data folder.
            const dump = await dumpRedis(raw);
            expect(dump).toContain(id);
            for (const secret of [office, '198.51.100.5', '198.51.100.6', 'DeskProbe']) {
              expect(dump.includes(secret), `${secret} in Redis`).toBe(false);
            }
          } finally {
            await raw.quit();
          }
          const files = await readdir(dataDir, { withFileTypes: true, recursive: true });
          for (const file of files.filter((entry) => entry.isFile())) {
            const bytes = await readFile(path.join(file.parentPath, file.name));
            for (const secret of [office, '198.51.100.5', 'DeskProbe']) {
              expect(bytes.includes(secret), `${secret} in ${file.name}`).toBe(false);
            }
          }
        },
        TEST_MS,
      );
    },
    { ownServer: true },
  );
});

/** Every key and value in the server, as text. */
async function dumpRedis(redis: Redis): Promise<string> {
  const parts: string[] = [];
  for await (const keys of redis.scanStream({ count: 1000 })) {
    for (const key of keys as string[]) {
      const type = await redis.type(key);
      const value =
        type === 'string'
          ? await redis.get(key)
          : type === 'hash'
            ? await redis.hgetall(key)
            : type === 'set'
              ? await redis.smembers(key)
              : type === 'list'
                ? await redis.lrange(key, 0, -1)
                : type === 'zset'
                  ? await redis.zrange(key, 0, -1, 'WITHSCORES')
                  : type;
      parts.push(key, JSON.stringify(value));
    }
  }
  return parts.join('\n');
}
