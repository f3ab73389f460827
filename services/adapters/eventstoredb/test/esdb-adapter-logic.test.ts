import { randomUUID } from 'node:crypto';
import { createConnection, createServer, type Socket } from 'node:net';
import { status } from '@grpc/grpc-js';
import {
  DeadlineExceededError,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type AppendStreamState,
  type AppendResult as EsdbAppendResult,
  type EventData,
} from '@kurrent/kurrentdb-client';
import { afterEach, describe, expect, it } from 'vitest';
import { scaled, waitFor } from '@qrshirt/test-support';
import { ConcurrencyError, type NewEvent, type ReadFilteredOptions, type StoredEvent } from '@qrshirt/core';
import {
  appendEncoded,
  DEFAULT_MAX_APPEND_BYTES,
  DEFAULT_MAX_EVENT_BYTES,
  type AppendClient,
  type AppendLimits,
} from '../src/esdb-append';
import { guardCalls } from '../src/esdb-client';
import { encodeEvents } from '../src/esdb-encoding';
import { createEventStoreDbEventStore } from '../src/esdb-event-store';
import { openEventStoreDbCopyingLog } from '../src/esdb-log-copies';
import { fakeEventStoreDb, longLog } from './fake-kurrentdb';

// What can be checked without an EventStoreDB server: the adapter's own logic, and the real
// client against an unreachable address or a tiny gRPC server that answers like EventStoreDB.

const UNREACHABLE = 'esdb://127.0.0.1:1?tls=false&defaultDeadline=3000';

describe('payloads the client cannot serialise', () => {
  it('fail that append alone with a clear error, before anything reaches the client', async () => {
    const store = createEventStoreDbEventStore({ connectionString: UNREACHABLE });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(
      store.appendToStream('fundraiser-1', [{ type: 'DonationRecorded', data: { amount: 1n } }]),
    ).rejects.toThrow(/data of event 0 \(DonationRecorded\) cannot be stored as JSON/);
    await expect(
      store.appendToStream('fundraiser-1', [{ type: 'DonationRecorded', data: {}, metadata: circular }]),
    ).rejects.toThrow(/metadata of event 0 \(DonationRecorded\) cannot be stored as JSON/);
    await store.close();
  });

  it('stores undefined data as null, as SQLite does', () => {
    expect(encodeEvents('s', [{ type: 'T', data: undefined }])[0]).toMatchObject({ data: null, metadata: {} });
  });
});

describe('event ids', () => {
  it('refuses ids that are not UUIDs and repeated ids, and keeps UUIDs lower-case as the server does', () => {
    expect(() => encodeEvents('s', [{ id: 'scan-1', type: 'T', data: {} }])).toThrow(/"scan-1" is not a UUID/);
    const id = randomUUID();
    expect(() =>
      encodeEvents('s', [
        { id, type: 'T', data: {} },
        { id: id.toUpperCase(), type: 'T', data: {} },
      ]),
    ).toThrow(/the same event id appears twice/);
    expect(encodeEvents('s', [{ id: id.toUpperCase(), type: 'T', data: {} }])[0]!.id).toBe(id);
  });
});

/**
 * A stream on a pretend leader: commits what it accepts, can lose answers, and keeps no id cache
 * (a leader restarted or changed has none): a repeat is recognised only by what the stream holds.
 */
function fakeServer(behaviour: { loseAnswerOfCall?: number; notLeaderReads?: number }) {
  const stored: { id: string; revision: number; position: bigint }[] = [];
  const calls: { expected: AppendStreamState; ids: string[] }[] = [];
  let reads = 0;
  let notLeaderReads = behaviour.notLeaderReads ?? 0;
  let nextPosition = 1_000n;
  const client: AppendClient = {
    appendToStream: (async (stream: string, events: EventData[], options: { streamState: AppendStreamState }) => {
      const ids = events.map((event) => event.id);
      calls.push({ expected: options.streamState, ids });
      const current = stored.length === 0 ? 'no_stream' : BigInt(stored.length - 1);
      const exists = options.streamState === 'stream_exists' && current !== 'no_stream';
      if (options.streamState !== 'any' && !exists && options.streamState !== current) {
        throw new WrongExpectedVersionError(undefined, { streamName: stream, expected: options.streamState, current });
      }
      for (const id of ids) {
        stored.push({ id, revision: stored.length, position: nextPosition });
        nextPosition += 300n;
      }
      if (calls.length === behaviour.loseAnswerOfCall) throw new DeadlineExceededError();
      const result: EsdbAppendResult = {
        success: true,
        nextExpectedRevision: BigInt(stored.length - 1),
        position: { commit: stored.at(-1)!.position, prepare: stored.at(-1)!.position },
      };
      return result;
    }) as unknown as AppendClient['appendToStream'],
    readStream: ((
      stream: string,
      options: { fromRevision: bigint | 'end'; direction: 'forwards' | 'backwards'; maxCount: number },
    ) => {
      reads++;
      return (async function* () {
        if (notLeaderReads > 0) {
          notLeaderReads--;
          throw Object.assign(new Error('Leader info available'), { type: 'not-leader' });
        }
        if (stored.length === 0) throw new StreamNotFoundError(undefined, stream);
        const events =
          options.direction === 'backwards'
            ? [...stored].reverse().slice(0, options.maxCount)
            : stored.slice(Number(options.fromRevision), Number(options.fromRevision) + options.maxCount);
        for (const event of events) {
          yield {
            event: {
              id: event.id,
              revision: BigInt(event.revision),
              position: { commit: event.position, prepare: event.position },
            },
          };
        }
      })();
    }) as unknown as AppendClient['readStream'],
  };
  return {
    client,
    stored,
    calls,
    reads: () => reads,
  };
}

