import type { z } from 'zod';
import { errorAnswer } from './rest/errors';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * 'none': no token needed (one given is still checked); 'any': any token, anonymous ones too
 * (whose resource it is, the owner's or the user's own, the use case decides, with its own
 * message); 'user': a signed-in account, not anonymous; 'admin': an account that is an admin
 * (ADMIN_EMAILS).
 */
export type RouteAuth = 'none' | 'any' | 'user' | 'admin';

export interface RouteAnswer {
  description: string;
  /** The JSON body; absent for answers without one, or whose `contentType` is not JSON. */
  schema?: z.ZodType;
  /** For answers that are not JSON (CSV, server-sent events, images). */
  contentType?: string;
  /** Response headers the answer sets that a client relies on, by name, each with what it holds. */
  headers?: Record<string, string>;
}

/** How many requests one client may make of a route in a window of `seconds`. */
export interface ClientAllowance {
  requests: number;
  seconds: number;
}

/**
 * One REST operation: the gateway registers it (guard, parsing), the OpenAPI document describes
 * it, and the tests check every answer against it. Nothing under /api is served otherwise.
 */
export interface RouteDefinition {
  method: HttpMethod;
  /** OpenAPI style: `/api/fundraisers/{id}`. */
  path: string;
  summary: string;
  auth: RouteAuth;
  /**
   * false: the Authorization header is never read, not even to refuse a bad token (scans: the
   * busiest route, and an expired token must never cost a scan).
   */
  readsToken?: false;
  params?: z.ZodObject;
  /** Query parameters. */
  query?: z.ZodObject;
  /** A JSON body; only routes that declare one parse one. */
  body?: z.ZodType;
  /**
   * true: the body is handed to the handler as the bytes received (`rawBody`), unparsed, and
   * `body` only describes it (OpenAPI). For bodies a signature covers (the donation processor's
   * webhook): the handler checks the signature over the exact bytes first, then parses them.
   */
  rawBody?: true;
  /** Request headers read besides Authorization, named in lower case (as Node reads them). */
  headers?: z.ZodObject;
  /**
   * Cookies read. A browser sends them by itself, whichever page makes it ask, so such a route
   * also refuses a request another site made (403): see the gateway's same-origin check.
   */
  cookies?: z.ZodObject;
  /**
   * true: the request carries a solved proof-of-work challenge (GET /api/challenge) in the
   * X-Altcha header, used once, or is refused with 400 before its handler runs. For the anonymous
   * forms that write something or make us send mail: a script must pay for each request.
   */
  challenge?: true;
  /**
   * For what anyone may send without an account: at most this many requests per client (an IPv4
   * address, an IPv6 /64) per window, counted before the body is read; more are answered 429 with
   * Retry-After, and nothing of them is stored.
   */
  perClient?: ClientAllowance;
  /**
   * The largest body it reads, in bytes, below the gateway's MAX_BODY_BYTES: what one request
   * can add to the log. A larger one is answered 413. On a `rawBody` route it is the limit
   * whatever MAX_BODY_BYTES says: a processor's deliveries are as large as the processor makes
   * them, and one refused is sent again for days.
   */
  maxBodyBytes?: number;
  answers: Record<number, RouteAnswer>;
}

/** Keeps each route's literal types (its schemas, statuses) for the handlers' signatures. */
export function defineRoutes<const Routes extends Record<string, RouteDefinition>>(routes: Routes): Routes {
  return routes;
}

export const invalidInput: RouteAnswer = { description: 'Invalid input', schema: errorAnswer };
export const unauthenticated: RouteAnswer = { description: 'No token, or a bad or expired one', schema: errorAnswer };
export const notFound: RouteAnswer = { description: 'Unknown id', schema: errorAnswer };

/**
 * Node's HTTP server refuses a request whose address and headers come to more than its 16 KB
 * (`maxHeaderSize`) before any route sees it: 431, with no body. Schemathesis once sent the admin
 * events' filters that long (CI, stop 26).
 */
