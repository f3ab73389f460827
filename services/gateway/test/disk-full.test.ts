/*
 * The disk under DATA_DIR fills up while the embedded gateway (`npm start`'s process) takes scans
 * and waitlist sign-ups, then space is freed again, with no restart. The disk is a 64 MiB ext4
 * image, loop-mounted for this test (test-support's mountSmallDisk says why not a tmpfs).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_FULL_CODE, STORAGE_FULL_RETRY_AFTER_SECONDS } from '@qrshirt/contracts';
import { createSqliteEventStore } from '@qrshirt/sqlite';
import type { EventStore } from '@qrshirt/core';
import {
  type ApiAnswer,
  createApiClient,
  createFundraiser,
  drain,
  eventually,
  type GatewayProcess,
  mountSmallDisk,
  type LocalSmtp,
  type ReceivedMail,
  newClient,
  scaled,
  scanLedger,
  type ScanLoad,
  skipsWithoutSmallDisk,
  type SmallDisk,
  startGatewayProcess,
  startIngestorProcess,
  startScanLoad,
  startSmtpServer,
  uniqueEmail,
  type WorkerProcess,
} from '@qrshirt/test-support';
import { describeWithKafka, type TestKafka } from '@qrshirt/test-support/vitest';
import { outboxSent } from './support/outbox';
import { asUser, userToken } from './support/test-server';

const MIB = 1024 * 1024;
/** MIN_FREE_DISK for this small disk (its default, 256 MiB, is more than the whole of it). */
const LOW_SPACE_FLOOR = { MIN_FREE_DISK: String(16 * MIB) };

const unmounted = skipsWithoutSmallDisk('full disk tests');
const describeMounted = unmounted ? describe.skip : describe;

/** `data_dir_free_bytes` of a process's /metrics. */
async function freeBytesMetric(opsUrl: string): Promise<number> {
  const metrics = await fetch(`${opsUrl}/metrics`).then((answer) => answer.text());
  return Number(/^data_dir_free_bytes\{[^}]*\} (\d+)$/m.exec(metrics)?.[1]);
}

/** A waitlist join as sent, and what it was answered. */
interface Join {
  body: { shirtId: string; selectedSize: string; selectedCharity: string; name: string; email: string };
  answer: ApiAnswer;
}