function context(client: AppendClient, limits: Partial<AppendLimits> = {}) {
  return {
    client,
    appendAlone: client.appendToStream,
    jsonEvent: (event: Parameters<typeof jsonEvent>[0]) => jsonEvent(event),
    toState: (expected: 'no_stream' | number): AppendStreamState =>
      typeof expected === 'number' ? BigInt(expected) : expected,
    limits: { maxAppendBytes: DEFAULT_MAX_APPEND_BYTES, maxEventBytes: DEFAULT_MAX_EVENT_BYTES, ...limits },
    guard: guardCalls(scaled(5_000)),
    sleep: async () => {},
  };
}

/** The ingestor's worst case: 2,000 page views, each with a 2,048-character path. */
function pageViews(count: number): NewEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    type: 'PageViewed',
    data: { path: `/${'x'.repeat(2_047)}`, n: i },
  }));
}

describe('append sizes', () => {
  it('within KurrentDB 25.1 limits, several MB are one atomic append, expecting the revision asked', async () => {
    const server = fakeServer({});
    const events = encodeEvents('analytics-2025-01-01', pageViews(2_000));
    const result = await appendEncoded(context(server.client), 'analytics-2025-01-01', events, 'no_stream');
    expect(server.calls).toEqual([{ expected: 'no_stream', ids: events.map((event) => event.id) }]);
    expect(result).toEqual({ nextExpectedRevision: 1_999, lastGlobalPosition: Number(server.stored.at(-1)!.position) });
    // One event of 2 MB: over 25.0's 1 MiB, well within 25.1's 16 MiB per event.
    const big = encodeEvents('s', [{ type: 'Big', data: { blob: 'x'.repeat(2_000_000) } }]);
    await appendEncoded(context(server.client), 's', big, 'any');
    expect(server.calls).toHaveLength(2);
  });

  it('over the configured limits are refused with a clear error before anything is sent', async () => {
    const server = fakeServer({});
    const big = encodeEvents('s', [{ type: 'Big', data: { blob: 'x'.repeat(2_000_000) } }]);
    await expect(appendEncoded(context(server.client, { maxEventBytes: 1_000_000 }), 's', big, 'any')).rejects.toThrow(
      /event .* \(Big\) is about 2000\d+ bytes, more than the 1000000 bytes of one event .*EVENTSTORE_MAX_EVENT_BYTES/,
    );
    const many = encodeEvents('s', pageViews(600));
    await expect(
      appendEncoded(context(server.client, { maxAppendBytes: 1_048_576 }), 's', many, 'no_stream'),
    ).rejects.toThrow(/600 events are about \d+ bytes, more than the 1048576 bytes of one append/);
    expect(server.calls).toHaveLength(0);
    expect(server.reads()).toBe(0);
  });
});

