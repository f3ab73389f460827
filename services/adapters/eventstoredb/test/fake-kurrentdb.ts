import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  Metadata,
  Server,
  ServerCredentials,
  status,
  type ServerDuplexStream,
  type ServerReadableStream,
  type ServerUnaryCall,
  type ServerWritableStream,
  type sendUnaryData,
} from '@grpc/grpc-js';

// The client's generated protobuf classes: CommonJS, whose exports Node cannot name for an import.
const load = createRequire(import.meta.url);
const { AppendReq, AppendResp, BatchAppendReq, BatchAppendResp, ReadReq, ReadResp } = load(
  '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb',
) as typeof import('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb.js');
const { AccessDenied, AllStreamPosition, BadRequest, Empty, UUID, StreamIdentifier, WrongExpectedVersion } = load(
  '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb',
) as typeof import('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb.js');
const { Status } = load(
  '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/status_pb',
) as typeof import('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/status_pb.js');
const { SupportedMethod, SupportedMethods } = load(
  '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_pb',
) as typeof import('@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_pb.js');
const { Any } = load(
  'google-protobuf/google/protobuf/any_pb',
) as typeof import('google-protobuf/google/protobuf/any_pb.js');

/** An event as a test writes it into the log; what it leaves out gets a plain default. */
interface LoggedEvent {
  streamName: string;
  type: string;
  position: number;
  recordedAt: Date;
  id?: string;
  /** Its revision in its stream; by default, the number of its stream's events before it. */
  revision?: number;
  data?: unknown;
  metadata?: Record<string, unknown>;
}

type StoredLogEvent = Required<LoggedEvent>;

/** What a `subscribe` behaviour sends on a subscription, as the server would. */
interface SubscriptionWire {
  /** The commit position the subscription asked to start from; undefined for the start of $all. */
  readonly from: number | undefined;
  /** The log, oldest first, as the server holds it now. */
  log(): readonly StoredLogEvent[];
  event(event: StoredLogEvent): void;
  /** The server's word that its filter has looked at $all up to `position`. */
  checkpoint(position: number): void;
}

interface ReadRequest {
  direction: 'forwards' | 'backwards';
  count: number;
  filter: { eventType: string } | { eventTypePrefixes: string[] } | { streamPrefixes: string[] } | null;
  /** Events this request went past, matching or not. */
  examined: number;
}

interface FakeBehaviour {
  /**
   * The server-features answer to the n-th call: 'hang' never answers, 'none' is "no such
   * service" (the client then appends one call each); by default 25.1's, with BatchAppend.
   */
  features?: (call: number) => { code: number } | 'hang' | 'none' | '25.1';
  /** Refuses an append to the stream as 25.1 refuses a malformed one, on BatchAppend. */
  badRequest?: (streamName: string) => boolean;
  /** Commits a BatchAppend to the stream but keeps its answer back, for ever: an append in flight. */
  withholdBatchAnswer?: (streamName: string) => boolean;
  /** The server's gRPC receive limit: a larger message fails its call with RESOURCE_EXHAUSTED. */
  maxReceiveBytes?: number;
  /** Milliseconds between events sent, to have a read still running. */
  sendDelayMs?: number;
  /**
   * What a subscription request gets; by default, the log's events after its position that its
   * filter lets through, then nothing until it is cancelled.
   */
  subscribe?: (call: ServerWritableStream<Buffer, Buffer>, wire: SubscriptionWire) => void;
  /**
   * Fails the `nth` read of a stream (1 for the first, of any stream) after `afterMs`, as a
   * server that goes away mid-call does; undefined reads it.
   */
  failStreamRead?: (streamName: string, nth: number) => { afterMs: number } | undefined;
  /**
   * Answers the `nth` read that requires the leader (1 for the first) as a follower does:
   * not-leader, naming this server as the leader, to which the client then reconnects.
   */
  notLeader?: (nth: number) => boolean;
  /**
   * Refuses the call as 25.1 refuses a user without the right (`$all` for reads and
   * subscriptions of it): a read or subscription ends with PERMISSION_DENIED, an append on
   * BatchAppend with an AccessDenied status, one on the Append call as the read does.
   */
  accessDenied?: (call: 'read' | 'append' | 'subscribe', streamName: string) => boolean;
  /** The time the server records for an append; by default, now. */
  clock?: () => Date;
}

