import {
  answerProblem,
  apiRequest,
  type CallAnswer,
  type CallArguments,
  type CallInput,
  findRoute,
  type OperationId,
  PROOF_OF_WORK_HEADER,
} from '@qrshirt/contracts';
import { solveProofOfWork } from './proof-of-work';

// Tests read answers field by field and assert on them, so an untyped body keeps them short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is, for malformed-JSON tests. */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export type ApiClient = (method: string, path: string, options?: RequestOptions) => Promise<ApiAnswer>;

/**
 * The REST API at `baseUrl` as the web client calls it: JSON in, JSON parsed out when it is JSON.
 * A route the table marks `challenge: true` gets a freshly solved proof of work in X-Altcha, as
 * the web client's widget sends it, unless the caller sends an X-Altcha of its own (to see a bad
 * one refused). Every answer is checked against the route table: a status its route does not
 * declare, or a body its schema refuses, fails the test (or benchmark) that got it.
 */
export function createApiClient(baseUrl: string): ApiClient {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const route = findRoute(method, path);
    const ownProof = Object.keys(headers).some((name) => name.toLowerCase() === PROOF_OF_WORK_HEADER);
    if (route?.challenge && !ownProof) headers[PROOF_OF_WORK_HEADER] = await solveProofOfWork(baseUrl);
    if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const answer = await fetch(baseUrl + path, {
      method,
      headers,
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await answer.text();
    let body: unknown = text;
    const contentType = answer.headers.get('content-type');
    if (contentType?.includes('application/json')) body = JSON.parse(text);
    const problem = route && answerProblem(route, { status: answer.status, contentType, body });
    if (problem) throw new Error(problem);
    return { status: answer.status, headers: answer.headers, body };
  };
}

/**
 * An operation's input as the route's schemas type it (path parameters, query, body), with the
 * session's `token` and any headers (`as(session)`, `newClient()`, a route's own): the proof of
 * work of a challenge route may be left out, the client solves one.
 */
export type OperationInput<Id extends OperationId> = Omit<CallInput<Id>, 'headers'> &
  Pick<RequestOptions, 'token' | 'headers'>;

/**
 * The operation `operationId` through `api`, by its id instead of its path, so a path, parameter
 * or body field renamed in contracts fails tsc where a test calls it: `callOperation(api, 'donate',
 * { params: { id }, body: { amount: 5 } })`. `api` checks the answer against the route table as
 * ever; its body is typed as the route's 2xx answer, which a refusal's `{ error }` is not.
 */
export async function callOperation<Id extends OperationId>(
  api: ApiClient,
  operationId: Id,
  ...[input]: CallArguments<OperationInput<Id>>
): Promise<ApiAnswer<CallAnswer<Id>>> {
  const { token, headers, ...typed } = (input ?? {}) as OperationInput<Id>;
  const { method, path, body } = apiRequest(operationId, ...([typed] as CallArguments<CallInput<Id>>));
  const answer = await api(method, path, { body, ...(token && { token }), ...(headers && { headers }) });
  // `api` has held the body to the route's schema for its status.
  return answer as ApiAnswer<CallAnswer<Id>>;
}