describe('an append whose outcome is unknown', () => {
  it('is retried with the same ids and expected revision, and its commit is recognised, not duplicated', async () => {
    const server = fakeServer({ loseAnswerOfCall: 1 });
    const events = encodeEvents('waitlist-1', [
      { type: 'WaitlistJoined', data: { n: 1 } },
      { type: 'WaitlistJoined', data: { n: 2 } },
    ]);
    const result = await appendEncoded(context(server.client), 'waitlist-1', events, 'no_stream');
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]).toEqual(server.calls[0]);
    expect(server.stored).toHaveLength(2);
    expect(result).toEqual({ nextExpectedRevision: 1, lastGlobalPosition: Number(server.stored[1]!.position) });
  });

  it.each(['any', 'stream_exists'] as const)(
    'expecting %s, finds its commit in the stream after a lost answer, so a restarted leader stores it once',
    async (expected) => {
      const server = fakeServer({ loseAnswerOfCall: 3 });
      await appendEncoded(context(server.client), 'scans-1', encodeEvents('scans-1', [{ type: 'T', data: {} }]), 'any');
      const events = encodeEvents('scans-1', [
        { type: 'ScanCounted', data: { n: 1 } },
        { type: 'ScanCounted', data: { n: 2 } },
      ]);
      const client: AppendClient = {
        ...server.client,
        // Another writer's event lands first, between this append's read of the revision and its attempt.
        appendToStream: async (...args: Parameters<AppendClient['appendToStream']>) => {
          if (server.calls.length === 1) {
            await server.client.appendToStream('scans-1', [jsonEvent({ type: 'Other', data: {} })], {
              streamState: 'any',
            });
          }
          return server.client.appendToStream(...args);
        },
      };
      const result = await appendEncoded(context(client), 'scans-1', events, expected);
      expect(server.stored.map((event) => event.id)).toEqual([
        server.stored[0]!.id,
        server.stored[1]!.id,
        ...events.map((event) => event.id),
      ]);
      // Sent as it was asked, once: the lost answer's commit was found after the other writer's.
      expect(server.calls.slice(2)).toEqual([{ expected, ids: events.map((event) => event.id) }]);
      expect(result).toEqual({ nextExpectedRevision: 3, lastGlobalPosition: Number(server.stored[3]!.position) });
    },
  );

  it('expecting any, is sent as any: ten appends at once to one stream all land, twenty times over', async () => {
    const server = fakeServer({});
    for (let run = 0; run < 20; run++) {
      const batches = Array.from({ length: 10 }, (_, n) => encodeEvents('audit', [{ type: 'T', data: { run, n } }]));
      const results = await Promise.allSettled(
        batches.map((events) => appendEncoded(context(server.client), 'audit', events, 'any')),
      );
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    }
    expect(server.stored).toHaveLength(200);
    expect(server.calls.every((call) => call.expected === 'any')).toBe(true);
  });

  it('fails as a conflict, not a generic failure, when the check read first meets a follower', async () => {
    const server = fakeServer({});
    await appendEncoded(context(server.client), 's', encodeEvents('s', [{ type: 'T', data: {} }]), 'no_stream');
    const follower = fakeServer({ notLeaderReads: 2 });
    follower.stored.push(...server.stored);
    await expect(
      appendEncoded(context(follower.client), 's', encodeEvents('s', [{ type: 'T', data: {} }]), 'no_stream'),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(follower.reads()).toBe(3);
  });

  it('answers with the position the server returned, without reading it back', async () => {
    const server = fakeServer({});
    await appendEncoded(context(server.client), 's', encodeEvents('s', [{ type: 'T', data: {} }]), 'no_stream');
    expect(server.reads()).toBe(0);
  });
});

