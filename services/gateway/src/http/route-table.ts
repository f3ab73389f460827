import {
  type ApiRoutes,
  apiRouteList,
  apiRoutes,
  fieldErrorsAnswer,
  type HttpMethod,
  type OperationId,
  PROOF_OF_WORK_HEADER,
  type RouteAuth,
  type RouteDefinition,
} from '@qrshirt/contracts';
import type { FeatureModule, RouteReply as FeatureReply } from '@qrshirt/core';
import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import type { z } from 'zod';
import { limitPerClient } from './client-limits';
import { readCookies } from './cookies';
import { parseFields } from './field-errors';
import { authenticationRequired, HttpError } from './http-error';
import { parseInput } from './validate';

type Parsed<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/** Routes whose body reaches the handler as bytes (`rawBody: true`), unparsed. */
type TakesRawBody<Route extends RouteDefinition> = Route['rawBody'] extends true ? true : false;

interface RouteInput<Route extends RouteDefinition> {
  params: Parsed<Route['params']>;
  query: Parsed<Route['query']>;
  /** Undefined on `rawBody` routes: their handler parses `rawBody` once it trusts it. */
  body: TakesRawBody<Route> extends true ? undefined : Parsed<Route['body']>;
  /** On `rawBody` routes, the body exactly as received (empty when none came); undefined on the others. */
  rawBody: TakesRawBody<Route> extends true ? Buffer : Buffer | undefined;
  headers: Parsed<Route['headers']>;
  /** The cookies the route declares, once the request proved to come from this site. */
  cookies: Parsed<Route['cookies']>;
  /** Always there on routes that need a token; on the others, whoever sent a valid one. */
  user: Route['auth'] extends 'none' ? Express.User | undefined : Express.User;
  /** For what the table does not describe: request headers, the client's address, its log. */
  req: Request;
  /** For answers that are not JSON (images, CSV, server-sent events, redirects): write them here and return nothing. */
  res: Response;
}

/** A JSON answer with one of the route's declared statuses and that status's body. */
type RouteReply<Route extends RouteDefinition> = FeatureReply<Route>;

export type RouteHandler<Route extends RouteDefinition> = (
  input: RouteInput<Route>,
) => Promise<RouteReply<Route> | void> | RouteReply<Route> | void;

const UNAVAILABLE = Symbol('unavailable');

/**
 * For a feature that configuration switched off (phone sign-in without an SMS provider): 503 with
 * this message, before the request's input is even read; 404 for an endpoint that is not this
 * instance's at all (the generic donation webhook next to Stripe).
 */
export function unavailable(message: string, status: 404 | 503 = 503): RouteHandler<RouteDefinition> {
  return Object.assign(
    () => {
      throw new HttpError(status, message);
    },
    { [UNAVAILABLE]: { status, message } },
  );
}

const SERVED_AHEAD = Symbol('served ahead');

/**
 * For an operation the app mounts ahead of the table, before middleware it does not need (the
 * scan route): the table answers only its path's other methods, with 405 and its method in Allow.
 */
export const servedAhead: RouteHandler<RouteDefinition> = Object.assign(
  () => {
    throw new Error('This operation is served ahead of the route table');
  },
  { [SERVED_AHEAD]: true },
);

/** One handler per operation of the table: a missing one is a type error, an extra one too. */
export type Handlers = { [Id in OperationId]: RouteHandler<ApiRoutes[Id]> };
/** The handlers of some operations, e.g. one resource's. */
export type HandlersOf<Routes extends Record<string, RouteDefinition>> = {
  [Id in keyof Routes]: RouteHandler<Routes[Id]>;
};

/**
 * The modules' handlers and the gateway's own, as the one table the route table serves: it
 * refuses at start an operation without a handler, and this one answered twice.
 */
export function handlersOf(modules: readonly FeatureModule[], own: Partial<Handlers>): Handlers {
  const handlers: Partial<Handlers> = { ...own };
  for (const module of modules) {
    for (const [id, handler] of Object.entries(module.handlers)) {
      if (Object.hasOwn(handlers, id))
        throw new Error(`Two handlers for ${id}: the ${module.name} module's and another`);
      Object.assign(handlers, { [id]: handler });
    }
  }
  return handlers as Handlers;
}

interface RouteTableOptions {
  /** Reads the bearer token into `req.user`; refuses a bad one. */
  authenticate: RequestHandler;
  /** 401 without a user, 403 for anyone but an admin. */
  requireAdmin: RequestHandler;
  /** 403 for a request another site made: ahead of every route that reads a cookie. */
  sameOrigin: RequestHandler;
  maxBodyBytes: number;
  /** Spends the proof of work (X-Altcha) of a route with `challenge: true`; 400 when it does not do. */
  redeemProofOfWork(payload: string | undefined): Promise<void>;
}

/** `/api/fundraisers/{id}` as Express writes it. */
export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

const requireUser: RequestHandler = (req, _res, next) => {
  if (!req.user) throw authenticationRequired();
  next();
};

