import { createRequire } from 'node:module';
import { EsdbDeadlineError } from './esdb-errors';
import type { CallOptions, Metadata } from '@grpc/grpc-js';
import type {
  AllStreamResolvedEvent,
  Filter,
  KurrentDBClient,
  ReadAllOptions,
  ReadPosition,
  ReadRevision,
  ReadStreamOptions,
  ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import type { ServerFeatures as ServerFeaturesType } from '@kurrent/kurrentdb-client/dist/Client/ServerFeatures.js';
import type * as StreamsPb from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb.js';
import type * as StreamsGrpc from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_grpc_pb.js';
import type * as SharedPb from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb.js';
import type * as FeaturesGrpc from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/serverfeatures_grpc_pb.js';

// The client's generated protobuf classes and the helpers it builds its own gRPC calls with:
// CommonJS, already loaded by the client itself, whose exports Node cannot name for an import.
const load = createRequire(import.meta.url);
const generated = '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1';
interface Modules {
  ReadReq: typeof StreamsPb.ReadReq;
  StreamsClient: typeof StreamsGrpc.StreamsClient;
  Empty: typeof SharedPb.Empty;
  StreamIdentifier: typeof SharedPb.StreamIdentifier;
  ServerFeaturesClient: typeof FeaturesGrpc.ServerFeaturesClient;
  ServerFeatures: typeof ServerFeaturesType;
  convertGrpcEvent(this: void, event: StreamsPb.ReadResp.ReadEvent): ResolvedEvent;
  convertToCommandError(this: void, error: unknown): Error;
  StreamNotFoundError: new (error: undefined, streamName: string) => Error;
}
let modules: Modules | undefined;
function loaded(): Modules {
  modules ??= {
    ...(load(`${generated}/streams_pb`) as Pick<Modules, 'ReadReq'>),
    ...(load(`${generated}/streams_grpc_pb`) as Pick<Modules, 'StreamsClient'>),
    ...(load(`${generated}/shared_pb`) as Pick<Modules, 'Empty' | 'StreamIdentifier'>),
    ...(load(`${generated}/serverfeatures_grpc_pb`) as Pick<Modules, 'ServerFeaturesClient'>),
    ...(load('@kurrent/kurrentdb-client/dist/Client/ServerFeatures') as Pick<Modules, 'ServerFeatures'>),
    ...(load('@kurrent/kurrentdb-client/dist/utils/convertGrpcEvent') as Pick<Modules, 'convertGrpcEvent'>),
    ...(load('@kurrent/kurrentdb-client/dist/utils/CommandError') as Pick<
      Modules,
      'convertToCommandError' | 'StreamNotFoundError'
    >),
  };
  return modules;
}

type GrpcClientClass<G> = new (...args: never[]) => G;

/** The client's own protected plumbing, which its methods build every gRPC call with. */
interface ClientInternals {
  GRPCStreamCreator<G, T>(Client: GrpcClientClass<G>, debugName: string, creator: (client: G) => T): () => Promise<T>;
  execute<G, T>(Client: GrpcClientClass<G>, debugName: string, action: (client: G) => Promise<T>): Promise<T>;
  callArguments(options: { requiresLeader?: boolean; deadline?: number }): [Metadata, CallOptions];
  getChannel(): Promise<{ close(): void }>;
}

const internals = (client: KurrentDBClient): ClientInternals => client as unknown as ClientInternals;

/**
 * The client with its reads and its server-features check made over its gRPC channel, each bounded.
 * 1.3.1 reads through its native bridge (`@kurrent/bridge` 0.2.2), whose reads take no deadline
 * and cannot be cancelled (its iterator has no `return()`), and whose own features check, once it
 * hung, left every later read hanging until the process ended; the client keeps a failed or hung
 * features check until it reconnects. Here a read carries its deadline to the server and is
 * cancelled there when abandoned (by its iterator's `return()`, or `dispose()`), and a features
 * check that fails or outlasts half the deadline is forgotten, so the next call checks again.
 */
export function boundCalls(client: KurrentDBClient, deadlineMs: number): KurrentDBClient {
  const grpc = internals(client);
  const m = loaded();
  // Half the call's deadline: an append that met a hung check has the other half to check again.
  const checkMs = Math.max(1, Math.floor(deadlineMs / 2));
  let features: Promise<ServerFeaturesType> | undefined;
  const check = (): Promise<ServerFeaturesType> =>
    grpc.execute(m.ServerFeaturesClient, 'getSupportedMethods', (features) => {
      const [metadata, options] = grpc.callArguments({ deadline: checkMs });
      return new Promise((resolve, reject) =>
        features.getSupportedMethods(new m.Empty(), metadata, options, (error, methods) => {
          // A server without the service (UNIMPLEMENTED) answers "no features", as the client takes it.
          const code: number | undefined = error?.code;
          if (code === undefined || code === UNIMPLEMENTED) resolve(new m.ServerFeatures(error, methods));
          else if (code === DEADLINE_EXCEEDED) {
            reject(new EsdbDeadlineError(`EventStoreDB did not answer its server-features check within ${checkMs} ms`));
          } else reject(m.convertToCommandError(error));
        }),
      );
    });
  Object.defineProperty(client, 'capabilities', {
    get() {
      features ??= check().catch((error: unknown) => {
        features = undefined;
        throw error;
      });
      return features;
    },
  });
  const withDeadline = <T extends { deadline?: number }>(options: T): T => ({ deadline: deadlineMs, ...options });
  Object.assign(client, {
    readStream: (streamName: string, options: ReadStreamOptions = {}) =>
      read(grpc, streamRequest(m, streamName, options), withDeadline(options)),
    readAll: (options: ReadAllOptions = {}) =>
      read(grpc, allRequest(m, options), withDeadline(options)) as AsyncIterable<AllStreamResolvedEvent>,
  });
  return client;
}

/**
 * The client's append on an Append call of its own. Its `appendToStream` takes the BatchAppend
 * stream every append of the client shares whenever the server has it, and fails them all when
 * one message on it is too large.
 */
export function appendAlone(client: KurrentDBClient): KurrentDBClient['appendToStream'] {
  const { append } = load('@kurrent/kurrentdb-client/dist/streams/appendToStream/append') as {
    append: (
      this: KurrentDBClient,
      ...args: Parameters<KurrentDBClient['appendToStream']>
    ) => ReturnType<KurrentDBClient['appendToStream']>;
  };
  return (streamName, events, options) => append.call(client, streamName, events, options);
}

/** `dispose()` cancels the client's calls but leaves its channel, and so its connection, open. */
export async function closeClient(client: KurrentDBClient): Promise<void> {
  await client.dispose();
  (await internals(client).getChannel()).close();
}

const DEADLINE_EXCEEDED = 4;
const UNIMPLEMENTED = 12;

async function* read(
  grpc: ClientInternals,
  request: StreamsPb.ReadReq,
  options: { requiresLeader?: boolean; deadline?: number },
): AsyncGenerator<ResolvedEvent> {
  const m = loaded();
  const call = await grpc.GRPCStreamCreator(m.StreamsClient, 'read', (streams) =>
    streams.read(request, ...grpc.callArguments(options)),
  )();
  let ended = false;
  try {
    for await (const chunk of call) {
      const response = chunk as StreamsPb.ReadResp;
      if (response.hasStreamNotFound()) {
        const name = Buffer.from(response.getStreamNotFound()!.getStreamIdentifier()!.getStreamName_asU8());
        throw new m.StreamNotFoundError(undefined, name.toString());
      }
      if (response.hasEvent()) yield m.convertGrpcEvent(response.getEvent()!);
    }
    ended = true;
  } catch (error) {
    throw m.convertToCommandError(error);
  } finally {
    // A read stopped early, by its reader or by an error, ends on the server too.
    if (!ended) call.cancel();
  }
}

function baseRequest(
  m: Modules,
  options: { maxCount?: number | bigint; direction?: 'forwards' | 'backwards'; resolveLinkTos?: boolean },
) {
  const readOptions = new m.ReadReq.Options();
  readOptions.setUuidOption(new m.ReadReq.Options.UUIDOption().setString(new m.Empty()));
  readOptions.setResolveLinks(options.resolveLinkTos ?? false);
  readOptions.setCount(String(options.maxCount ?? Number.MAX_SAFE_INTEGER));
  readOptions.setReadDirection(
    options.direction === 'backwards'
      ? m.ReadReq.Options.ReadDirection.BACKWARDS
      : m.ReadReq.Options.ReadDirection.FORWARDS,
  );
  return readOptions;
}

function streamRequest(m: Modules, streamName: string, options: ReadStreamOptions): StreamsPb.ReadReq {
  const readOptions = baseRequest(m, options).setNoFilter(new m.Empty());
  const stream = new m.ReadReq.Options.StreamOptions().setStreamIdentifier(
    new m.StreamIdentifier().setStreamName(Buffer.from(streamName)),
  );
  const from: ReadRevision = options.fromRevision ?? 'start';
  if (from === 'start') stream.setStart(new m.Empty());
  else if (from === 'end') stream.setEnd(new m.Empty());
  else stream.setRevision(from.toString(10));
  return new m.ReadReq().setOptions(readOptions.setStream(stream));
}

function allRequest(m: Modules, options: ReadAllOptions & { filter?: Filter }): StreamsPb.ReadReq {
  const readOptions = baseRequest(m, options);
  const all = new m.ReadReq.Options.AllOptions();
  const from: ReadPosition = options.fromPosition ?? 'start';
  if (from === 'start') all.setStart(new m.Empty());
  else if (from === 'end') all.setEnd(new m.Empty());
  else {
    all.setPosition(
      new m.ReadReq.Options.Position()
        .setCommitPosition(from.commit.toString(10))
        .setPreparePosition(from.prepare.toString(10)),
    );
  }
  readOptions.setAll(all);
  const filter = options.filter;
  if (!filter) return new m.ReadReq().setOptions(readOptions.setNoFilter(new m.Empty()));
  const expression = new m.ReadReq.Options.FilterOptions.Expression();
  if ('prefixes' in filter) expression.setPrefixList(filter.prefixes);
  else expression.setRegex(filter.regex);
  const filterOptions = new m.ReadReq.Options.FilterOptions().setCheckpointintervalmultiplier(
    filter.checkpointInterval,
  );
  if (filter.filterOn === 'eventType') filterOptions.setEventType(expression);
  else filterOptions.setStreamIdentifier(expression);
  if (filter.maxSearchWindow === undefined) filterOptions.setCount(new m.Empty());
  else filterOptions.setMax(filter.maxSearchWindow);
  return new m.ReadReq().setOptions(readOptions.setFilter(filterOptions));
}