describe('filtered reads of $all', () => {
  let fake: Awaited<ReturnType<typeof fakeEventStoreDb>> | undefined;
  afterEach(() => fake?.server.forceShutdown());

  it('examine a bounded stretch of a 30,000-event log per call, each page saying where to read on', async () => {
    const log = longLog(30_000, [10, 15_000, 29_990]);
    fake = await fakeEventStoreDb(log);
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const signups = log.filter((event) => event.type === 'WaitlistJoined');

    // The admin's waitlist list: newest first, a page of two.
    const calls: number[] = [];
    const found: number[] = [];
    let cursor: number | undefined;
    do {
      const examinedBefore = fake.examined();
      const page = await store.readFiltered({
        streamPrefix: 'waitlist-',
        eventTypes: ['WaitlistJoined'],
        direction: 'backwards',
        maxCount: 2,
        ...(cursor !== undefined && { cursor }),
      });
      calls.push(fake.examined() - examinedBefore);
      found.push(...page.events.map((event) => event.globalPosition));
      cursor = page.next;
    } while (cursor !== undefined && calls.length < 40);
    expect(found).toEqual(signups.map((event) => event.position).reverse());
    expect(Math.max(...calls)).toBeLessThanOrEqual(2_004);
    expect(calls.reduce((sum, examined) => sum + examined, 0)).toBeLessThan(log.length + 40);
    await store.close();
  });

  it('read one type from its secondary index when the server keeps them, examining its events only', async () => {
    const log = longLog(30_000, [10, 15_000, 29_990]);
    fake = await fakeEventStoreDb(log);
    const store = createEventStoreDbEventStore({ connectionString: fake.url, secondaryIndexes: true });
    const signups = log.filter((event) => event.type === 'WaitlistJoined').map((event) => event.position);

    // The event browser filtered by type, newest first, a page of two.
    const first = await store.readFiltered({ eventTypes: ['WaitlistJoined'], direction: 'backwards', maxCount: 2 });
    expect(first.events.map((event) => event.globalPosition)).toEqual(signups.slice(1).reverse());
    const second = await store.readFiltered({
      eventTypes: ['WaitlistJoined'],
      direction: 'backwards',
      maxCount: 2,
      cursor: first.next!,
    });
    expect(second).toMatchObject({ events: [{ globalPosition: signups[0] }], next: undefined });
    // A stream prefix as well: the index's events are filtered here.
    const other = await store.readFiltered({ streamPrefix: 'views-', eventTypes: ['WaitlistJoined'], maxCount: 5 });
    expect(other).toEqual({ events: [], next: undefined });
    expect(fake.examined()).toBeLessThanOrEqual(3 + 1 + 3);
    expect(fake.reads().map((read) => read.filter)).toEqual([
      { streamPrefixes: ['$idx-et-WaitlistJoined'] },
      { streamPrefixes: ['$idx-et-WaitlistJoined'] },
      { streamPrefixes: ['$idx-et-WaitlistJoined'] },
    ]);

    // Two types are two indexes, which one read cannot name: the bounded scan of $all.
    const scanned = await store.readFiltered({ eventTypes: ['WaitlistJoined', 'UserRegistered'], maxCount: 5 });
    expect(scanned.next).toBeDefined();
    expect(fake.reads().at(-1)?.filter).toBeNull();
    await store.close();
  });

  it('scan $all for a type when the server keeps no secondary indexes (the default)', async () => {
    fake = await fakeEventStoreDb(longLog());
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    await store.readFiltered({ eventTypes: ['WaitlistJoined'], maxCount: 5 });
    expect(fake.reads().length).toBeGreaterThan(0);
    expect(fake.reads().filter((read) => read.filter !== null)).toEqual([]);
    await store.close();
  });

  it('refuse a stream prefix naming the server’s own streams or its $idx- indexes', async () => {
    fake = await fakeEventStoreDb(longLog());
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    await expect(store.readFiltered({ streamPrefix: '$idx-et-WaitlistJoined', maxCount: 10 })).rejects.toThrow(
      /"\$idx-et-WaitlistJoined" names EventStoreDB's own streams or indexes/,
    );
    expect(fake.reads()).toEqual([]);
    await store.close();
  });

  it('read a rare type a bounded stretch per request, and let the server find the head of the log', async () => {
    const log = longLog(30_000, [10, 29_990]);
    fake = await fakeEventStoreDb(log);
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const signups = log.filter((event) => event.type === 'WaitlistJoined');
    // The first-pending lookup and the lag metric: the next event of a type after a checkpoint.
    const [pending] = await store.readAll({ after: signups[0]!.position, eventTypes: ['WaitlistJoined'], maxCount: 1 });
    expect(pending?.globalPosition).toBe(signups[1]!.position);
    const requests = fake.reads();
    console.log(
      `[esdb] ${requests.length} requests for one rare event, examining at most ${Math.max(...requests.map((r) => r.examined))}`,
    );
    expect(Math.max(...requests.map((request) => request.examined))).toBeLessThanOrEqual(2_048);
    expect(requests.every((request) => request.filter === null)).toBe(true);

    const before = fake.reads().length;
    expect(await store.headPosition()).toBe(log.at(-1)!.position);
    expect(fake.reads().slice(before)).toEqual([
      { direction: 'backwards', count: 2, filter: { eventType: '^[^$].*' }, examined: 2 },
    ]);
    await store.close();
  });

  it('read a far time range a bounded stretch per request, each page saying where the next reads on', async () => {
    const log = longLog();
    fake = await fakeEventStoreDb(log);
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    // The event browser's time filter with no type or prefix: the server can narrow nothing.
    const browse = async (range: Omit<ReadFilteredOptions, 'cursor' | 'maxCount'>) => {
      const calls: { found: number; eventsSent: number }[] = [];
      const found: number[] = [];
      let cursor: number | undefined;
      do {
        const sentBefore = fake!.eventsSent();
        const page = await store.readFiltered({ ...range, maxCount: 5, ...(cursor !== undefined && { cursor }) });
        calls.push({ found: page.events.length, eventsSent: fake!.eventsSent() - sentBefore });
        found.push(...page.events.map((event) => event.globalPosition));
        cursor = page.next;
      } while (cursor !== undefined && calls.length < 20);
      return { calls, found };
    };

    const newest = await browse({ recordedFrom: log[2_990]!.recordedAt });
    expect(newest.found).toEqual(log.slice(2_990).map((event) => event.position));
    // The first call stops after 2,000 events (plus the one each later request resumes from)
    // with nothing found yet; the next one reads on from there instead of starting over.
    expect(newest.calls[0]).toEqual({ found: 0, eventsSent: 2_004 });
    expect(Math.max(...newest.calls.map((call) => call.eventsSent))).toBeLessThanOrEqual(2_004);
    expect(newest.calls.reduce((sum, call) => sum + call.eventsSent, 0)).toBeLessThan(log.length + 20);

    const oldest = await browse({ recordedBefore: log[3]!.recordedAt, direction: 'backwards' });
    expect(oldest.found).toEqual(
      log
        .slice(0, 3)
        .reverse()
        .map((event) => event.position),
    );
    // This server's backwards reads leave out the position they start from: nothing to resume.
    expect(oldest.calls[0]).toEqual({ found: 0, eventsSent: 2_001 });
    expect(Math.max(...oldest.calls.map((call) => call.eventsSent))).toBeLessThanOrEqual(2_004);
    await store.close();
  });

  it('read a time range whole when the server’s clock stepped back, each request still bounded', async () => {
    // A leader change at event 1,000: the new leader's clock is 10 minutes behind the old one's.
    const start = Date.parse('2026-01-01T00:00:00Z');
    const log = longLog().map((event, i) => ({
      ...event,
      recordedAt: new Date(start + (i < 1_000 ? i : i - 600) * 1_000),
    }));
    fake = await fakeEventStoreDb(log);
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const seconds = (at: number) => new Date(start + at * 1_000);
    const browse = async (range: Omit<ReadFilteredOptions, 'cursor' | 'maxCount'>) => {
      const found: number[] = [];
      const sent: number[] = [];
      let cursor: number | undefined;
      do {
        const sentBefore = fake!.eventsSent();
        const page = await store.readFiltered({ ...range, maxCount: 500, ...(cursor !== undefined && { cursor }) });
        sent.push(fake!.eventsSent() - sentBefore);
        found.push(...page.events.map((event) => event.globalPosition));
        cursor = page.next;
      } while (cursor !== undefined && sent.length < 20);
      return { found, sent };
    };
    const positions = (from: number, to: number) => log.slice(from, to).map((event) => event.position);

    // Oldest first, before 500 s: events 0-499, and 1,000-1,099 recorded after the step back.
    const before = await browse({ recordedBefore: seconds(500) });
    expect(before.found).toEqual([...positions(0, 500), ...positions(1_000, 1_100)]);
    expect(Math.max(...before.sent)).toBeLessThanOrEqual(2_004);

    // Newest first, from 900 s: events 2,999 down to 1,500, then 999 down to 900 from before it.
    const from = await browse({ recordedFrom: seconds(900), direction: 'backwards' });
    expect(from.found).toEqual([...positions(1_500, 3_000).reverse(), ...positions(900, 1_000).reverse()]);
    expect(Math.max(...from.sent)).toBeLessThanOrEqual(2_004);
    await store.close();
  });
});

