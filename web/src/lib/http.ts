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

export interface JsonRequest<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  /** Every answer is checked: a server that drifted from the contract fails here, loudly. */
  schema?: z.ZodType<T>;
}

export function apiUrl(path: string): string {
  return `${env.VITE_API_URL.replace(/\/$/, '')}${path}`;
}

/**
 * One HTTP exchange with the gateway without an access token: the auth endpoints, which set and
 * read the session's refresh cookie. `include` lets the cookie go to and come from VITE_API_URL
 * when it is another origin (same-origin requests carry it anyway).
 */
export async function requestJson<T>(path: string, request: JsonRequest<T> = {}): Promise<T> {
  const response = await fetch(apiUrl(path), {
    method: request.method ?? 'GET',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', ...request.headers },
    ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
  });
  if (!response.ok) throw await errorFromResponse(response);
  if (response.status === 204 || !request.schema) return undefined as T;
  return request.schema.parse(await response.json());
}