const requireAccount: RequestHandler = (req, _res, next) => {
  if (!req.user) throw authenticationRequired();
  if (req.user.anonymous) throw new HttpError(403, 'Please sign in with an account to do this');
  next();
};

function guard(auth: RouteAuth, options: RouteTableOptions): RequestHandler[] {
  switch (auth) {
    case 'none':
      return [];
    case 'any':
      return [requireUser];
    case 'user':
      return [requireAccount];
    case 'admin':
      return [options.requireAdmin];
  }
}

/** A route that declares a body needs one: no body (or one that is not JSON) is not an empty object. */
function requiredBody(body: unknown): unknown {
  if (body === undefined) throw new HttpError(400, 'A JSON body is required (Content-Type: application/json)');
  return body;
}

/** The admin forms show a problem beside each field: their bodies report every field at once. */
const reportsFields = (route: RouteDefinition): boolean => route.answers[400]?.schema === fieldErrorsAnswer;

function send(res: Response, reply: { status: number; body?: unknown; headers?: Record<string, string> }): void {
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  res.status(reply.status);
  if (reply.body === undefined) res.end();
  else res.json(reply.body);
}

/**
 * Serves the route table and nothing else under it: per route its limit per client, its token
 * check, its guard, the same-origin check of a route that reads cookies, its JSON body (only
 * routes that declare one parse one, up to their `maxBodyBytes`; `rawBody` routes get the bytes
 * instead), its params, query, body and cookies through their schemas, its proof of work if it
 * asks for one, then its handler. A method the table does not declare on a known path answers
 * 405 with `Allow`.
 */
export function routeTable(handlers: Handlers, options: RouteTableOptions): Router {
  const router = Router();
  const jsonBody = express.json({ limit: options.maxBodyBytes });
  const methodsByPath = new Map<string, Set<HttpMethod>>();
  const remember = (path: string, method: HttpMethod) =>
    methodsByPath.set(path, (methodsByPath.get(path) ?? new Set()).add(method));
  for (const unknown of Object.keys(handlers).filter((id) => !Object.hasOwn(apiRoutes, id))) {
    throw new Error(`A handler for ${unknown}, which the route table does not declare`);
  }
  for (const route of apiRouteList) {
    const handler = handlers[route.operationId] as RouteHandler<RouteDefinition> | undefined;
    if (!handler) throw new Error(`No handler for ${route.operationId} (${route.method} ${route.path})`);
    const path = expressPath(route.path);
    if (SERVED_AHEAD in handler) {
      remember(path, route.method);
      continue;
    }
    const parseBody = reportsFields(route) ? parseFields : parseInput;
    const off = (handler as { [UNAVAILABLE]?: { status: number; message: string } })[UNAVAILABLE];
    if (off !== undefined) {
      router[route.method](path, () => {
        throw new HttpError(off.status, off.message);
      });
      remember(path, route.method);
      continue;
    }
    const body = route.rawBody
      ? // Whatever the content type: a signature covers the bytes, and the handler decides what they are.
        express.raw({ limit: route.maxBodyBytes ?? options.maxBodyBytes, type: () => true })
      : route.maxBodyBytes
        ? express.json({ limit: Math.min(route.maxBodyBytes, options.maxBodyBytes) })
        : jsonBody;
    const chain: RequestHandler[] = [
      ...(route.perClient ? [limitPerClient(route.perClient)] : []),
      ...(route.readsToken === false ? [] : [options.authenticate]),
      ...guard(route.auth, options),
      ...(route.cookies ? [options.sameOrigin] : []),
      ...(route.rawBody || route.body ? [body] : []),
      async (req, res) => {
        const input = {
          params: route.params ? parseInput(route.params, req.params) : undefined,
          query: route.query ? parseInput(route.query, req.query) : undefined,
          body: route.body && !route.rawBody ? parseBody(route.body, requiredBody(req.body)) : undefined,
          rawBody: route.rawBody ? (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)) : undefined,
          headers: route.headers ? parseInput(route.headers, req.headers) : undefined,
          cookies: route.cookies ? parseInput(route.cookies, readCookies(req)) : undefined,
          // The guard above saw to it on routes that need one.
          user: req.user as Express.User,
          req,
          res,
        };
        // After the input is read: a solution is not spent on a request refused for its body.
        if (route.challenge) await options.redeemProofOfWork(req.get(PROOF_OF_WORK_HEADER));
        const reply = await handler(input);
        if (reply) send(res, reply);
      },
    ];
    router[route.method](path, ...chain);
    remember(path, route.method);
  }
  for (const [path, methods] of methodsByPath) {
    const allowed = [...methods].map((method) => method.toUpperCase());
    if (methods.has('get')) allowed.push('HEAD');
    const allow = allowed.join(', ');
    router.all(path, (req, res) => {
      res.setHeader('Allow', allow);
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
      res.status(405).json({ error: `${req.method} is not allowed here; allowed: ${allow}` });
    });
  }
  return router;
}