describe('deadlines and honest errors', () => {
  let fake: Awaited<ReturnType<typeof fakeEventStoreDb>> | undefined;
  afterEach(() => fake?.server.forceShutdown());

  it('an append meeting a server-features check that never answers fails within its one deadline', async () => {
    fake = await fakeEventStoreDb([], { features: () => 'hang' });
    const store = createEventStoreDbEventStore({ connectionString: fake.url, deadlineMs: 300 });
    const started = Date.now();
    await expect(store.appendToStream('fundraiser-1', [{ type: 'FundraiserCreated', data: {} }])).rejects.toThrow(
      // Whichever step the shared deadline ran out in: the check, the append, or its retry's check read.
      /EventStoreDB did not answer (its server-features check within 150 ms|the (append to|check read of) fundraiser-1 within its deadline)/,
    );
    const waitedMs = Date.now() - started;
    console.log(`[esdb] append refused after ${waitedMs} ms and ${fake.featureCalls()} features checks`);
    // Checked again on the retry, each check with its own deadline; a busy machine's margin on
    // the 300 ms deadline and the 500 ms of back-off it shares them with.
    expect(fake.featureCalls()).toBeGreaterThanOrEqual(2);
    expect(waitedMs).toBeLessThan(scaled(5_000));
    await store.close();
  });

  it('a server-features check that hung once is made again: that append and the later ones succeed', async () => {
    fake = await fakeEventStoreDb([], { features: (call) => (call === 1 ? 'hang' : '25.1') });
    const store = createEventStoreDbEventStore({ connectionString: fake.url, deadlineMs: scaled(2_000) });
    await store.appendToStream('fundraiser-1', [{ type: 'FundraiserCreated', data: {} }], {
      expectedRevision: 'no_stream',
    });
    const later = await Promise.allSettled(
      [2, 3, 4, 5, 6].map((n) => store.appendToStream(`fundraiser-${n}`, [{ type: 'FundraiserCreated', data: {} }])),
    );
    expect(later.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(fake.featureCalls()).toBe(2);
    expect(fake.log()).toHaveLength(6);
    // All on the shared BatchAppend stream 25.1 advertises.
    expect([fake.batchAppends(), fake.appendCalls()]).toEqual([6, 0]);
    await store.close();
  });

  it('an append the server refuses as a bad request is sent once and fails saying so', async () => {
    fake = await fakeEventStoreDb([], { badRequest: (streamName) => streamName === 'fundraiser-1' });
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    await expect(store.appendToStream('fundraiser-1', [{ type: 'FundraiserCreated', data: {} }])).rejects.toThrow(
      'Append to fundraiser-1: EventStoreDB refused it: Invalid request',
    );
    expect(fake.batchAppends()).toBe(1);
    await store.close();
  });

  it('an append, a read of a stream and one of $all that the server denies are sent once and fail saying so', async () => {
    fake = await fakeEventStoreDb(longLog(100), {
      accessDenied: (call, streamName) => streamName === '$all' || streamName.startsWith('audit'),
    });
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const refusals = await Promise.allSettled([
      store.appendToStream('audit', [{ type: 'AdminActed', data: {} }], { expectedRevision: 'no_stream' }),
      store.readStream('audit-2'),
      store.readFiltered({ eventTypes: ['WaitlistJoined'], maxCount: 10 }),
    ]);
    const denied = (what: string) =>
      `Error: EventStoreDB denied the connection string’s user ${what} (access denied): grant that user the right to it`;
    expect(refusals.map((refusal) => (refusal.status === 'rejected' ? String(refusal.reason) : 'succeeded'))).toEqual([
      denied('the append to audit'),
      denied('a read of audit-2'),
      denied('a read of $all (forwards, 11 events)'),
    ]);
    expect(fake.deniedCalls()).toBe(3);
    expect(fake.log()).toHaveLength(100);
    await store.close();
  });

  it('one append too large for the shared BatchAppend stream fails as too large, the five in flight beside it land once', async () => {
    fake = await fakeEventStoreDb([], {
      withholdBatchAnswer: (streamName) => streamName.startsWith('fundraiser-'),
      maxReceiveBytes: 1_000_000,
    });
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const small = [1, 2, 3, 4, 5].map((n) =>
      store.appendToStream(`fundraiser-${n}`, [{ type: 'FundraiserCreated', data: {} }]),
    );
    await waitFor('the five appends committed, their answers held back', fake.batchAppends, (count) => count === 5, {
      intervalMs: 5,
    });
    const large = store.appendToStream('page-1', [{ type: 'PageViewed', data: { text: 'x'.repeat(1_500_000) } }]);
    await expect(large).rejects.toThrow('Append to page-1: KurrentDB refused 1 event(s) as too large');
    expect((await Promise.allSettled(small)).filter((result) => result.status === 'rejected')).toEqual([]);
    // Each of the five found its commit on its retry, on a call of its own.
    expect(
      fake
        .log()
        .map((event) => event.streamName)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5].map((n) => `fundraiser-${n}`));
    console.log(`[esdb] ${fake.batchAppends()} appends on BatchAppend, ${fake.appendCalls()} on calls of their own`);
    await store.close();
  });

  it('an append whose check read meets a follower reconnects to the leader it names and lands', async () => {
    fake = await fakeEventStoreDb([], { notLeader: (nth) => nth === 1 });
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    await store.appendToStream('audit', [{ type: 'AdminActed', data: {} }]);
    expect(fake.log().map((event) => event.streamName)).toEqual(['audit']);
    expect(fake.streamReads()).toEqual(['audit', 'audit']);
    await store.close();
  });

  it('a read slower than its deadline fails alone, five appends beside it succeed, and the server sees the cancel', async () => {
    fake = await fakeEventStoreDb(longLog(2_000, []), { sendDelayMs: 5 });
    const store = createEventStoreDbEventStore({ connectionString: fake.url, deadlineMs: 300 });
    const reading = store.readAll({ eventTypes: ['PageViewed'] }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await waitFor(
      'the read to be under way',
      () => fake!.eventsSent(),
      (sent) => sent >= 1,
      { intervalMs: 5 },
    );
    const appends = await Promise.allSettled(
      [1, 2, 3, 4, 5].map((n) => store.appendToStream(`fundraiser-${n}`, [{ type: 'FundraiserCreated', data: {} }])),
    );
    expect(appends.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await reading).toMatch(/did not answer a read of \$all .* within its deadline \(300 ms\)/);
    const cancelled = Date.now();
    await waitFor('the server to see the read cancelled', fake.cancelledReads, (count) => count === 1, {
      timeoutMs: scaled(2_000),
      intervalMs: 5,
    });
    console.log(`[esdb] the server saw the cancel ${Date.now() - cancelled} ms after the read failed`);
    await store.close();
  });

  it('close() rejects a read still running, instead of answering with a short page', async () => {
    fake = await fakeEventStoreDb(longLog(300, []), { sendDelayMs: 2 });
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const reading = store.readAll({ eventTypes: ['PageViewed'] });
    const settled = reading.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await waitFor(
      'the read to be under way',
      () => fake!.eventsSent(),
      (sent) => sent >= 30,
      { intervalMs: 5 },
    );
    await store.close();
    expect(await settled).toMatch(/The event store was closed during a read of \$all.*incomplete/);
  });

  it('a checkpoint past the end of the log stops the subscription with an error naming both', async () => {
    const log = longLog(10, []);
    fake = await fakeEventStoreDb(log);
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const subscription = store.subscribe({ after: 9_999_999, onEvents: () => {} });
    await expect(subscription.done).rejects.toThrow(
      `Checkpoint 9999999 is past the end of the EventStoreDB log (${log.at(-1)!.position})`,
    );
    await store.close();
  });

  it('access denied ends a subscription at once with an error saying what the user lacks', async () => {
    fake = await fakeEventStoreDb(longLog(), { accessDenied: (call) => call === 'subscribe' });
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const subscription = store.subscribe({ onEvents: () => {} });
    await expect(subscription.done).rejects.toThrow(/denied this subscription access to \$all/);
    expect(fake.deniedCalls()).toBe(1);
    await store.close();
  });

  it('a subscription from an invalid position ends with that error instead of retrying forever', async () => {
    let attempts = 0;
    fake = await fakeEventStoreDb(longLog(), {
      subscribe(call) {
        attempts++;
        call.emit('error', { code: status.INVALID_ARGUMENT, details: 'Trying to read from an invalid position.' });
      },
    });
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const subscription = store.subscribe({ after: 1_187, onEvents: () => {} });
    await expect(subscription.done).rejects.toThrow(/invalid position/);
    expect(attempts).toBe(1);
    await store.close();
  });
});

describe('a subscription that drops', () => {
  let fake: Awaited<ReturnType<typeof fakeEventStoreDb>> | undefined;
  afterEach(() => fake?.server.forceShutdown());

  it('hands on every event once when it dropped holding a checkpoint it had not reached', async () => {
    const log = longLog(10, []);
    let subscriptions = 0;
    fake = await fakeEventStoreDb(log, {
      // The first batch's first metadata read fails once the checkpoint after it has come: the
      // subscription drops with all ten events in hand and none handed on.
      failStreamRead: (_streamName, nth) => (nth === 1 ? { afterMs: 200 } : undefined),
      subscribe(call, wire) {
        subscriptions++;
        const events = wire.log().filter((event) => wire.from === undefined || event.position >= wire.from);
        if (subscriptions === 1) {
          for (const event of events) wire.event(event);
          wire.checkpoint(log.at(-1)!.position);
          return;
        }
        // The next one sends the first event on its own: it is handed on while the rest are on
        // their way, when a checkpoint left over from the first would be taken as reached.
        wire.event(events[0]!);
        setTimeout(() => events.slice(1).forEach((event) => wire.event(event)), 300);
      },
    });
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const delivered: number[] = [];
    const subscription = store.subscribe({
      onEvents: (events) => void delivered.push(...events.map((event) => event.globalPosition)),
    });
    const positions = log.map((event) => event.position);
    await waitFor(
      'the ten events handed on, or a later one skipped to',
      () => [...delivered],
      (seen) => seen.length >= positions.length || seen.includes(positions.at(-1)!),
    );
    expect(subscriptions).toBe(2);
    expect(delivered).toEqual(positions);
    await subscription.stop();
    await store.close();
  });
});

describe('a subscription’s truncation lookups', () => {
  let fake: Awaited<ReturnType<typeof fakeEventStoreDb>> | undefined;
  afterEach(() => fake?.server.forceShutdown());

  it('filter types by prefix on the server, and leave out here a longer type sharing one', async () => {
    // The last Donation marks that the subscription has handled everything before it.
    const types = new Map([
      [10, 'Donation'],
      [50, 'DonationRefunded'],
      [80, 'Donation'],
    ]);
    const log = longLog(100, []).map((event, i) => ({ ...event, type: types.get(i) ?? event.type }));
    fake = await fakeEventStoreDb(log);
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const seen: number[] = [];
    const subscription = store.subscribe({
      eventTypes: ['Donation'],
      onEvents: (events) => void seen.push(...events.map((event) => event.globalPosition)),
    });
    await waitFor(
      'the last Donation handed on',
      () => seen.at(-1),
      (at) => at === log[80]!.position,
    );
    expect(seen).toEqual([log[10]!.position, log[80]!.position]);
    expect(fake.subscriptions().map((request) => request.filter)).toEqual([
      { eventTypePrefixes: ['Donation', '$metadata'] },
    ]);
    await subscription.stop();
    await store.close();
  });

  it('read each stream’s $tb once, and learn a later truncation from its $metadata event', async () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const log = Array.from({ length: 2_000 }, (_, i) => ({
      streamName: `views-${i % 20}`,
      type: 'PageViewed',
      position: 1_000 + i * 187,
      recordedAt: new Date(start + i * 1_000),
    }));
    let sent = 0;
    let sendNew = (): void => {};
    fake = await fakeEventStoreDb(log, {
      subscribe(_call, wire) {
        // Everything the log holds, then on demand what was added since: a live subscription.
        sendNew = () =>
          wire
            .log()
            .slice(sent)
            .forEach((event) => (sent++, wire.event(event)));
        sendNew();
      },
    });
    const metadataReads = () => fake!.streamReads().filter((name) => name.startsWith('$$')).length;
    const store = createEventStoreDbEventStore({ connectionString: fake.url });
    const seen: StoredEvent[] = [];
    const subscription = store.subscribe({ batchSize: 7, onEvents: (events) => void seen.push(...events) });
    await waitFor(
      'the 2,000 events handed on',
      () => seen.length,
      (count) => count === 2_000,
    );
    console.log(`[esdb] ${metadataReads()} metadata reads for 2,000 events over 20 streams, in batches of 7`);
    expect(metadataReads()).toBe(20);

    // A `$tb` past its end hides what views-3 gets next; the marker's stream is new.
    const copies = openEventStoreDbCopyingLog({ connectionString: fake.url });
    await copies.truncateBefore('views-3', 1_000);
    await copies.close();
    const readsBefore = metadataReads();
    await store.appendToStream('views-3', [{ type: 'PageViewed', data: {} }]);
    await store.appendToStream('marker-1', [{ type: 'PageViewed', data: {} }]);
    sendNew();
    await waitFor(
      'the marker handed on',
      () => seen.at(-1)?.streamName,
      (name) => name === 'marker-1',
    );
    expect(seen.filter((event) => event.streamName === 'views-3')).toHaveLength(100);
    expect(metadataReads() - readsBefore).toBe(1);
    await subscription.stop();
    await store.close();
  });
});

