import type { z } from 'zod';
import type { PROOF_OF_WORK_HEADER } from './rest/proof-of-work';
import type { HttpMethod } from './route';
import { routeAddresses } from './route-addresses';
import type { ApiRoutes, OperationId } from './routes';

type Route<Id extends OperationId> = ApiRoutes[Id];

/** What the route's schema under `key` accepts, or never when the route declares none. */
type InputOf<R, Key extends string> = R extends { [K in Key]: infer Schema extends z.ZodType }
  ? z.input<Schema>
  : never;

/** A challenge route's proof of work travels in a header of its own (see `challenge`). */
type ProofOfWorkHeader<R> = R extends { challenge: true } ? { [K in typeof PROOF_OF_WORK_HEADER]: string } : unknown;

/** The declared request headers, by their lower-case names, and the proof of work where one is asked. */
type HeadersOf<R> = ([InputOf<R, 'headers'>] extends [never] ? unknown : InputOf<R, 'headers'>) & ProofOfWorkHeader<R>;

/** A part of the request: absent when the route declares none, optional when all of it is. */
type Part<Key extends string, T> = [T] extends [never]
  ? { [K in Key]?: never }
  : object extends T
    ? { [K in Key]?: T }
    : { [K in Key]: T };

/**
 * What a call of the operation sends, each part typed by the route's schemas as they accept it
 * (their input: a default may be left out): the path's `params`, the `query`, the `headers` it
 * reads besides the session's, and the JSON `body`.
 */
export type CallInput<Id extends OperationId> = Part<'params', InputOf<Route<Id>, 'params'>> &
  Part<'query', InputOf<Route<Id>, 'query'>> &
  Part<'headers', keyof HeadersOf<Route<Id>> extends never ? never : HeadersOf<Route<Id>>> &
  Part<'body', InputOf<Route<Id>, 'body'>>;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206;
type Answers<Id extends OperationId> = Route<Id>['answers'];

/**
 * What a successful call answers, as its declared 2xx schemas give it (their output). Undefined
 * for an answer without a JSON body: 204, or a file, a stream or an image (read the response).
 */
export type CallAnswer<Id extends OperationId> = {
  [Status in keyof Answers<Id>]: Status extends SuccessStatus
    ? Answers<Id>[Status] extends { schema: infer Schema extends z.ZodType }
      ? z.output<Schema>
      : undefined
    : never;
}[keyof Answers<Id>];

/** The arguments after the operation id: the input, which may be left out when nothing of it is required. */
export type CallArguments<Input> = object extends Input ? [input?: Input] : [input: Input];

/** One HTTP request of an operation, ready for any client to send with the base URL it knows. */
export interface ApiRequest {
  method: Uppercase<HttpMethod>;
  /** The path with its parameters filled in (encoded) and its query string, if any. */
  path: string;
  headers: Record<string, string>;
  /** The JSON body, not yet serialised; absent when there is none. */
  body?: unknown;
}

/** What a path, query or header parameter holds once its schema accepts it: a text, a number or a flag. */
type Scalar = string | number | boolean | null | undefined;

/** Every `{name}` of the path replaced by its parameter, encoded as one path segment. */
export function fillPath(path: string, params: Readonly<Record<string, Scalar>> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${path} needs its parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** `?name=value&...` of the parameters given, in their order; empty when none is. */
export function queryString(query: Readonly<Record<string, Scalar>> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

interface LooseInput {
  params?: Readonly<Record<string, Scalar>>;
  query?: Readonly<Record<string, Scalar>>;
  headers?: Readonly<Record<string, Scalar>>;
  body?: unknown;
}

/**
 * The request of `operationId` as the route table declares it, from its typed input: what the web
 * client and the tests' client send. A renamed operation, parameter, query parameter or body
 * field fails `tsc` where it is called.
 */
export function apiRequest<Id extends OperationId>(
  operationId: Id,
  ...[input]: CallArguments<CallInput<Id>>
): ApiRequest {
  const { method, path } = routeAddresses[operationId];
  const { params, query, headers = {}, body } = (input ?? {}) as LooseInput;
  return {
    method: method.toUpperCase() as Uppercase<HttpMethod>,
    path: `${fillPath(path, params)}${queryString(query)}`,
    headers: Object.fromEntries(
      Object.entries(headers)
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([name, value]) => [name, String(value)]),
    ),
    ...(body !== undefined && { body }),
  };
}
