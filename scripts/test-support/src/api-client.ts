// Tests read answers field by field and assert on them, so an untyped body keeps them short.
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

/** The REST API at `baseUrl` as the web client calls it: JSON in, JSON parsed out when it is JSON. */
export function createApiClient(baseUrl: string): ApiClient {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const answer = await fetch(baseUrl + path, {
      method,
      headers,
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await answer.text();
    let body: unknown = text;
    if (answer.headers.get('content-type')?.includes('application/json')) body = JSON.parse(text);
    return { status: answer.status, headers: answer.headers, body };
  };
}
