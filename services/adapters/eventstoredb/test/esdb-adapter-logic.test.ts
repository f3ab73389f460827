import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { createConnection, createServer, type Socket } from 'node:net';
import {
  Server,
  ServerCredentials,
  status,
  type ServerUnaryCall,
  type ServerWritableStream,
  type sendUnaryData,
} from '@grpc/grpc-js';
import {
  DeadlineExceededError,
  UnknownError,
  WrongExpectedVersionError,
  jsonEvent,
  type AppendExpectedRevision,
  type AppendResult as EsdbAppendResult,
  type EventData,
} from '@eventstore/db-client';
import { afterEach, describe, expect, it } from 'vitest';
import { ConcurrencyError, type NewEvent, type ReadFilteredOptions } from '@qrshirt/core';
import { appendEncoded, DEFAULT_MAX_APPEND_BYTES, type AppendClient } from '../src/esdb-append';
import { encodeEvents } from '../src/esdb-encoding';
import { createEventStoreDbEventStore } from '../src/esdb-event-store';

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

/** A stream on a pretend server: commits what it accepts, can refuse or lose answers. */
function fakeServer(behaviour: {
  maxAppendBytes?: number;
  refuseSize?: (bytes: number) => Error | undefined;
  loseAnswerOfCall?: number;
}) {
  const stored: { id: string; revision: number; position: bigint }[] = [];
  const calls: { expected: AppendExpectedRevision; ids: string[] }[] = [];
  let reads = 0;
  let nextPosition = 1_000n;
  const client: AppendClient = {
    appendToStream: (async (
      _stream: string,
      events: EventData[],
      options: { expectedRevision: AppendExpectedRevision },
    ) => {
      const ids = events.map((event) => event.id);
      calls.push({ expected: options.expectedRevision, ids });
      const bytes = events.reduce((sum, event) => sum + JSON.stringify(event.data).length, 0);
      const refusal = behaviour.refuseSize?.(bytes);
      if (refusal) throw refusal;
      const current = stored.length === 0 ? 'no_stream' : BigInt(stored.length - 1);
      if (options.expectedRevision !== 'any' && options.expectedRevision !== current) {
        throw new WrongExpectedVersionError(undefined, {
          streamName: _stream,
          expected: options.expectedRevision,
          current,
        });
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
    readStream: ((_stream: string, options: { fromRevision: bigint; maxCount: number }) => {
      reads++;
      const from = Number(options.fromRevision);
      return (async function* () {
        for (const event of stored.slice(from, from + options.maxCount)) {
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

function context(client: AppendClient, maxAppendBytes = DEFAULT_MAX_APPEND_BYTES) {
  return {
    client,
    jsonEvent: (event: Parameters<typeof jsonEvent>[0]) => jsonEvent(event),
    toRevision: (expected: 'any' | 'no_stream' | 'stream_exists' | number): AppendExpectedRevision =>
      typeof expected === 'number' ? BigInt(expected) : expected,
    maxAppendBytes,
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

describe('appends larger than the server takes at once', () => {
  it('are split by size, each part expecting the revision the one before ended at', async () => {
    const server = fakeServer({
      refuseSize: (bytes) => (bytes > DEFAULT_MAX_APPEND_BYTES ? new Error('MaximumAppendSizeExceeded') : undefined),
    });
    const events = encodeEvents('analytics-2025-01-01', pageViews(2_000));
    const result = await appendEncoded(context(server.client), 'analytics-2025-01-01', events, 'no_stream');

    expect(server.calls.length).toBeGreaterThan(1);
    expect(server.calls[0]!.expected).toBe('no_stream');
    let revision = -1;
    for (const call of server.calls) {
      if (revision >= 0) expect(call.expected).toBe(BigInt(revision));
      revision += call.ids.length;
    }
    expect(server.stored.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(result).toEqual({ nextExpectedRevision: 1_999, lastGlobalPosition: Number(server.stored.at(-1)!.position) });
  });

  it('are split further when the server refuses a part, even as an "unknown" error', async () => {
    const server = fakeServer({
      refuseSize: (bytes) =>
        bytes > 200_000 ? new UnknownError(undefined, 'Could not recognize MaximumAppendEventSizeExceeded') : undefined,
    });
    const events = encodeEvents('analytics-2025-01-02', pageViews(300));
    const result = await appendEncoded(context(server.client), 'analytics-2025-01-02', events, 'any');
    expect(result.nextExpectedRevision).toBe(299);
    expect(server.stored).toHaveLength(300);
  });

  it('refuse one event larger than the limit with its size', async () => {
    const server = fakeServer({});
    const events = encodeEvents('s', [{ type: 'Big', data: { blob: 'x'.repeat(2_000_000) } }]);
    await expect(appendEncoded(context(server.client), 's', events, 'any')).rejects.toThrow(
      /more than the 1048576 bytes EventStoreDB accepts/,
    );
    expect(server.calls).toHaveLength(0);
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

  it('still fails as a conflict when the stored events are not its own', async () => {
    const server = fakeServer({});
    await appendEncoded(context(server.client), 's', encodeEvents('s', [{ type: 'T', data: {} }]), 'no_stream');
    await expect(
      appendEncoded(context(server.client), 's', encodeEvents('s', [{ type: 'T', data: {} }]), 'no_stream'),
    ).rejects.toBeInstanceOf(ConcurrencyError);
  });

  it('answers with the position the server returned, without reading it back', async () => {
    const server = fakeServer({});
    await appendEncoded(context(server.client), 's', encodeEvents('s', [{ type: 'T', data: {} }]), 'any');
    expect(server.reads()).toBe(0);
  });
});

describe('a subscription the server refuses', () => {
  let server: Server | undefined;
  afterEach(() => server?.forceShutdown());

  it('ends with the invalid-position error, which client 6 reports as "unknown", instead of retrying forever', async () => {
    // Answers every read as EventStoreDB answers a subscription from a position inside a record.
    server = new Server();
    const identity = (value: Buffer): Buffer => value;
    server.addService(
      {
        read: {
          path: '/event_store.client.streams.Streams/Read',
          requestStream: false,
          responseStream: true,
          requestSerialize: identity,
          requestDeserialize: identity,
          responseSerialize: identity,
          responseDeserialize: identity,
        },
      },
      {
        read: (call: ServerWritableStream<Buffer, Buffer>) => {
          call.emit('error', { code: status.INVALID_ARGUMENT, details: 'Trying to read from an invalid position.' });
        },
      },
    );
    const port = await new Promise<number>((resolve, reject) =>
      server!.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    const store = createEventStoreDbEventStore({ connectionString: `esdb://127.0.0.1:${port}?tls=false` });
    const subscription = store.subscribe({ after: 12_345, onEvents: () => {} });
    await expect(subscription.done).rejects.toThrow(/invalid position/);
    await store.close();
  });
});

// The client's generated protobuf classes: CommonJS, whose exports Node cannot name for an import.
const load = createRequire(import.meta.url);
const { ReadReq, ReadResp } = load(
  '@eventstore/db-client/generated/streams_pb',
) as typeof import('@eventstore/db-client/generated/streams_pb.js');
const { UUID, StreamIdentifier } = load(
  '@eventstore/db-client/generated/shared_pb',
) as typeof import('@eventstore/db-client/generated/shared_pb.js');

interface LoggedEvent {
  streamName: string;
  type: string;
  position: number;
  recordedAt: Date;
}

interface ReadRequest {
  direction: 'forwards' | 'backwards';
  count: number;
  filter: { eventType: string } | { streamPrefixes: string[] } | null;
}

/**
 * Reads of $all as EventStoreDB answers them, filter included, over a log whose positions are
 * byte offsets; also the server-features call the client makes before appending.
 */
async function fakeEventStoreDb(log: readonly LoggedEvent[], features: (call: number) => { code: number } | null) {
  const reads: ReadRequest[] = [];
  let eventsSent = 0;
  let featureCalls = 0;
  const identity = (value: Buffer): Buffer => value;
  const method = (path: string, responseStream: boolean) => ({
    path,
    requestStream: false,
    responseStream,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  });
  const server = new Server();
  server.addService(
    {
      read: method('/event_store.client.streams.Streams/Read', true),
      features: method('/event_store.client.server_features.ServerFeatures/GetSupportedMethods', false),
    },
    {
      read(call: ServerWritableStream<Buffer, Buffer>) {
        const options = ReadReq.deserializeBinary(call.request).getOptions()!;
        const all = options.getAll()!;
        const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
        const filter = options.hasFilter() ? options.getFilter()! : undefined;
        const request: ReadRequest = {
          direction: backwards ? 'backwards' : 'forwards',
          count: Number(options.getCount()),
          filter: filter?.hasEventType()
            ? { eventType: filter.getEventType()!.getRegex() }
            : filter?.hasStreamIdentifier()
              ? { streamPrefixes: filter.getStreamIdentifier()!.getPrefixList() }
              : null,
        };
        reads.push(request);
        const from = all.hasPosition()
          ? Number(all.getPosition()!.getCommitPosition())
          : all.hasEnd() || backwards
            ? Number.POSITIVE_INFINITY
            : 0;
        const passes = (event: LoggedEvent) =>
          request.filter === null
            ? true
            : 'eventType' in request.filter
              ? new RegExp(request.filter.eventType).test(event.type)
              : request.filter.streamPrefixes.some((prefix) => event.streamName.startsWith(prefix));
        const inRange = backwards
          ? [...log].reverse().filter((event) => event.position < from)
          : log.filter((event) => event.position >= from);
        for (const event of inRange.filter(passes).slice(0, request.count)) {
          const recorded = new ReadResp.ReadEvent.RecordedEvent();
          recorded.setId(new UUID().setString(randomUUID()));
          recorded.setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(event.streamName)));
          recorded.setStreamRevision('0');
          recorded.setCommitPosition(String(event.position));
          recorded.setPreparePosition(String(event.position));
          recorded.getMetadataMap().set('type', event.type);
          recorded.getMetadataMap().set('content-type', 'application/json');
          recorded.getMetadataMap().set('created', String(BigInt(event.recordedAt.getTime()) * 10_000n));
          recorded.setData(Buffer.from('{}'));
          const readEvent = new ReadResp.ReadEvent().setEvent(recorded);
          readEvent.setCommitPosition(String(event.position));
          call.write(Buffer.from(new ReadResp().setEvent(readEvent).serializeBinary()));
          eventsSent++;
        }
        call.end();
      },
      features(_call: ServerUnaryCall<Buffer, Buffer>, answer: sendUnaryData<Buffer>) {
        featureCalls++;
        const failure = features(featureCalls);
        if (failure) answer({ ...failure, details: 'features refused' });
        else answer({ code: status.UNIMPLEMENTED, details: 'no server features' });
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    server,
    port,
    reads: () => [...reads],
    eventsSent: () => eventsSent,
    featureCalls: () => featureCalls,
  };
}

/** A long log: page views everywhere, three signups among them; positions are byte offsets. */
function longLog(): LoggedEvent[] {
  const start = Date.parse('2026-01-01T00:00:00Z');
  return Array.from({ length: 3_000 }, (_, i) => {
    const signup = i === 10 || i === 1_500 || i === 2_990;
    return {
      streamName: signup ? `waitlist-shirt.${i}` : `views-${i % 7}`,
      type: signup ? 'WaitlistJoined' : 'PageViewed',
      position: 1_000 + i * 187,
      recordedAt: new Date(start + i * 1_000),
    };
  });
}

describe('filtered reads of $all', () => {
  let fake: Awaited<ReturnType<typeof fakeEventStoreDb>> | undefined;
  afterEach(() => fake?.server.forceShutdown());

  it('ask the server to filter, so a narrow read over a long log is one request that returns only matches', async () => {
    const log = longLog();
    fake = await fakeEventStoreDb(log, () => null);
    const store = createEventStoreDbEventStore({ connectionString: `esdb://127.0.0.1:${fake.port}?tls=false` });
    const signups = log.filter((event) => event.type === 'WaitlistJoined');

    // The admin's waitlist list: newest first, a page of two, then the rest.
    const { events: newest } = await store.readFiltered({
      streamPrefix: 'waitlist-',
      eventTypes: ['WaitlistJoined'],
      direction: 'backwards',
      maxCount: 2,
    });
    expect(newest.map((event) => event.globalPosition)).toEqual([signups[2]!.position, signups[1]!.position]);
    const { events: older } = await store.readFiltered({
      streamPrefix: 'waitlist-',
      eventTypes: ['WaitlistJoined'],
      direction: 'backwards',
      cursor: newest[1]!.globalPosition,
      maxCount: 2,
    });
    expect(older.map((event) => event.globalPosition)).toEqual([signups[0]!.position]);

    // A projection's "anything left for me?" from its checkpoint, and the head of the log.
    const [pending] = await store.readAll({ after: signups[0]!.position, eventTypes: ['WaitlistJoined'], maxCount: 1 });
    expect(pending?.globalPosition).toBe(signups[1]!.position);
    expect(await store.headPosition()).toBe(log.at(-1)!.position);

    expect(fake.reads()).toEqual([
      { direction: 'backwards', count: 3, filter: { eventType: '^(?:WaitlistJoined)$' } },
      { direction: 'backwards', count: 3, filter: { eventType: '^(?:WaitlistJoined)$' } },
      { direction: 'forwards', count: 2, filter: { eventType: '^(?:WaitlistJoined)$' } },
      { direction: 'backwards', count: 2, filter: { eventType: '^[^$].*' } },
    ]);
    expect(fake.eventsSent()).toBeLessThan(10);
    await store.close();
  });

  it('filter by stream prefix when no type is given, and stop at the end of a time range', async () => {
    const log = longLog();
    fake = await fakeEventStoreDb(log, () => null);
    const store = createEventStoreDbEventStore({ connectionString: `esdb://127.0.0.1:${fake.port}?tls=false` });
    const { events, next } = await store.readFiltered({
      streamPrefix: 'waitlist-',
      recordedBefore: log[2_000]!.recordedAt,
      maxCount: 10,
    });
    expect(events.map((event) => event.streamName)).toEqual(['waitlist-shirt.10', 'waitlist-shirt.1500']);
    expect(next).toBeUndefined();
    expect(fake.reads()).toEqual([{ direction: 'forwards', count: 11, filter: { streamPrefixes: ['waitlist-'] } }]);
    await store.close();
  });

  it('read a far time range a bounded stretch per request, each page saying where the next reads on', async () => {
    const log = longLog();
    fake = await fakeEventStoreDb(log, () => null);
    const store = createEventStoreDbEventStore({ connectionString: `esdb://127.0.0.1:${fake.port}?tls=false` });
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
});

describe('the client underneath', () => {
  let fake: Awaited<ReturnType<typeof fakeEventStoreDb>> | undefined;
  afterEach(() => fake?.server.forceShutdown());

  it("asks for the server's features again after a failed first check, instead of failing every append", async () => {
    // Refused twice, then answered (as a server without the features service answers).
    fake = await fakeEventStoreDb([], (call) => (call <= 2 ? { code: status.INTERNAL } : null));
    const store = createEventStoreDbEventStore({ connectionString: `esdb://127.0.0.1:${fake.port}?tls=false` });
    const append = () => store.appendToStream('fundraiser-1', [{ type: 'FundraiserCreated', data: {} }]);
    await expect(append()).rejects.toThrow(/features refused/);
    await expect(append()).rejects.toThrow(/features refused/);
    expect(fake.featureCalls()).toBe(2);
    // Answered: this append gets as far as the append itself, which this server lacks, and the
    // answer is kept for its retries.
    await expect(append()).rejects.not.toThrow(/features refused/);
    expect(fake.featureCalls()).toBe(3);
    await store.close();
  });

  it('closes its connection on close()', async () => {
    fake = await fakeEventStoreDb(longLog(), () => null);
    // Between the client and the server, to see the client's connection end.
    const open = new Set<Socket>();
    const proxy = createServer((socket) => {
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
      const store = createEventStoreDbEventStore({ connectionString: `esdb://127.0.0.1:${proxyPort}?tls=false` });
      await store.headPosition();
      expect(open.size).toBe(1);
      await store.close();
      const deadline = Date.now() + 2_000;
      while (open.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(open.size).toBe(0);
    } finally {
      for (const socket of open) socket.destroy();
      proxy.close();
    }
  });
});
