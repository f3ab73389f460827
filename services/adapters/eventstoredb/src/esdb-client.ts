import { createRequire } from 'node:module';
import type { AllStreamResolvedEvent, EventStoreDBClient, Filter, ReadPosition } from '@eventstore/db-client';
import type { Channel, Client as GrpcClient } from '@grpc/grpc-js';

type EsdbModule = typeof import('@eventstore/db-client');

/**
 * What this file takes from @eventstore/db-client 6.2.1 beyond its public API, all of it
 * TypeScript-private or protected there. The version is pinned exactly in package.json, and the
 * adapter's tests drive each of these against a local gRPC server, so a client that changes them
 * fails there.
 */
interface ClientInternals {
  createChannel: () => Promise<Channel>;
  execute: <T>(
    grpcClient: new (...args: never[]) => GrpcClient,
    debugName: string,
    action: (grpcClient: never) => Promise<T>,
  ) => Promise<T>;
  GRPCStreamCreator: <T>(
    grpcClient: new (...args: never[]) => GrpcClient,
    debugName: string,
    creator: (grpcClient: StreamsGrpcClient) => T,
  ) => () => Promise<T>;
  callArguments: (options: object, callOptions: { deadline: number }) => unknown[];
}

interface StreamsGrpcClient {
  read(request: unknown, ...callArguments: unknown[]): unknown;
}

export interface FilteredReadOptions {
  fromPosition: ReadPosition;
  direction: 'forwards' | 'backwards';
  maxCount: number;
  filter: Filter;
}

export interface EsdbClient {
  client: EventStoreDBClient;
  /**
   * $all read with the filter applied by the server, as client 6's `readAll` cannot ask (the
   * server supports it; client 6 sends "no filter"): a narrow filter returns at most `maxCount`
   * events from one request however long the log is.
   */
  readAllFiltered(this: void, options: FilteredReadOptions): AsyncIterable<AllStreamResolvedEvent>;
  /** Ends every stream and closes the gRPC channel, which the client's `dispose()` leaves open. */
  close(this: void): Promise<void>;
}

const load = createRequire(import.meta.url);

export function openEsdbClient(esdb: EsdbModule, connectionString: string): EsdbClient {
  const { ReadReq } = load(
    '@eventstore/db-client/generated/streams_pb',
  ) as typeof import('@eventstore/db-client/generated/streams_pb.js');
  const { StreamsClient } = load(
    '@eventstore/db-client/generated/streams_grpc_pb',
  ) as typeof import('@eventstore/db-client/generated/streams_grpc_pb.js');
  const { Empty } = load(
    '@eventstore/db-client/generated/shared_pb',
  ) as typeof import('@eventstore/db-client/generated/shared_pb.js');
  const { ReadStream } = load(
    '@eventstore/db-client/dist/streams/utils/ReadStream',
  ) as typeof import('@eventstore/db-client/dist/streams/utils/ReadStream.js');
  const { convertGrpcEvent } = load(
    '@eventstore/db-client/dist/utils',
  ) as typeof import('@eventstore/db-client/dist/utils/index.js');
  const { ServerFeatures } = load(
    '@eventstore/db-client/dist/Client/ServerFeatures',
  ) as typeof import('@eventstore/db-client/dist/Client/ServerFeatures.js');

  const client = esdb.EventStoreDBClient.connectionString(connectionString);
  const internals = client as unknown as ClientInternals;

  // The client makes a new channel after a connection error and closes the failed one itself:
  // only the newest can still be open.
  let channel: Channel | undefined;
  let features: Promise<unknown> | undefined;
  const createChannel = internals.createChannel;
  internals.createChannel = async () => {
    const created = await createChannel();
    // A reconnection, maybe to another node and version: ask again, as the client does.
    if (channel !== undefined) features = undefined;
    channel = created;
    return created;
  };

  // The client caches its first capabilities check, failure included (it forgets it only after
  // an "unavailable" error), and every append awaits it: a deadline or discovery failure at
  // start-up would fail all appends until the process restarts. This cache forgets failures.
  Object.defineProperty(client, 'capabilities', {
    configurable: true,
    get() {
      if (features) return features;
      const fetching = internals.execute(
        ...(ServerFeatures.createServerFeatures as Parameters<ClientInternals['execute']>),
      );
      features = fetching;
      fetching.catch(() => {
        if (features === fetching) features = undefined;
      });
      return fetching;
    },
  });

  function readAllFiltered({ fromPosition, direction, maxCount, filter }: FilteredReadOptions) {
    const options = new ReadReq.Options();
    const all = new ReadReq.Options.AllOptions();
    if (fromPosition === esdb.START) all.setStart(new Empty());
    else if (fromPosition === esdb.END) all.setEnd(new Empty());
    else {
      const position = new ReadReq.Options.Position();
      position.setCommitPosition(fromPosition.commit.toString(10));
      position.setPreparePosition(fromPosition.prepare.toString(10));
      all.setPosition(position);
    }
    options.setAll(all);
    options.setResolveLinks(false);
    options.setCount(String(maxCount));
    const uuid = new ReadReq.Options.UUIDOption();
    uuid.setString(new Empty());
    options.setUuidOption(uuid);
    options.setReadDirection(
      direction === 'forwards' ? ReadReq.Options.ReadDirection.FORWARDS : ReadReq.Options.ReadDirection.BACKWARDS,
    );

    const expression = new ReadReq.Options.FilterOptions.Expression();
    if ('prefixes' in filter) expression.setPrefixList(filter.prefixes);
    else expression.setRegex(filter.regex);
    const filterOptions = new ReadReq.Options.FilterOptions();
    if (filter.filterOn === esdb.STREAM_NAME) filterOptions.setStreamIdentifier(expression);
    else filterOptions.setEventType(expression);
    if (filter.maxSearchWindow === undefined) filterOptions.setCount(new Empty());
    else filterOptions.setMax(filter.maxSearchWindow);
    filterOptions.setCheckpointintervalmultiplier(filter.checkpointInterval);
    options.setFilter(filterOptions);

    const request = new ReadReq();
    request.setOptions(options);
    const stream = internals.GRPCStreamCreator(StreamsClient, 'readAllFiltered', (grpcClient) =>
      grpcClient.read(request, ...internals.callArguments({}, { deadline: Infinity })),
    );
    return new ReadStream(stream as never, convertGrpcEvent, {}) as unknown as AsyncIterable<AllStreamResolvedEvent>;
  }

  return {
    client,
    readAllFiltered,
    async close() {
      await client.dispose();
      channel?.close();
    },
  };
}
