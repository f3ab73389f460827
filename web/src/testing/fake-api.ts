import { vi } from 'vitest';

interface RecordedRequest {
  method: string;
  path: string;
  /** The query string, with its `?` (empty without one). */
  search: string;
  headers: Record<string, string>;
  /** Whether cookies go along: what fetch does with the session's refresh cookie. */
  credentials: RequestCredentials | undefined;
  body: unknown;
}

export type FakeAnswer =
  { status?: number; json?: unknown; text?: string } | Promise<{ status?: number; json?: unknown; text?: string }>;
type Handler = (request: RecordedRequest) => FakeAnswer;

/**
 * Replaces fetch with a small in-memory gateway: each `'METHOD /path'` answers as told, anything
 * else is a 404 in the gateway's error shape. Every request is recorded for assertions.
 */
export function fakeApi(routes: Record<string, Handler | FakeAnswer>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(requestUrl(input), 'http://localhost');
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      search: url.search,
      headers,
      credentials: init.credentials,
      body,
    };
    requests.push(request);
    const route = routes[`${request.method} ${request.path}`];
    const answer = await (typeof route === 'function'
      ? route(request)
      : (route ?? { status: 404, json: { error: 'No such endpoint' } }));
    const status = answer.status ?? 200;
    const text = answer.text ?? (answer.json === undefined ? '' : JSON.stringify(answer.json));
    return new Response(status === 204 ? null : text, {
      status,
      headers: answer.json === undefined ? {} : { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    to: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.path === path),
  };
}

/** The address fetch was called with, whichever of its three forms it came in. */
export function requestUrl(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input;
  return 'url' in input ? input.url : input.href;
}

/** A promise the test settles when it wants, to observe in-between states ('Joining Waitlist...'). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}