describeMounted('a full disk under DATA_DIR', () => {
  let disk: SmallDisk | undefined;
  let smtp: LocalSmtp | undefined;
  let gateway: GatewayProcess | undefined;
  let load: ScanLoad | undefined;
  let log: EventStore | undefined;
  /** Whether the sign-ups go on. */
  let signingUp = false;

  beforeAll(async () => {
    disk = await mountSmallDisk();
    smtp = await startSmtpServer();
  });

  afterAll(async () => {
    signingUp = false;
    await load?.stop();
    await gateway?.terminate();
    await log?.close();
    await smtp?.stop();
    await disk?.unmount();
  });

  it(
    'refuses writes with 503 naming storage, loses nothing acknowledged, and recovers once space is freed',
    async (context) => {
      if (!disk?.dir) {
        console.warn(`[mount] full disk test skipped: ${disk?.failure}`);
        context.skip(`mounting failed: ${disk?.failure}`);
      }
      const dataDir = path.join(disk!.dir!, 'data');
      gateway = await startGatewayProcess({ DATA_DIR: dataDir, SMTP_URL: smtp!.url, ...LOW_SPACE_FLOOR });
      const started = gateway;

      const api = createApiClient(started.url);
      const ops = createApiClient(started.opsUrl);
      const fundraiser = await createFundraiser(api, asUser('disk-owner'), { name: 'On a small disk' });
      const [{ body: shirts }, { body: charities }] = await Promise.all([
        api('GET', '/api/shirts'),
        api('GET', '/api/charities'),
      ]);
      const join = (body: Join['body']) => api('POST', '/api/waitlist', { body, headers: newClient() });
      const joins: Join[] = [];
      const signUps: ApiAnswer[] = [];
      signingUp = true;
      const joining = (async () => {
        while (signingUp) {
          const body = {
            shirtId: shirts[0].id,
            selectedSize: shirts[0].sizes[0],
            selectedCharity: charities[0].id,
            name: 'Disk Filler',
            email: uniqueEmail('disk').toLowerCase(),
          };
          const answer = await join(body);
          joins.push({ body, answer });
          signUps.push(answer);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      // Awaited below; a failed sign-up must not count as unhandled meanwhile.
      joining.catch(() => {});
      load = startScanLoad({
        url: started.url,
        fundraiserIds: [fundraiser.id],
        concurrency: 4,
        total: 1_000_000,
        ratePerSecond: 40,
      });
      const scansBeforeFull = await eventually(
        async () => load!.answers.filter((answer) => answer.status === 202).length,
        (accepted) => accepted >= 40,
      );
      expect(scansBeforeFull).toBeGreaterThanOrEqual(40);

      await disk!.fill();
      const fullAt = load.answers.length;
      const fullSignUpsAt = signUps.length;
      // SQLite may still reuse room inside its write-ahead log for a while.
      await eventually(
        async () => [load!.answers.slice(fullAt), signUps.slice(fullSignUpsAt)] as const,
        ([scans, joins]) => scans.some((answer) => answer.status === 503) && joins.some((j) => j.status === 503),
        scaled(60_000),
      );
      const refusedScans = load.answers.slice(fullAt).filter((answer) => answer.status === 503);
      expect(refusedScans.length).toBeGreaterThan(0);
      for (const refused of refusedScans) expect(refused.error).toMatch(/storage is full/);
      const refusedJoins = signUps.slice(fullSignUpsAt).filter((answer) => answer.status === 503);
      expect(refusedJoins.length).toBeGreaterThan(0);
      for (const refused of refusedJoins) {
        expect(refused.body).toMatchObject({
          error: expect.stringMatching(/storage is full/),
          code: STORAGE_FULL_CODE,
        });
        expect(refused.headers.get('retry-after')).toBe(String(STORAGE_FULL_RETRY_AFTER_SECONDS));
      }

      // The store reports failing; reads still answer; the metric shows the disk full.
      const readiness = await ops('GET', '/readyz');
      expect(readiness.status).toBe(503);
      expect(readiness.body.checks.eventStore).toMatch(/^down: storage full/);
      expect(readiness.body.checks.diskSpace).toMatch(
        /^down: low on space: 0\.\d MiB free in DATA_DIR, under MIN_FREE_DISK \(16\.0 MiB\)$/,
      );
      expect((await api('GET', '/api/shirts')).status).toBe(200);
      expect((await api('GET', '/api/waitlist')).status).toBe(200);
      const stats = await api('GET', `/api/fundraisers/${fundraiser.id}/stats`, asUser('disk-owner'));
      expect(stats.status).toBe(200);
      expect(await freeBytesMetric(started.opsUrl)).toBeLessThan(MIB);

      await disk!.free();
      const ready = await eventually(
        () => ops('GET', '/readyz'),
        (answer) => answer.status === 200,
      );
      expect(ready.body).toMatchObject({
        status: 'ready',
        checks: { eventStore: 'up', readModels: 'up', diskSpace: 'up' },
      });
      const freedAt = load.answers.length;
      const freedSignUpsAt = signUps.length;
      await eventually(
        async () => [load!.answers.slice(freedAt), signUps.slice(freedSignUpsAt)] as const,
        ([scans, joins]) =>
          scans.filter((answer) => answer.status === 202).length >= 20 && joins.some((j) => j.status === 201),
      );
      signingUp = false;
      await joining;
      await load.stop();
      // The same process throughout: nothing was restarted.
      expect(started.hasExited).toBe(false);
      expect(gateway.pid).toBe(started.pid);
      // Every answer was an acknowledgement or a refusal that says why, never a 500.
      expect(new Set(load.answers.map((answer) => answer.status))).toEqual(new Set([202, 503]));
      expect(new Set(signUps.map((answer) => answer.status))).toEqual(new Set([201, 503]));
      expect(load.answers.slice(freedAt + 20).every((answer) => answer.status === 202)).toBe(true);

      // Every acknowledged scan is in the log once and counted in the stats; every acknowledged
      // sign-up is in the log.
      log = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
      const drained = await drain({
        ledger: scanLedger(log),
        fundraiserIds: [fundraiser.id],
        answers: load.answers,
        projectedScans: async (id) =>
          (await api('GET', `/api/fundraisers/${id}/stats`, { token: userToken('disk-owner') })).body.scanRequests,
      });
      expect(drained.tallies).toEqual([
        expect.objectContaining({ missing: 0, duplicates: 0, recorded: drained.tallies[0]!.accepted }),
      ]);
      expect(drained.settled).toBe(true);

      // A join refused on the full disk may have stored its signup but not its mail. Retried with
      // the same input, each completes: 201, its entry stored once, and every address gets exactly
      // one confirmation mail (a delivery repeated after a lost acknowledgement keeps its Message-ID).
      const entryIds = async () =>
        (await log!.readAll({ eventTypes: ['WaitlistJoined'] })).map(
          (event) => (event.data as { entryId: string }).entryId,
        );
      const acknowledged = joins.filter(({ answer }) => answer.status === 201);
      const toRetry = joins.filter(({ answer }) => answer.status === 503);
      const halfDone = (await entryIds()).length - acknowledged.length;
      console.info(`[disk full] ${toRetry.length} joins refused, ${halfDone} of them with their signup stored`);
      const retried: ApiAnswer[] = [];
      for (const { body } of toRetry) retried.push(await join(body));
      expect(retried.map((answer) => answer.status)).toEqual(toRetry.map(() => 201));
      const entries = await entryIds();
      expect(entries).toHaveLength(joins.length);
      expect(
        new Set([...acknowledged.map(({ answer }) => answer), ...retried].map((answer) => answer.body.data.id)),
      ).toEqual(new Set(entries));
      const addresses = joins.map(({ body }) => body.email);
      // Once the outbox has sent all it holds, a second message to anyone would have arrived. One
      // delivered while its record could not be written is sent again once its 60 s lease ends.
      await outboxSent(dataDir, { timeoutMs: scaled(90_000) });
      expect(addresses.filter((address) => confirmations(smtp!, address).size !== 1)).toEqual([]);
    },
    scaled(240_000),
  );
});

/**
 * Checkpoints a database of a running process from this one: `RESTART` leaves its write-ahead log
 * to be written again from its start, into the blocks the file holds already; `TRUNCATE` empties
 * it, so its next write needs new blocks. Retried while the process reads it.
 */
async function checkpoint(file: string, mode: 'RESTART' | 'TRUNCATE'): Promise<void> {
  const db = new Database(file, { timeout: scaled(5_000) });
  try {
    await eventually(
      async () => db.pragma(`wal_checkpoint(${mode})`, { simple: true }),
      (busy) => busy === 0,
    );
  } finally {
    db.close();
  }
}

/** The confirmation mails an address got, by Message-ID (a delivery repeated after a lost acknowledgement keeps it). */
function confirmations(smtp: LocalSmtp, address: string): Map<string, ReceivedMail> {
  return new Map(
    smtp.messages
      .filter((mail) => mail.to === address && mail.subject.startsWith('Confirm your place'))
      .map((mail) => [mail.messageId, mail]),
  );
}

/**
 * A join is several writes: the proof of work spent and the person's key (credentials), the
 * signup (the log), its mail (the outbox). Which of them a full disk refuses depends on which
 * file still has room, so the test decides it: before filling the disk, the log's and the
 * credentials' write-ahead logs are left to be reused and the outbox's is emptied.
 */
describeMounted('a waitlist join on a full disk', () => {
  let disk: SmallDisk | undefined;
  let smtp: LocalSmtp | undefined;
  let gateway: GatewayProcess | undefined;
  let log: EventStore | undefined;

  beforeAll(async () => {
    disk = await mountSmallDisk();
    smtp = await startSmtpServer();
  });

  afterAll(async () => {
    await gateway?.terminate();
    await log?.close();
    await smtp?.stop();
    await disk?.unmount();
  });

  it(
    'stored without its mail answers 503 and /readyz names the outbox; its retry mails it once',
    async (context) => {
      if (!disk?.dir) {
        console.warn(`[mount] full disk test skipped: ${disk?.failure}`);
        context.skip(`mounting failed: ${disk?.failure}`);
      }
      const dataDir = path.join(disk!.dir!, 'data');
      gateway = await startGatewayProcess({ DATA_DIR: dataDir, SMTP_URL: smtp!.url, ...LOW_SPACE_FLOOR });
      const api = createApiClient(gateway.url);
      const ops = createApiClient(gateway.opsUrl);
      const [{ body: shirts }, { body: charities }] = await Promise.all([
        api('GET', '/api/shirts'),
        api('GET', '/api/charities'),
      ]);
      const join = (email: string) =>
        api('POST', '/api/waitlist', {
          body: {
            shirtId: shirts[0].id,
            selectedSize: shirts[0].sizes[0],
            selectedCharity: charities[0].id,
            name: 'Half Done',
            email,
          },
          headers: newClient(),
        });
      log = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
      const entryIds = async () =>
        (await log!.readAll({ eventTypes: ['WaitlistJoined'] })).map(
          (event) => (event.data as { entryId: string }).entryId,
        );

      // Earlier joins give the credentials' write-ahead log room to reuse; their mails go out, and
      // are recorded as sent, first, so the outbox is not written meanwhile.
      const earlier = Array.from({ length: 10 }, () => uniqueEmail('earlier').toLowerCase());
      for (const email of earlier) expect((await join(email)).status).toBe(201);
      await outboxSent(dataDir);
      expect(earlier.filter((email) => confirmations(smtp!, email).size !== 1)).toEqual([]);
      await checkpoint(path.join(dataDir, 'events.sqlite'), 'RESTART');
      await checkpoint(path.join(dataDir, 'credentials.sqlite'), 'RESTART');
      await checkpoint(path.join(dataDir, 'outbox.sqlite'), 'TRUNCATE');
      await disk!.fill();

      const email = uniqueEmail('half-done').toLowerCase();
      const storedBefore = await entryIds();
      const refused = await join(email);
      expect(refused).toMatchObject({
        status: 503,
        body: { error: expect.stringMatching(/storage is full/), code: STORAGE_FULL_CODE },
      });
      expect(refused.headers.get('retry-after')).toBe(String(STORAGE_FULL_RETRY_AFTER_SECONDS));
      const stored = await entryIds();
      // Half done: the signup is in the log, its mail nowhere.
      expect(stored).toHaveLength(storedBefore.length + 1);
      const entryId = stored.at(-1)!;
      const down = await ops('GET', '/readyz');
      expect(down.status).toBe(503);
      expect(down.body.checks).toMatchObject({
        eventStore: 'up',
        outbox: expect.stringMatching(/^down: storage full/),
      });

      await disk!.free();
      // Retried with the same input, as a person would after a 503: the same entry, now mailed.
      const retried = await join(email);
      expect(retried).toMatchObject({ status: 201, body: { data: { id: entryId } } });
      const again = await join(email);
      expect(again).toMatchObject({ status: 201, body: { data: { id: entryId } } });
      expect(await entryIds()).toEqual(stored);
      // Once the outbox has sent all it holds for the address, a second message would have arrived.
      await outboxSent(dataDir, { to: email });
      const mails = [...confirmations(smtp!, email).values()];
      expect(mails).toHaveLength(1);
      const token = /\/waitlist\/confirm#token=([A-Za-z0-9_.-]+)/.exec(mails[0]!.text)?.[1];
      expect(await api('POST', '/api/waitlist/confirm', { body: { token } })).toMatchObject({
        status: 200,
        body: { confirmed: true, shirtId: shirts[0].id },
      });
      const ready = await eventually(
        () => ops('GET', '/readyz'),
        (answer) => answer.status === 200,
      );
      expect(ready.body.checks).toMatchObject({ eventStore: 'up', outbox: 'up', credentials: 'up' });
    },
    scaled(180_000),
  );

  it('refused at its first write, the credentials, stores nothing and /readyz names the credentials', async (context) => {
    if (!gateway) context.skip('no gateway: the test before did not start one');
    const dataDir = path.join(disk!.dir!, 'data');
    const api = createApiClient(gateway!.url);
    const ops = createApiClient(gateway!.opsUrl);
    const [shirt] = (await api('GET', '/api/shirts')).body;
    const [charity] = (await api('GET', '/api/charities')).body;
    const join = () =>
      api('POST', '/api/waitlist', {
        body: {
          shirtId: shirt.id,
          selectedSize: shirt.sizes[0],
          selectedCharity: charity.id,
          name: 'No Room',
          email: uniqueEmail('no-room'),
        },
        headers: newClient(),
      });
    await checkpoint(path.join(dataDir, 'credentials.sqlite'), 'TRUNCATE');
    await disk!.fill();
    const joined = (await log!.readAll({ eventTypes: ['WaitlistJoined'] })).length;
    expect(await join()).toMatchObject({ status: 503, body: { error: expect.stringMatching(/storage is full/) } });
    expect(await log!.readAll({ eventTypes: ['WaitlistJoined'] })).toHaveLength(joined);
    const down = await ops('GET', '/readyz');
    expect(down.status).toBe(503);
    expect(down.body.checks).toMatchObject({ credentials: expect.stringMatching(/^down: storage full/) });

    await disk!.free();
    expect((await join()).status).toBe(201);
    const ready = await ops('GET', '/readyz');
    expect(ready).toMatchObject({ status: 200, body: { checks: { credentials: 'up' } } });
  });
});

/**
 * With Kafka the gateway stores a scan by producing it, so a full disk does not stop it taking
 * scans; the ingestor's appends fail, and Kafka hands it the batch again until space is freed.
 */
function fullDiskUnderTheIngestor(kafka: TestKafka): void {
  let disk: SmallDisk | undefined;
  let gateway: GatewayProcess | undefined;
  let ingestor: WorkerProcess | undefined;
  let load: ScanLoad | undefined;
  let log: EventStore | undefined;

  beforeAll(async () => {
    disk = await mountSmallDisk();
  });

  afterAll(async () => {
    await load?.stop();
    await ingestor?.terminate();
    await gateway?.terminate();
    await log?.close();
    await disk?.unmount();
  });

  it(
    'keeps taking scans while the disk is full, and the ingestor appends them once space is freed',
    async (context) => {
      if (!disk?.dir) {
        console.warn(`[mount] full disk test skipped: ${disk?.failure}`);
        context.skip(`mounting failed: ${disk?.failure}`);
      }
      const dataDir = path.join(disk!.dir!, 'data');
      const brokers = { KAFKA_BROKERS: kafka.brokers, KAFKA_PARTITIONS: '2' };
      gateway = await startGatewayProcess({ DATA_DIR: dataDir, ...brokers, ...LOW_SPACE_FLOOR });
      ingestor = await startIngestorProcess({
        ...brokers,
        DATA_DIR: dataDir,
        INGESTOR_GROUP_ID: kafka.freshName(),
        KAFKA_SESSION_TIMEOUT_MS: '6000',
        ...LOW_SPACE_FLOOR,
      });
      const started = { gateway: gateway.pid, ingestor: ingestor.pid };
      // The test broker is one node: the gateway says what that means for the scans it acknowledges.
      expect(gateway.output.join('\n')).toMatch(
        /scans are acknowledged by a single Kafka replica \(scans\.v1: 1 replica\(s\), min\.insync\.replicas 1\)/,
      );
      const api = createApiClient(gateway.url);
      const ingestorOps = createApiClient(ingestor.opsUrl);
      const fundraiser = await createFundraiser(api, asUser('kafka-disk-owner'), { name: 'Through Kafka' });
      log = createSqliteEventStore({ path: path.join(dataDir, 'events.sqlite') });
      const ledger = scanLedger(log);
      load = startScanLoad({
        url: gateway.url,
        fundraiserIds: [fundraiser.id],
        concurrency: 4,
        total: 1_000_000,
        ratePerSecond: 40,
      });
      const appendedBeforeFull = await eventually(
        async () => (await ledger.scans()).length,
        (count) => count >= 40,
      );
      expect(appendedBeforeFull).toBeGreaterThanOrEqual(40);

      await disk!.fill();
      const fullAt = load.answers.length;
      // Low on space at once; the event store's failure comes with the first batch it refuses.
      const down = await eventually(
        () => ingestorOps('GET', '/readyz'),
        (answer) => answer.status === 503 && /^down: storage full/.test(answer.body.checks.eventStore),
        scaled(60_000),
      );
      expect(down.body.checks.eventStore).toMatch(/^down: storage full/);
      expect(down.body.checks.diskSpace).toMatch(/^down: low on space/);
      expect(await freeBytesMetric(ingestor.opsUrl)).toBeLessThan(MIB);
      // Kafka holds them meanwhile: the gateway goes on acknowledging scans.
      const acceptedWhileFull = await eventually(
        async () => load!.answers.slice(fullAt).filter((answer) => answer.status === 202).length,
        (accepted) => accepted >= 40,
      );
      expect(acceptedWhileFull).toBeGreaterThanOrEqual(40);

      await disk!.free();
      const ready = await eventually(
        () => ingestorOps('GET', '/readyz'),
        (answer) => answer.status === 200,
        scaled(60_000),
      );
      expect(ready.status).toBe(200);
      await load.stop();
      expect(new Set(load.answers.map((answer) => answer.status))).toEqual(new Set([202]));
      const drained = await drain({
        ledger,
        fundraiserIds: [fundraiser.id],
        answers: load.answers,
        projectedScans: async (id) =>
          (await api('GET', `/api/fundraisers/${id}/stats`, { token: userToken('kafka-disk-owner') })).body
            .scanRequests,
        timeoutMs: scaled(120_000),
      });
      expect(drained.tallies).toEqual([
        expect.objectContaining({ missing: 0, duplicates: 0, recorded: drained.tallies[0]!.accepted }),
      ]);
      expect(drained.settled).toBe(true);
      // Neither process was restarted.
      expect([gateway.hasExited, ingestor.hasExited]).toEqual([false, false]);
      expect({ gateway: gateway.pid, ingestor: ingestor.pid }).toEqual(started);
    },
    scaled(300_000),
  );
}

if (unmounted) describe.skip('a full disk under the ingestor (Kafka)', () => {});
else describeWithKafka('a full disk under the ingestor (Kafka)', fullDiskUnderTheIngestor);
