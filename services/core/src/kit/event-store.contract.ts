import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConcurrencyError,
  type EventStore,
  type NewEvent,
  type ReadFilteredOptions,
  type StoredEvent,
} from './event-store';

/**
 * The behaviour every event store adapter must show. `setup` runs before each test; the suite
 * closes the store after it. Tests never assume they are alone in the store: streams and event
 * types carry a random suffix and reads start from the head seen at the test's start, so the
 * suite can run against a shared server.
 */
export function describeEventStoreContract(name: string, setup: () => EventStore | Promise<EventStore>): void {
  describe(`${name} event store contract`, () => {
    let store: EventStore;
    /** The events of one page, for the tests about what a page holds rather than how pages follow. */
    const readEvents = async (options: ReadFilteredOptions) => (await store.readFiltered(options)).events;

    beforeEach(async () => {
      store = await setup();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('append and read', () => {
      it('reads back what was appended, with ids, revisions, positions and the time recorded', async () => {
        const stream = unique('fundraiser');
        const before = Date.now();
        const id = randomUUID();
        const result = await store.appendToStream(stream, [
          { id, type: 'FundraiserCreated', data: { name: 'Run for water', goalCents: 50_000 } },
          { type: 'DonationRecorded', data: { amountCents: 2_500 }, metadata: { correlationId: 'c-1' } },
        ]);

        const events = await store.readStream(stream);
        expect(
          events.map(({ streamName, revision, type, data, metadata }) => ({
            streamName,
            revision,
            type,
            data,
            metadata,
          })),
        ).toEqual([
          {
            streamName: stream,
            revision: 0,
            type: 'FundraiserCreated',
            data: { name: 'Run for water', goalCents: 50_000 },
            metadata: {},
          },
          {
            streamName: stream,
            revision: 1,
            type: 'DonationRecorded',
            data: { amountCents: 2_500 },
            metadata: { correlationId: 'c-1' },
          },
        ]);
        expect(events[0]!.id).toBe(id);
        expect(events[1]!.id).toMatch(UUID);
        expect(events[1]!.globalPosition).toBeGreaterThan(events[0]!.globalPosition);
        expect(result).toEqual({ nextExpectedRevision: 1, lastGlobalPosition: events[1]!.globalPosition });
        for (const event of events) {
          expect(event.recordedAt).toBeInstanceOf(Date);
          expect(event.recordedAt.getTime()).toBeGreaterThanOrEqual(before - CLOCK_SKEW_MS);
          expect(event.recordedAt.getTime()).toBeLessThanOrEqual(Date.now() + CLOCK_SKEW_MS);
        }
        expect(await store.headPosition()).toBeGreaterThanOrEqual(result.lastGlobalPosition);
      });

      it('reads the newest event of a stream, and nothing for an unknown one', async () => {
        const stream = unique('scans-p');
        expect(await store.readLastEvent(stream)).toBeUndefined();
        await store.appendToStream(stream, [
          { type: 'ScanRecorded', data: { n: 1 } },
          { type: 'ScanRecorded', data: { n: 2 } },
        ]);
        await store.appendToStream(stream, [{ type: 'ScanRecorded', data: { n: 3 } }]);
        expect(await store.readLastEvent(stream)).toMatchObject({ streamName: stream, revision: 2, data: { n: 3 } });
      });

      it('reads an unknown stream as an empty list', async () => {
        expect(await store.readStream(unique('nobody'))).toEqual([]);
      });

      it('reads a stream from a revision, at most maxCount events', async () => {
        const stream = unique('shirt');
        await store.appendToStream(stream, events('ShirtUpdated', 5));
        const page = await store.readStream(stream, { fromRevision: 2, maxCount: 2 });
        expect(page.map((event) => [event.revision, event.data])).toEqual([
          [2, { n: 2 }],
          [3, { n: 3 }],
        ]);
        expect(await store.readStream(stream, { fromRevision: 5 })).toEqual([]);
      });
    });

    describe('expected revision', () => {
      it("'no_stream' creates a stream and refuses once it exists", async () => {
        const stream = unique('email');
        await store.appendToStream(stream, events('EmailReserved', 1), { expectedRevision: 'no_stream' });
        const error = await store
          .appendToStream(stream, events('EmailReserved', 1), { expectedRevision: 'no_stream' })
          .catch((err: unknown) => err);
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect(error).toMatchObject({ streamName: stream, expected: 'no_stream', actual: 0 });
        expect(await store.readStream(stream)).toHaveLength(1);
      });

      it("'stream_exists' refuses a missing stream and appends to an existing one", async () => {
        const stream = unique('user');
        const error = await store
          .appendToStream(stream, events('UserSignedIn', 1), { expectedRevision: 'stream_exists' })
          .catch((err: unknown) => err);
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect(error).toMatchObject({ streamName: stream, expected: 'stream_exists', actual: 'no_stream' });
        expect(await store.readStream(stream)).toEqual([]);

        await store.appendToStream(stream, events('UserRegistered', 1));
        const result = await store.appendToStream(stream, events('UserSignedIn', 1), {
          expectedRevision: 'stream_exists',
        });
        expect(result.nextExpectedRevision).toBe(1);
      });

      it('a number must be the revision of the last event', async () => {
        const stream = unique('charity');
        const first = await store.appendToStream(stream, events('CharityCreated', 2), {
          expectedRevision: 'no_stream',
        });
        expect(first.nextExpectedRevision).toBe(1);
        const second = await store.appendToStream(stream, events('CharityUpdated', 1), { expectedRevision: 1 });
        expect(second.nextExpectedRevision).toBe(2);
        expect(second.lastGlobalPosition).toBeGreaterThan(first.lastGlobalPosition);

        for (const stale of [0, 1, 3]) {
          const error = await store
            .appendToStream(stream, events('CharityUpdated', 1), { expectedRevision: stale })
            .catch((err: unknown) => err);
          expect(error).toBeInstanceOf(ConcurrencyError);
          expect(error).toMatchObject({ streamName: stream, expected: stale, actual: 2 });
        }
        const missing = unique('charity');
        const error = await store
          .appendToStream(missing, events('CharityUpdated', 1), { expectedRevision: 0 })
          .catch((err: unknown) => err);
        expect(error).toMatchObject({ streamName: missing, expected: 0, actual: 'no_stream' });
        expect(await store.readStream(stream)).toHaveLength(3);
      });

      it("'any' (the default) appends whatever the stream holds", async () => {
        const stream = unique('analytics');
        expect((await store.appendToStream(stream, events('PageViewed', 1))).nextExpectedRevision).toBe(0);
        expect(
          (await store.appendToStream(stream, events('PageViewed', 2), { expectedRevision: 'any' }))
            .nextExpectedRevision,
        ).toBe(2);
      });

      it('of writers racing with the same expected revision, exactly one wins', async () => {
        const stream = unique('fundraiser');
        await store.appendToStream(stream, events('FundraiserCreated', 1));
        const outcomes = await Promise.allSettled(
          [1, 2, 3, 4, 5].map((writer) =>
            store.appendToStream(stream, [{ type: 'DonationRecorded', data: { writer } }], { expectedRevision: 0 }),
          ),
        );
        const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(4);
        for (const { reason } of lost) {
          expect(reason).toBeInstanceOf(ConcurrencyError);
          expect(reason).toMatchObject({ streamName: stream, expected: 0, actual: 1 });
        }
        expect((await store.readStream(stream)).map((event) => event.type)).toEqual([
          'FundraiserCreated',
          'DonationRecorded',
        ]);
      });
    });

    describe('ordering', () => {
      it('gives strictly increasing global positions in append order, revisions 0..n-1 per stream', async () => {
        const type = unique('Ordered');
        const streams = [unique('a'), unique('b'), unique('c')];
        const head = await store.headPosition();
        const appended: string[] = [];
        for (let round = 0; round < 4; round++) {
          for (const stream of streams) {
            await store.appendToStream(stream, [{ type, data: { round } }]);
            appended.push(`${stream}:${round}`);
          }
        }
        const all = await store.readAll({ after: head, eventTypes: [type] });
        expect(all.map((event) => `${event.streamName}:${event.revision}`)).toEqual(appended);
        expectStrictlyIncreasing(all);
        for (const stream of streams) {
          expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0, 1, 2, 3]);
        }
      });
    });

    describe('readAll', () => {
      it('reads after an exclusive position, at most maxCount, only the event types asked for', async () => {
        const [created, donated, viewed] = [unique('Created'), unique('Donated'), unique('Viewed')];
        const stream = unique('fundraiser');
        const head = await store.headPosition();
        await store.appendToStream(stream, [
          { type: created, data: { n: 0 } },
          { type: viewed, data: { n: 1 } },
          { type: donated, data: { n: 2 } },
          { type: viewed, data: { n: 3 } },
          { type: donated, data: { n: 4 } },
        ]);

        const ours = await store.readAll({ after: head, eventTypes: [created, donated, viewed] });
        expect(ours.map((event) => event.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
        expectStrictlyIncreasing(ours);

        const typed = await store.readAll({ after: head, eventTypes: [donated, created] });
        expect(typed.map((event) => event.data)).toEqual([{ n: 0 }, { n: 2 }, { n: 4 }]);

        const firstTwo = await store.readAll({ after: head, eventTypes: [donated, created], maxCount: 2 });
        expect(firstTwo.map((event) => event.data)).toEqual([{ n: 0 }, { n: 2 }]);

        const rest = await store.readAll({ after: firstTwo[1]!.globalPosition, eventTypes: [donated, created] });
        expect(rest.map((event) => event.data)).toEqual([{ n: 4 }]);

        const afterLast = await store.readAll({
          after: ours[4]!.globalPosition,
          eventTypes: [created, donated, viewed],
        });
        expect(afterLast).toEqual([]);
      });

      it('reads everything in global order when no types are given', async () => {
        const stream = unique('scans');
        const head = await store.headPosition();
        await store.appendToStream(stream, events('ScanRecorded', 3));
        const page = await store.readAll({ after: head, maxCount: 1_000 });
        expectStrictlyIncreasing(page);
        expect(page.every((event) => event.globalPosition > head)).toBe(true);
        expect(page.filter((event) => event.streamName === stream).map((event) => event.revision)).toEqual([0, 1, 2]);
      });
    });

    describe('positions', () => {
      it('put the head at the newest event reads return, and count events where the store says they do', async () => {
        const head = await store.headPosition();
        await store.appendToStream(unique('scans'), events('ScanRecorded', 3));
        const appended = await store.readAll({ after: head });
        const newHead = await store.headPosition();
        expect(newHead).toBe(appended.at(-1)!.globalPosition);
        const [newest] = await readEvents({ direction: 'backwards', maxCount: 1 });
        expect(newest!.globalPosition).toBe(newHead);
        if (store.positionUnit === 'events') {
          expect(appended.map((event) => event.globalPosition)).toEqual([head + 1, head + 2, head + 3]);
        } else {
          expect(store.positionUnit).toBe('bytes');
          expectStrictlyIncreasing(appended);
        }
      });

      it('match event types exactly, whatever characters they hold', async () => {
        const type = `${unique('Scan')}.Recorded`;
        const stream = unique('types');
        const head = await store.headPosition();
        await store.appendToStream(stream, [
          { type, data: {} },
          { type: type.replace('.', 'x'), data: {} },
          { type: `${type}.Late`, data: {} },
        ]);
        expect((await store.readAll({ after: head, eventTypes: [type] })).map((event) => event.type)).toEqual([type]);
        const newest = await readEvents({ eventTypes: [type], direction: 'backwards', maxCount: 5 });
        expect(newest.map((event) => event.streamName)).toEqual([stream]);
      });
    });

    describe('readFiltered', () => {
      it('pages one stream prefix and its types by position, oldest or newest first', async () => {
        const prefix = `${unique('waitlist')}-`;
        const [joined, other] = [unique('Joined'), unique('Other')];
        await store.appendToStream(`${prefix}a`, [
          { type: joined, data: { n: 0 } },
          { type: other, data: { n: 1 } },
        ]);
        await store.appendToStream(unique('waitlist'), [{ type: joined, data: { n: 'elsewhere' } }]);
        await store.appendToStream(`${prefix}b`, [{ type: joined, data: { n: 2 } }]);
        await store.appendToStream(`${prefix}a`, [{ type: joined, data: { n: 3 } }]);

        const all = await readEvents({ streamPrefix: prefix, maxCount: 10 });
        expect(all.map((event) => event.data)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
        expectStrictlyIncreasing(all);

        const firstPage = await readEvents({ streamPrefix: prefix, eventTypes: [joined], maxCount: 2 });
        expect(firstPage.map((event) => event.data)).toEqual([{ n: 0 }, { n: 2 }]);
        const secondPage = await readEvents({
          streamPrefix: prefix,
          eventTypes: [joined],
          cursor: firstPage[1]!.globalPosition,
          maxCount: 2,
        });
        expect(secondPage.map((event) => event.data)).toEqual([{ n: 3 }]);

        const newest = await readEvents({ streamPrefix: prefix, direction: 'backwards', maxCount: 3 });
        expect(newest.map((event) => event.data)).toEqual([{ n: 3 }, { n: 2 }, { n: 1 }]);
        const older = await readEvents({
          streamPrefix: prefix,
          direction: 'backwards',
          cursor: newest[2]!.globalPosition,
          maxCount: 3,
        });
        expect(older.map((event) => event.data)).toEqual([{ n: 0 }]);
        expect(await store.readFiltered({ streamPrefix: prefix, eventTypes: [], maxCount: 10 })).toEqual({
          events: [],
          next: undefined,
        });
      });

      it('keeps only events recorded in a time range: from inclusive, before exclusive', async () => {
        const stream = unique('analytics');
        const type = unique('Viewed');
        await store.appendToStream(stream, events(type, 2));
        await aLaterMillisecond();
        await store.appendToStream(stream, numbered(type, 2, 2));
        const [, , third] = await store.readStream(stream);
        const since = await readEvents({ streamPrefix: stream, recordedFrom: third!.recordedAt, maxCount: 10 });
        expect(since.map((event) => event.data)).toEqual([{ n: 2 }, { n: 3 }]);
        const until = await readEvents({
          streamPrefix: stream,
          recordedBefore: third!.recordedAt,
          maxCount: 10,
        });
        expect(until.map((event) => event.data)).toEqual([{ n: 0 }, { n: 1 }]);
      });

      it('reads on from `next`, which a short or even empty page may give too, until it is undefined', async () => {
        // Time ranges far from where reading starts, with no other filter: a store that cannot
        // filter by time reads towards them, a bounded stretch of the log per call.
        const type = unique('Viewed');
        const [early, filler, late] = [unique('early'), unique('filler'), unique('late')];
        const head = await store.headPosition();
        await store.appendToStream(early, numbered(type, 0, 3));
        await aLaterMillisecond();
        await store.appendToStream(filler, events(unique('Filler'), 2_500));
        await aLaterMillisecond();
        await store.appendToStream(late, numbered(type, 3, 3));
        const [firstEarly] = await store.readStream(early);
        const [firstFiller] = await store.readStream(filler);
        const [firstLate] = await store.readStream(late);

        const everyPage = async (options: Omit<ReadFilteredOptions, 'cursor'>) => {
          const found: StoredEvent[] = [];
          let cursor: number | undefined = options.direction === 'backwards' ? undefined : head;
          for (let pages = 0; pages < 100; pages++) {
            const page = await store.readFiltered({ ...options, ...(cursor !== undefined && { cursor }) });
            expect(page.events.length).toBeLessThanOrEqual(options.maxCount);
            const last = page.events.at(-1);
            if (last && page.next !== undefined) {
              expect(
                options.direction === 'backwards' ? page.next <= last.globalPosition : page.next >= last.globalPosition,
              ).toBe(true);
            }
            found.push(...page.events);
            if (page.next === undefined) return found.filter((event) => [early, late].includes(event.streamName));
            cursor = page.next;
          }
          throw new Error('readFiltered gave a next after 100 pages');
        };
        const since = await everyPage({ recordedFrom: firstLate!.recordedAt, maxCount: 2 });
        expect(since.map((event) => event.data)).toEqual([{ n: 3 }, { n: 4 }, { n: 5 }]);
        const before = await everyPage({
          recordedFrom: firstEarly!.recordedAt,
          recordedBefore: firstFiller!.recordedAt,
          direction: 'backwards',
          maxCount: 2,
        });
        expect(before.map((event) => event.data)).toEqual([{ n: 2 }, { n: 1 }, { n: 0 }]);
      });
    });

    describe('idempotent retry', () => {
      it('appending the same event ids again writes nothing and answers as the first time', async () => {
        const stream = unique('waitlist');
        const type = unique('WaitlistJoined');
        const head = await store.headPosition();
        const batch: NewEvent[] = [
          { id: randomUUID(), type, data: { entryId: 'e1' } },
          { id: randomUUID(), type, data: { entryId: 'e2' } },
        ];
        const first = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        const retried = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        expect(retried).toEqual(first);

        // A retry whose answer was lost arrives after others moved the stream on.
        await store.appendToStream(stream, [{ type, data: { entryId: 'e3' } }], { expectedRevision: 1 });
        expect(await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toEqual(first);

        expect((await store.readStream(stream)).map((event) => event.data)).toEqual([
          { entryId: 'e1' },
          { entryId: 'e2' },
          { entryId: 'e3' },
        ]);
        expect(await store.readAll({ after: head, eventTypes: [type] })).toHaveLength(3);
      });

      it('recognises a retry whose ids the caller spelled in upper case', async () => {
        const stream = unique('waitlist');
        const id = randomUUID();
        const batch: NewEvent[] = [{ id: id.toUpperCase(), type: 'WaitlistJoined', data: { entryId: 'e1' } }];
        const first = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
        expect(await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' })).toEqual(first);
        expect((await store.readStream(stream)).map((event) => event.id.toLowerCase())).toEqual([id]);
      });

      it('refuses the same id twice in one call, and writes nothing', async () => {
        const stream = unique('waitlist');
        const id = randomUUID();
        await expect(
          store.appendToStream(stream, [
            { id, type: 'WaitlistJoined', data: { entryId: 'e1' } },
            { id, type: 'WaitlistJoined', data: { entryId: 'e2' } },
          ]),
        ).rejects.toThrow(/same event id appears twice/);
        expect(await store.readStream(stream)).toEqual([]);
      });

      it('fails only the call whose payload is not JSON', async () => {
        const stream = unique('fundraiser');
        await expect(
          store.appendToStream(stream, [{ type: 'DonationRecorded', data: { amount: 1n } }]),
        ).rejects.toThrow();
        await store.appendToStream(stream, [{ type: 'DonationRecorded', data: { amountCents: 1 } }]);
        expect(await store.readStream(stream)).toHaveLength(1);
      });
    });

    describe('subscribe', () => {
      it('resumes after a checkpoint: catch-up then live, no duplicates, no gaps', async () => {
        const type = unique('ScanRecorded');
        const stream = unique('scans');
        const head = await store.headPosition();
        await store.appendToStream(stream, numbered(type, 0, 3));
        const checkpoint = (await store.readAll({ after: head, eventTypes: [type] }))[1]!.globalPosition;

        const received: StoredEvent[] = [];
        const batchSizes: number[] = [];
        const subscription = store.subscribe({
          after: checkpoint,
          eventTypes: [type],
          batchSize: 2,
          onEvents(batch) {
            batchSizes.push(batch.length);
            received.push(...batch);
          },
        });
        try {
          await until(() => received.length === 1, 'the catch-up event');
          await store.appendToStream(stream, numbered(type, 3, 3));
          await store.appendToStream(unique('other'), events(unique('Other'), 2));
          await store.appendToStream(stream, numbered(type, 6, 1));
          await until(() => received.some((event) => numberOf(event) === 6), 'the live events');
          // Events come in log order: a duplicate or a stray event would come before this one.
          await store.appendToStream(stream, numbered(type, 7, 1));
          await until(() => received.some((event) => numberOf(event) === 7), 'an event appended after them');
          expect(received.map((event) => event.data)).toEqual([
            { n: 2 },
            { n: 3 },
            { n: 4 },
            { n: 5 },
            { n: 6 },
            { n: 7 },
          ]);
          expectStrictlyIncreasing(received);
          expect(Math.max(...batchSizes)).toBeLessThanOrEqual(2);
        } finally {
          await subscription.stop();
        }
        await expect(subscription.done).resolves.toBeUndefined();
      });

      it('hands over the next batch only after onEvents settled', async () => {
        const type = unique('Counted');
        const head = await store.headPosition();
        await store.appendToStream(unique('counter'), numbered(type, 0, 6));
        let running = 0;
        let overlapped = false;
        let seen = 0;
        const subscription = store.subscribe({
          after: head,
          eventTypes: [type],
          batchSize: 2,
          async onEvents(batch) {
            running++;
            if (running > 1) overlapped = true;
            await sleep(20);
            seen += batch.length;
            running--;
          },
        });
        await until(() => seen === 6, 'all six events');
        await subscription.stop();
        expect(overlapped).toBe(false);
      });

      it('stop() waits for the running onEvents call, and none follows', async () => {
        const type = unique('Slow');
        const stream = unique('slow');
        const head = await store.headPosition();
        await store.appendToStream(stream, events(type, 1));
        let started = false;
        let finished = false;
        let calls = 0;
        const subscription = store.subscribe({
          after: head,
          eventTypes: [type],
          async onEvents() {
            calls++;
            started = true;
            await sleep(200);
            finished = true;
          },
        });
        await until(() => started, 'the first call');
        await subscription.stop();
        expect(finished).toBe(true);
        await appendOneHeardLive(store, { stream, type, after: head });
        expect(calls).toBe(1);
        await expect(subscription.done).resolves.toBeUndefined();
      });

      it('ends with the error onEvents threw, and calls it no more', async () => {
        const type = unique('Poison');
        const stream = unique('poison');
        const head = await store.headPosition();
        await store.appendToStream(stream, events(type, 1));
        let calls = 0;
        const subscription = store.subscribe({
          after: head,
          eventTypes: [type],
          onEvents() {
            calls++;
            throw new Error('projection failed');
          },
        });
        await expect(subscription.done).rejects.toThrow('projection failed');
        await appendOneHeardLive(store, { stream, type, after: head });
        expect(calls).toBe(1);
        await subscription.stop();
      });
    });
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A server's clock (EventStoreDB) may differ a little from the test's. */
const CLOCK_SKEW_MS = 5_000;

function unique(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

function events(type: string, count: number): NewEvent[] {
  return numbered(type, 0, count);
}

function numbered(type: string, from: number, count: number): NewEvent[] {
  return Array.from({ length: count }, (_, i) => ({ type, data: { n: from + i } }));
}

function expectStrictlyIncreasing(events: StoredEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    expect(events[i]!.globalPosition).toBeGreaterThan(events[i - 1]!.globalPosition);
  }
}

function numberOf(event: StoredEvent): unknown {
  return (event.data as { n?: unknown }).n;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The deadline of one wait, as @qrshirt/test-support's WAIT_MS (which this package's code may not
 * import): 30 s on a calm machine, times TEST_TIME_SCALE on a busy one.
 */
const WAIT_MS = 30_000 * Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${WAIT_MS} ms waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * Resolves once the clock shows a millisecond at least one full millisecond past the call's, so
 * that what is appended next is recorded later than what was appended before (a server's clock,
 * whatever its offset from ours, has moved on as much).
 */
async function aLaterMillisecond(): Promise<void> {
  const now = Date.now();
  await until(() => Date.now() > now + 1, 'a later millisecond');
}

/**
 * Appends one more event of `type` (whose only event after `after` is already there) and resolves
 * once a subscription of its own, caught up first, has been handed it live: by then the store has
 * delivered it to every subscription still listening, so one that was to stay silent had its chance.
 */
async function appendOneHeardLive(
  store: EventStore,
  { stream, type, after }: { stream: string; type: string; after: number },
): Promise<void> {
  let handed = 0;
  const witness = store.subscribe({ after, eventTypes: [type], onEvents: (batch) => void (handed += batch.length) });
  try {
    await until(() => handed === 1, 'another subscription caught up');
    await store.appendToStream(stream, events(type, 1));
    await until(() => handed === 2, 'another subscription handed the next event');
  } finally {
    await witness.stop();
  }
}
