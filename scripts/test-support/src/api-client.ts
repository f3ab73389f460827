import { answerProblem, findRoute, PROOF_OF_WORK_HEADER } from '@qrshirt/contracts';
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
