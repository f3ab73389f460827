import { apiRequest, type CallAnswer, type CallArguments, type CallInput, type OperationId } from '@qrshirt/contracts';
import type { z } from 'zod';
import { env } from '@/config/env';

/**
 * A non-OK answer; `code` is the server's machine-readable reason where it gives one (auth),
 * `fields` each field's problem where a form was refused (the admin forms show them beside it).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** Spec section 8: the answer's error field, else its message field, else its text, else the status. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let error: unknown;
  let message: unknown;
  let code: unknown;
  let fields: unknown;
  try {
    ({ error, message, code, fields } = JSON.parse(text) as Record<string, unknown>);
  } catch {
    // Not JSON: the raw text is the message.
  }
  const readable =
    (typeof error === 'string' && error) ||
    (typeof message === 'string' && message) ||
    text.trim() ||
    `HTTP ${response.status} ${response.statusText}`.trim();
  return new ApiError(readable, response.status, typeof code === 'string' ? code : undefined, fieldProblems(fields));
}

/** `{ field: problem }` when the answer has it, each problem a text. */
function fieldProblems(fields: unknown): Record<string, string> | undefined {
  if (typeof fields !== 'object' || fields === null) return undefined;
  const entries = Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/**
 * The schema a call parses its answer with: the feature imports it (the route table itself would
 * build every schema of the API), and `tsc` holds it to the route: it must read the declared 2xx
 * answer, whole or a part of it (`View`, what the call answers). None for an answer without a JSON
 * body (204, a file, a stream).
 */
export type AnswerSchema<Id extends OperationId, View> = [CallAnswer<Id>] extends [undefined]
  ? { schema?: never }
  : {
      schema: z.ZodType<View> & ([CallAnswer<Id>] extends [View] ? unknown : { "reads the route's 2xx answer": true });
    };

/** What a call answers: what its schema read, nothing when the route answers no JSON. */
export type CallView<Id extends OperationId, View> = [CallAnswer<Id>] extends [undefined] ? undefined : View;

/** An operation's typed input (its path parameters, query, headers and body) and its answer's schema. */
export type OperationCall<Id extends OperationId, View> = CallInput<Id> & AnswerSchema<Id, View>;

export function apiUrl(path: string): string {
  return `${env.VITE_API_URL.replace(/\/$/, '')}${path}`;
}

/** The address of an operation with its parameters filled in: for a link, an image or a redirect. */
export function operationUrl<Id extends OperationId>(operationId: Id, ...input: CallArguments<CallInput<Id>>): string {
  return apiUrl(apiRequest(operationId, ...input).path);
}

/**
 * One HTTP exchange with the gateway without an access token: the auth endpoints, which set and
 * read the session's refresh cookie. `include` lets the cookie go to and come from VITE_API_URL
 * when it is another origin (same-origin requests carry it anyway).
 */
export async function callWithoutSession<Id extends OperationId, View = CallAnswer<Id>>(
  operationId: Id,
  ...[input]: CallArguments<OperationCall<Id, View>>
): Promise<CallView<Id, View>> {
  const { method, path, headers, body } = apiRequest(operationId, ...([input] as CallArguments<CallInput<Id>>));
  const response = await fetch(apiUrl(path), {
    method,
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw await errorFromResponse(response);
  return parseAnswer(response, (input as { schema?: z.ZodType<CallView<Id, View>> } | undefined)?.schema);
}

/** Every JSON answer is checked: a server that drifted from the contract fails here, loudly. */
export async function parseAnswer<T>(response: Response, schema: z.ZodType<T> | undefined): Promise<T> {
  if (response.status === 204 || !schema) return undefined as T;
  return schema.parse(await response.json());
}