const requestTooLarge: RouteAnswer = {
  description: 'The address and headers are over 16 KB: refused by the HTTP server itself, with no body',
};

/**
 * The Retry-After of every 503 for a full disk: long enough that clients do not hammer a server
 * that cannot store anything, short enough that they are back soon after space is freed.
 */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 5;

/** The `code` of every 503 for a full disk, which tells it from a dependency that is down. */
export const STORAGE_FULL_CODE = 'storage-full';

const STORAGE_FULL = `the server's storage is full, said by \`"code": "${STORAGE_FULL_CODE}"\` (nothing acknowledged is lost; retry once space is freed)`;
const retryAfter = {
  'Retry-After': `Seconds to wait before trying again (${STORAGE_FULL_RETRY_AFTER_SECONDS} when the storage is full)`,
};
const storageFull: RouteAnswer = {
  description: `${STORAGE_FULL[0]!.toUpperCase()}${STORAGE_FULL.slice(1)}`,
  schema: errorAnswer,
  headers: retryAfter,
};

const MISSING_PROOF_OF_WORK = 'a missing, forged, expired or already used proof of work (X-Altcha)';

/** `600 a minute`, `20 an hour`, `5 every 10 seconds`. */
export function allowanceText({ requests, seconds }: ClientAllowance): string {
  if (seconds === 60) return `${requests} a minute`;
  if (seconds === 3600) return `${requests} an hour`;
  return `${requests} every ${seconds} seconds`;
}

/**
 * The answers every route of its kind can give whether or not it names them: a bad token (401),
 * input that fails its schema or malformed JSON (400), a body too large (413) or in an encoding
 * not supported (415), a session that may not do this (403), an address or headers too long for
 * the HTTP server (431) when it takes parameters that can make them so, too many requests from
 * one client (429) when it limits them, a full disk (503) when it writes. A route that asks for a
 * proof of work refuses one that does not do (400, said in its own 400's description).
 */
export function withCommonAnswers(route: RouteDefinition): RouteDefinition {
  const common: Record<number, RouteAnswer> = {};
  if (route.params || route.query || route.body) common[400] = invalidInput;
  if (route.challenge) {
    const own = route.answers[400] ?? common[400];
    common[400] = own
      ? { ...own, description: `${own.description}; or ${MISSING_PROOF_OF_WORK}` }
      : {
          description: `${MISSING_PROOF_OF_WORK[0]!.toUpperCase()}${MISSING_PROOF_OF_WORK.slice(1)}`,
          schema: errorAnswer,
        };
  }
  if (route.readsToken !== false) common[401] = unauthenticated;
  if (route.auth === 'user' || route.auth === 'admin')
    common[403] = { description: 'Not allowed', schema: errorAnswer };
  if (route.cookies) common[403] = { description: 'Sent from another site', schema: errorAnswer };
  if (route.params || route.query || route.headers || route.cookies || route.challenge) common[431] = requestTooLarge;
  if (route.body) {
    common[413] = {
      description: route.maxBodyBytes ? `The body is over ${route.maxBodyBytes} bytes` : 'The body is too large',
      schema: errorAnswer,
    };
    common[415] = { description: 'The body is not JSON in a supported encoding', schema: errorAnswer };
  }
  if (route.perClient) {
    common[429] = {
      description: `More than ${allowanceText(route.perClient)} from this client (an IPv4 address, an IPv6 /64); Retry-After says when to try again`,
      schema: errorAnswer,
    };
  }
  const answers = { ...common, ...route.answers };
  if (route.challenge) answers[400] = common[400]!;
  if (route.method !== 'get') {
    const own = route.answers[503];
    answers[503] = own
      ? { ...own, description: `${own.description}; or ${STORAGE_FULL}`, headers: { ...own.headers, ...retryAfter } }
      : storageFull;
  }
  return { ...route, answers };
}
