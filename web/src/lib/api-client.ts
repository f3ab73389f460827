import {
  type ApiRequest,
  apiRequest,
  type CallAnswer,
  type CallArguments,
  type CallInput,
  type OperationId,
  routeAddresses,
} from '@qrshirt/contracts';
import type { z } from 'zod';
import { apiUrl, ApiError, type CallView, errorFromResponse, type OperationCall, parseAnswer } from './http';
import { authReady, renewSession, sessionForRequest } from './auth/auth-lifecycle';
import { getAuthState, type ClientSession } from './auth/session-store';

/** How the web sends a request, besides what the route table says of it. */
interface SendOptions {
  /** Lets the request outlive the page (analytics sent while leaving). */
  keepalive?: boolean;
  /** Ends the request, or the reading of its answer, when aborted (a stream left open). */
  signal?: AbortSignal;
  /** The media type asked for, when it is not JSON (a stream of server-sent events). */
  accept?: string;
}

/** Spec section 7: who is asking, in the headers the gateway reads. */
function authHeaders(session: ClientSession | null, anonymousFailed: boolean): Record<string, string> {
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

async function send(request: ApiRequest, options: SendOptions, session: ClientSession | null): Promise<Response> {
  return fetch(apiUrl(request.path), {
    method: request.method,
    headers: {
      'Content-Type': 'application/json',
      ...(options.accept && { Accept: options.accept }),
      ...authHeaders(session, getAuthState().anonymousFailed),
      ...request.headers,
    },
    ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
    ...(options.keepalive && { keepalive: true }),
    ...(options.signal && { signal: options.signal }),
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
 * The one API client: calls an operation of the route table by its id, with its input typed by
 * the route's schemas. Waits (at most 1 s) for the session, sends the spec's headers, retries once
 * with a renewed session when a token is refused, applies the spec's error message rule and
 * checks every answer against its contract schema.
 */
export async function call<Id extends OperationId, View = CallAnswer<Id>>(
  operationId: Id,
  ...[input]: CallArguments<OperationCall<Id, View> & SendOptions>
): Promise<CallView<Id, View>> {
  const response = await callResponse(operationId, ...([input] as CallArguments<CallInput<Id> & SendOptions>));
  return parseAnswer(response, (input as { schema?: z.ZodType<CallView<Id, View>> } | undefined)?.schema);
}

/** As `call`, for answers that are not one JSON document (downloads, server-sent events): the OK response itself. */
export async function callResponse<Id extends OperationId>(
  operationId: Id,
  ...[input]: CallArguments<CallInput<Id> & SendOptions>
): Promise<Response> {
  const request = apiRequest(operationId, ...([input] as CallArguments<CallInput<Id>>));
  const options: SendOptions = input ?? {};
  await authReady();
  let session = await sessionForRequest();
  // Spec section 5: a route that needs a session fails without one instead of going out unauthenticated.
  if (routeAddresses[operationId].auth !== 'none' && !session)
    throw new ApiError('Authentication required for this request', 401);
  let response = await send(request, options, session);
  if (response.status === 401 && session && !(await refusesCredential(response))) {
    session = await renewSession();
    response = await send(request, options, session);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}