const POSITION_STEP = 187;
const CHECKPOINT_EVERY = 32;

/**
 * KurrentDB 25.1 as the adapter meets it, over a log whose positions are byte offsets: reads of
 * $all with its filters (a filtered read scans until it has its count or reaches the end, as the
 * server's does: the search window only sizes its internal pages), reads of a stream (which skip
 * what the stream's `$tb` hides, while $all keeps returning it: there is no scavenge here),
 * appends (metadata too, to `$$<stream>`) on the BatchAppend stream its features advertise or one
 * call each, an exact repeat of stored events answered as an idempotent success, subscriptions,
 * and the server-features call the client makes before appending. `examined` counts every event
 * a read went past, matching or not.
 */
export async function fakeEventStoreDb(initial: readonly LoggedEvent[], behaviour: FakeBehaviour = {}) {
  const log: StoredLogEvent[] = [];
  const streamLengths = new Map<string, number>();
  const nextRevision = (streamName: string) => streamLengths.get(streamName) ?? 0;
  const record = (event: StoredLogEvent) => {
    log.push(event);
    streamLengths.set(event.streamName, Math.max(nextRevision(event.streamName), event.revision + 1));
  };
  for (const event of initial) {
    record({ id: randomUUID(), revision: nextRevision(event.streamName), data: {}, metadata: {}, ...event });
  }
  const reads: ReadRequest[] = [];
  const subscriptions: ReadRequest[] = [];
  const streamReads: string[] = [];
  let leaderReads = 0;
  let eventsSent = 0;
  let examined = 0;
  let featureCalls = 0;
  let cancelledReads = 0;
  let appendCalls = 0;
  let batchAppends = 0;
  let deniedCalls = 0;
  const identity = (value: Buffer): Buffer => value;
  const method = (path: string, requestStream: boolean, responseStream: boolean) => ({
    path,
    requestStream,
    responseStream,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  });

  /** Where `$tb` hides a stream's events from reads of it: the last metadata written to `$$<name>`. */
  function truncatedBefore(streamName: string): number {
    const metadata = log.filter((event) => event.streamName === `$$${streamName}`).at(-1);
    const truncateBefore = (metadata?.data as { $tb?: unknown } | undefined)?.$tb;
    return typeof truncateBefore === 'number' ? truncateBefore : 0;
  }

  function send(call: ServerWritableStream<Buffer, Buffer>, event: StoredLogEvent): void {
    const recorded = new ReadResp.ReadEvent.RecordedEvent();
    recorded.setId(new UUID().setString(event.id));
    recorded.setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(event.streamName)));
    recorded.setStreamRevision(String(event.revision));
    recorded.setCommitPosition(String(event.position));
    recorded.setPreparePosition(String(event.position));
    recorded.getMetadataMap().set('type', event.type);
    recorded.getMetadataMap().set('content-type', 'application/json');
    recorded.getMetadataMap().set('created', String(BigInt(event.recordedAt.getTime()) * 10_000n));
    recorded.setCustomMetadata(Buffer.from(JSON.stringify(event.metadata)));
    recorded.setData(Buffer.from(JSON.stringify(event.data)));
    const readEvent = new ReadResp.ReadEvent().setEvent(recorded);
    readEvent.setCommitPosition(String(event.position));
    call.write(Buffer.from(new ReadResp().setEvent(readEvent).serializeBinary()));
  }

  function checkpoint(call: ServerWritableStream<Buffer, Buffer>, position: number): void {
    const reached = new ReadResp.Checkpoint().setCommitPosition(String(position)).setPreparePosition(String(position));
    call.write(Buffer.from(new ReadResp().setCheckpoint(reached).serializeBinary()));
  }

  /** The error 25.1 answers a user without the right with, if `accessDenied` refuses the call. */
  function denial(kind: 'read' | 'append' | 'subscribe', streamName: string) {
    if (!behaviour.accessDenied?.(kind, streamName)) return undefined;
    deniedCalls++;
    const metadata = new Metadata();
    metadata.set('exception', 'access-denied');
    return { code: status.PERMISSION_DENIED, details: 'Access denied', metadata };
  }

  function denied(call: ServerWritableStream<Buffer, Buffer>, kind: 'read' | 'subscribe', streamName: string) {
    const error = denial(kind, streamName);
    if (error) call.emit('error', error);
    return error !== undefined;
  }

  function readStream(call: ServerWritableStream<Buffer, Buffer>, options: InstanceType<typeof ReadReq.Options>) {
    const stream = options.getStream()!;
    const streamName = Buffer.from(stream.getStreamIdentifier()!.getStreamName_asU8()).toString();
    streamReads.push(streamName);
    if (denied(call, 'read', streamName)) return;
    if (call.metadata.get('requires-leader')[0] === 'true' && behaviour.notLeader?.(++leaderReads)) {
      const metadata = new Metadata();
      metadata.set('exception', 'not-leader');
      metadata.set('leader-endpoint-host', '127.0.0.1');
      metadata.set('leader-endpoint-port', String(port));
      call.emit('error', { code: status.NOT_FOUND, details: 'Leader info available', metadata });
      return;
    }
    const failure = behaviour.failStreamRead?.(streamName, streamReads.length);
    if (failure) {
      setTimeout(
        () => call.emit('error', { code: status.UNAVAILABLE, details: 'Server is shutting down' }),
        failure.afterMs,
      );
      return;
    }
    const events = log.filter((event) => event.streamName === streamName);
    if (events.length === 0) {
      const missing = new ReadResp.StreamNotFound().setStreamIdentifier(stream.getStreamIdentifier());
      call.write(Buffer.from(new ReadResp().setStreamNotFound(missing).serializeBinary()));
      call.end();
      return;
    }
    const live = events.filter((event) => event.revision >= truncatedBefore(streamName));
    const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
    const from = stream.hasEnd() ? Number.POSITIVE_INFINITY : stream.hasStart() ? 0 : Number(stream.getRevision());
    const inRange = backwards
      ? live.filter((event) => event.revision <= from).reverse()
      : live.filter((event) => event.revision >= from);
    for (const event of inRange.slice(0, Number(options.getCount()))) send(call, event);
    call.end();
  }

  type Expectation = number | 'any' | 'no_stream' | 'exists';
  interface Proposed {
    getId(): InstanceType<typeof UUID> | undefined;
    getMetadataMap(): { get(key: string): string | undefined };
    getData_asU8(): Uint8Array;
    getCustomMetadata_asU8(): Uint8Array;
  }
  type Outcome =
    { wrong: { current: number; expected: Exclude<Expectation, 'any'> } } | { revision: number; position?: number };

  function expectationOf(
    options: {
      hasAny(): boolean;
      hasNoStream(): boolean;
      hasStreamExists(): boolean;
    } & ({ getRevision(): string } | { getStreamPosition(): string }),
  ): Expectation {
    if (options.hasAny()) return 'any';
    if (options.hasNoStream()) return 'no_stream';
    if (options.hasStreamExists()) return 'exists';
    return Number('getRevision' in options ? options.getRevision() : options.getStreamPosition());
  }

  /**
   * One append as 25.1 commits it. A repeat of events already stored right after the revision it
   * expects (the same ids) answers success without a position, as the server's id check does.
   */
  function commit(streamName: string, expected: Expectation, proposed: readonly Proposed[]): Outcome {
    const current = nextRevision(streamName) - 1;
    const ids = proposed.map((message) => message.getId()!.getString());
    if (expected !== 'any' && expected !== 'exists') {
      const after = expected === 'no_stream' ? -1 : expected;
      const stored = log.filter((event) => event.streamName === streamName && event.revision > after);
      const repeat = stored.length >= ids.length && ids.every((id, i) => stored[i]!.id === id);
      if (repeat && ids.length > 0) return { revision: after + ids.length };
    }
    const conflict =
      expected === 'exists'
        ? current < 0
        : expected === 'no_stream'
          ? current >= 0
          : expected !== 'any' && expected !== current;
    if (conflict && expected !== 'any') return { wrong: { current, expected } };
    for (const [i, message] of proposed.entries()) {
      const metadata = Buffer.from(message.getCustomMetadata_asU8()).toString();
      record({
        streamName,
        type: message.getMetadataMap().get('type')!,
        position: (log.at(-1)?.position ?? 1_000 - POSITION_STEP) + POSITION_STEP,
        recordedAt: behaviour.clock?.() ?? new Date(),
        id: ids[i]!,
        revision: nextRevision(streamName),
        data: JSON.parse(Buffer.from(message.getData_asU8()).toString()) as unknown,
        metadata: metadata ? (JSON.parse(metadata) as Record<string, unknown>) : {},
      });
    }
    const last = log.at(-1)!;
    return { revision: nextRevision(streamName) - 1, position: last.position };
  }

  const server = new Server(
    behaviour.maxReceiveBytes === undefined ? {} : { 'grpc.max_receive_message_length': behaviour.maxReceiveBytes },
  );
  server.addService(
    {
      read: method('/event_store.client.streams.Streams/Read', false, true),
      append: method('/event_store.client.streams.Streams/Append', true, false),
      batchAppend: method('/event_store.client.streams.Streams/BatchAppend', true, true),
      features: method('/event_store.client.server_features.ServerFeatures/GetSupportedMethods', false, false),
    },
    {
      async read(call: ServerWritableStream<Buffer, Buffer>) {
        const options = ReadReq.deserializeBinary(call.request).getOptions()!;
        if (options.hasStream()) {
          readStream(call, options);
          return;
        }
        const subscription = options.hasSubscription();
        if (denied(call, subscription ? 'subscribe' : 'read', '$all')) return;
        const all = options.getAll()!;
        if (subscription && behaviour.subscribe) {
          behaviour.subscribe(call, {
            from: all.hasPosition() ? Number(all.getPosition()!.getCommitPosition()) : undefined,
            log: () => [...log],
            event: (event) => send(call, event),
            checkpoint: (position) => checkpoint(call, position),
          });
          return;
        }
        const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
        const filter = options.hasFilter() ? options.getFilter()! : undefined;
        const request: ReadRequest = {
          direction: backwards ? 'backwards' : 'forwards',
          count: subscription ? Number.POSITIVE_INFINITY : Number(options.getCount()),
          filter: filter?.hasEventType()
            ? filter.getEventType()!.getPrefixList().length > 0
              ? { eventTypePrefixes: filter.getEventType()!.getPrefixList() }
              : { eventType: filter.getEventType()!.getRegex() }
            : filter?.hasStreamIdentifier()
              ? { streamPrefixes: filter.getStreamIdentifier()!.getPrefixList() }
              : null,
          examined: 0,
        };
        (subscription ? subscriptions : reads).push(request);
        const from = all.hasPosition()
          ? Number(all.getPosition()!.getCommitPosition())
          : all.hasEnd() || backwards
            ? Number.POSITIVE_INFINITY
            : 0;
        // 25.1's secondary index of a type (`$idx-et-<type>`), read as a prefix: that type's
        // events, as the index holds them, with nothing else to go past.
        const indexed =
          request.filter !== null && 'streamPrefixes' in request.filter
            ? request.filter.streamPrefixes.flatMap((prefix) =>
                prefix.startsWith('$idx-et-') ? [prefix.slice('$idx-et-'.length)] : [],
              )
            : [];
        const source = indexed.length > 0 ? log.filter((event) => indexed.includes(event.type)) : log;
        const passes = (event: StoredLogEvent) =>
          request.filter === null || indexed.length > 0
            ? true
            : 'eventType' in request.filter
              ? new RegExp(request.filter.eventType).test(event.type)
              : 'eventTypePrefixes' in request.filter
                ? request.filter.eventTypePrefixes.some((prefix) => event.type.startsWith(prefix))
                : request.filter.streamPrefixes.some((prefix) => event.streamName.startsWith(prefix));
        const inRange = backwards
          ? [...source].reverse().filter((event) => event.position < from)
          : source.filter((event) => event.position >= from);
        if (subscription) {
          const confirmation = new ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID());
          call.write(Buffer.from(new ReadResp().setConfirmation(confirmation).serializeBinary()));
        }
        let sent = 0;
        for (const event of inRange) {
          if (sent >= request.count) break;
          if (call.cancelled) {
            cancelledReads++;
            break;
          }
          examined++;
          request.examined++;
          // 25.1 reports how far a filtered subscription has looked every 32 events it considered.
          if (subscription && filter && request.examined % CHECKPOINT_EVERY === 0) checkpoint(call, event.position);
          if (!passes(event)) continue;
          if (behaviour.sendDelayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.sendDelayMs));
          send(call, event);
          eventsSent++;
          sent++;
        }
        // A subscription stays open for what comes next; this server sends nothing more.
        if (!subscription) call.end();
        else if (!call.cancelled) {
          call.write(Buffer.from(new ReadResp().setCaughtUp(new ReadResp.CaughtUp()).serializeBinary()));
        }
      },
      append(call: ServerReadableStream<Buffer, Buffer>, answer: sendUnaryData<Buffer>) {
        appendCalls++;
        const requests: InstanceType<typeof AppendReq>[] = [];
        call.on('data', (chunk: Buffer) => requests.push(AppendReq.deserializeBinary(chunk)));
        call.on('end', () => {
          const [header, ...proposed] = requests;
          const options = header!.getOptions()!;
          const streamName = Buffer.from(options.getStreamIdentifier()!.getStreamName_asU8()).toString();
          const refused = denial('append', streamName);
          if (refused) {
            answer(refused);
            return;
          }
          const outcome = commit(
            streamName,
            expectationOf(options),
            proposed.map((request) => request.getProposedMessage()!),
          );
          if ('wrong' in outcome) {
            const wrong = new AppendResp.WrongExpectedVersion();
            if (outcome.wrong.current < 0) wrong.setCurrentNoStream(new Empty());
            else wrong.setCurrentRevision(String(outcome.wrong.current));
            const { expected } = outcome.wrong;
            if (expected === 'exists') wrong.setExpectedStreamExists(new Empty());
            else if (expected === 'no_stream') wrong.setExpectedNoStream(new Empty());
            else wrong.setExpectedRevision(String(expected));
            answer(null, Buffer.from(new AppendResp().setWrongExpectedVersion(wrong).serializeBinary()));
            return;
          }
          const success = new AppendResp.Success().setCurrentRevision(String(outcome.revision));
          if (outcome.position === undefined) success.setNoPosition(new Empty());
          else {
            success.setPosition(
              new AppendResp.Position()
                .setCommitPosition(String(outcome.position))
                .setPreparePosition(String(outcome.position)),
            );
          }
          answer(null, Buffer.from(new AppendResp().setSuccess(success).serializeBinary()));
        });
      },
      batchAppend(call: ServerDuplexStream<Buffer, Buffer>) {
        // One request per append here (the client splits only appends over 3 MB), answered in turn.
        call.on('data', (chunk: Buffer) => {
          batchAppends++;
          const request = BatchAppendReq.deserializeBinary(chunk);
          const options = request.getOptions()!;
          const identifier = options.getStreamIdentifier()!;
          const streamName = Buffer.from(identifier.getStreamName_asU8()).toString();
          const response = new BatchAppendResp()
            .setCorrelationId(request.getCorrelationId())
            .setStreamIdentifier(identifier);
          const refuse = (code: number, details: InstanceType<typeof Any>, message: string) =>
            response.setError(new Status().setCode(code).setMessage(message).setDetails(details));
          const accessDenied = behaviour.accessDenied?.('append', streamName);
          if (accessDenied) deniedCalls++;
          const outcome =
            behaviour.badRequest?.(streamName) || accessDenied
              ? undefined
              : commit(streamName, expectationOf(options), request.getProposedMessagesList());
          if (accessDenied) {
            const details = new Any();
            details.pack(new AccessDenied().serializeBinary(), 'event_store.client.AccessDenied');
            refuse(status.PERMISSION_DENIED, details, 'Access denied');
          } else if (outcome === undefined) {
            const bad = new BadRequest().setMessage('Invalid request');
            const details = new Any();
            details.pack(bad.serializeBinary(), 'event_store.client.BadRequest');
            refuse(status.INVALID_ARGUMENT, details, 'Invalid request');
          } else if ('wrong' in outcome) {
            const wrong = new WrongExpectedVersion();
            if (outcome.wrong.current < 0) wrong.setCurrentNoStream(new Empty());
            else wrong.setCurrentStreamRevision(String(outcome.wrong.current));
            const { expected } = outcome.wrong;
            if (expected === 'exists') wrong.setExpectedStreamExists(new Empty());
            else if (expected === 'no_stream') wrong.setExpectedNoStream(new Empty());
            else wrong.setExpectedStreamPosition(String(expected));
            const details = new Any();
            details.pack(wrong.serializeBinary(), 'event_store.client.WrongExpectedVersion');
            refuse(status.FAILED_PRECONDITION, details, 'Wrong expected version');
          } else {
            const success = new BatchAppendResp.Success().setCurrentRevision(String(outcome.revision));
            if (outcome.position === undefined) success.setNoPosition(new Empty());
            else {
              success.setPosition(
                new AllStreamPosition()
                  .setCommitPosition(String(outcome.position))
                  .setPreparePosition(String(outcome.position)),
              );
            }
            response.setSuccess(success);
          }
          if (!behaviour.withholdBatchAnswer?.(streamName)) call.write(Buffer.from(response.serializeBinary()));
        });
        call.on('end', () => call.end());
      },
      features(_call: ServerUnaryCall<Buffer, Buffer>, answer: sendUnaryData<Buffer>) {
        featureCalls++;
        const features = (behaviour.features ?? (() => '25.1'))(featureCalls);
        if (features === 'hang') return;
        if (features === 'none') answer({ code: status.UNIMPLEMENTED, details: 'no server features' });
        else if (features === '25.1') {
          const methods = new SupportedMethods().setEventStoreServerVersion('25.1.0');
          methods.addMethods(
            new SupportedMethod().setServiceName('event_store.client.streams.Streams').setMethodName('BatchAppend'),
          );
          answer(null, Buffer.from(methods.serializeBinary()));
        } else answer({ ...features, details: 'features refused' });
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
    url: `esdb://127.0.0.1:${port}?tls=false`,
    /** Everything the server holds, truncated events included, oldest first. */
    log: () => [...log],
    reads: () => [...reads],
    /** The subscriptions asked for, by default served as 25.1 serves them (behaviour.subscribe aside). */
    subscriptions: () => [...subscriptions],
    /** The names of the streams read one by one (`$$<name>`: its metadata). */
    streamReads: () => [...streamReads],
    eventsSent: () => eventsSent,
    examined: () => examined,
    featureCalls: () => featureCalls,
    /** Reads of $all the server stopped sending because the client cancelled them or their deadline passed. */
    cancelledReads: () => cancelledReads,
    /** Appends made one call each (the Append RPC), and over the shared BatchAppend stream. */
    appendCalls: () => appendCalls,
    batchAppends: () => batchAppends,
    /** Calls refused by `accessDenied`. */
    deniedCalls: () => deniedCalls,
  };
}

/** A long log: page views everywhere, three signups among them; positions are byte offsets. */
export function longLog(length = 3_000, signups = [10, 1_500, 2_990]): LoggedEvent[] {
  const start = Date.parse('2026-01-01T00:00:00Z');
  return Array.from({ length }, (_, i) => {
    const signup = signups.includes(i);
    return {
      streamName: signup ? `waitlist-shirt.${i}` : `views-${i % 7}`,
      type: signup ? 'WaitlistJoined' : 'PageViewed',
      position: 1_000 + i * POSITION_STEP,
      recordedAt: new Date(start + i * 1_000),
    };
  });
}
