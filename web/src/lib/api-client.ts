import { apiUrl, ApiError, errorFromResponse, type JsonRequest } from './http';
import { authReady, renewSession, sessionForRequest } from './auth/auth-lifecycle';
import { getAuthState, type ClientSession } from './auth/session-store';

export interface ApiRequest<T> extends JsonRequest<T> {
  /** Spec section 5: such a request fails without a user instead of going out unauthenticated. */
  requiresAuth?: boolean;
  /** Lets the request outlive the page (analytics sent while leaving). */
  keepalive?: boolean;
  /** Ends the request, or the reading of its answer, when aborted (a stream left open). */
  signal?: AbortSignal;
}

/** Spec section 7: who is asking, in the headers the gateway reads. */
export function authHeaders(session: ClientSession | null, anonymousFailed: boolean): Record<string, string> {
  if (session) {
    return {
      Authorization: `Bearer ${session.accessToken}`,
      'x-user-id': session.user.uid,
      ...(session.user.anonymous && { 'x-anonymous': 'true' }),
    };
  }
  if (anonymousFailed) return { 'x-anonymous-attempted': 'true', 'x-anonymous-failed': 'true' };
  return {};
}

async function send<T>(path: string, request: ApiRequest<T>, session: ClientSession | null): Promise<Response> {
  return fetch(apiUrl(path), {
    method: request.method ?? 'GET',
    headers: {
      'Content-Type': 'application/json',
      ...authHeaders(session, getAuthState().anonymousFailed),
      ...request.headers,
    },
    ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
    ...(request.keepalive && { keepalive: true }),
    ...(request.signal && { signal: request.signal }),
  });
}

/**
 * A 401 with an auth error code refused what the person typed (a wrong password confirming a
 * closure), not the session's token: renewing the session would not change the answer.
 */
async function refusesCredential(response: Response): Promise<boolean> {
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  return typeof body?.code === 'string';
}

/**
 * The one API client: waits (at most 1 s) for the session, sends the spec's headers, retries
 * once with a renewed session when a token is refused, applies the spec's error message rule
 * and checks every answer against its contract schema.
 */
export async function api<T>(path: string, request: ApiRequest<T> = {}): Promise<T> {
  const response = await apiResponse(path, request);
  if (response.status === 204 || !request.schema) return undefined as T;
  return request.schema.parse(await response.json());
}

/** As `api`, for answers that are not one JSON document (downloads, server-sent events): the OK response itself. */
export async function apiResponse(path: string, request: ApiRequest<unknown> = {}): Promise<Response> {
  await authReady();
  let session = await sessionForRequest();
  if (request.requiresAuth && !session) throw new ApiError('Authentication required for this request', 401);
  let response = await send(path, request, session);
  if (response.status === 401 && session && !(await refusesCredential(response))) {
    session = await renewSession();
    response = await send(path, request, session);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}