describe('the clients the adapter opens', () => {
  let fake: Awaited<ReturnType<typeof fakeEventStoreDb>> | undefined;
  afterEach(() => fake?.server.forceShutdown());

  it('the personal-data migration’s log copies go through the store’s one connection, closed with it', async () => {
    fake = await fakeEventStoreDb(longLog(30, [3]));
    // Between the client and the server, to count the client's connections.
    let made = 0;
    const open = new Set<Socket>();
    const proxy = createServer((socket) => {
      made++;
      open.add(socket);
      const upstream = createConnection(fake!.port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('close', () => {
        open.delete(socket);
        upstream.destroy();
      });
      upstream.on('close', () => socket.destroy());
    });
    const proxyPort = await new Promise<number>((resolve) =>
      proxy.listen(0, '127.0.0.1', () => resolve((proxy.address() as { port: number }).port)),
    );
    try {
      const log = openEventStoreDbCopyingLog({ connectionString: `esdb://127.0.0.1:${proxyPort}?tls=false` });
      const signups: string[] = [];
      for await (const event of log.readAllOf(['WaitlistJoined'])) signups.push(event.streamName);
      expect(signups).toEqual(['waitlist-shirt.3']);
      expect(await log.readLive('user-1')).toEqual([]);
      await log.truncateBefore('user-1', 2);
      expect(
        fake
          .log()
          .filter((event) => event.streamName === '$$user-1')
          .map((event) => event.data),
      ).toEqual([{ $tb: 2 }]);
      // One client, and of it one gRPC channel: its native reader is never used.
      expect(made).toBe(1);
      await log.close();
      await expect(log.readLive('user-1')).rejects.toThrow(/closed/);
      await waitFor(
        'the client to close its connection',
        () => open.size,
        (size) => size === 0,
      );
    } finally {
      for (const socket of open) socket.destroy();
      proxy.close();
    }
  });
});
