import type { RouteDefinition } from '@qrshirt/contracts';
import type { z } from 'zod';
import type { Caller } from './caller';

type Parsed<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/**
 * What a feature's handler is given: the request's input as the route table parsed it through the
 * route's schemas, and who asks. No request or response: a handler that needs them (images,
 * streams, cookies, signatures over the raw bytes) lives in the gateway, beside its feature.
 */
export interface HandlerInput<Route extends RouteDefinition> {
  params: Parsed<Route['params']>;
  query: Parsed<Route['query']>;
  body: Route['rawBody'] extends true ? undefined : Parsed<Route['body']>;
  headers: Parsed<Route['headers']>;
  /** Always there on routes that need a token; on the others, whoever sent a valid one. */
  user: Route['auth'] extends 'none' ? Caller | undefined : Caller;
}

type ReplyTo<Status, Answer> = Answer extends { schema: infer Schema extends z.ZodType }
  ? { status: Status; body: z.input<Schema>; headers?: Record<string, string> }
  : { status: Status; body?: undefined; headers?: Record<string, string> };

/** A JSON answer with one of the route's declared statuses and that status's body. */
export type RouteReply<Route extends RouteDefinition> = {
  [Status in keyof Route['answers'] & number]: ReplyTo<Status, Route['answers'][Status]>;
}[keyof Route['answers'] & number];

/** Parsed input in, `{ status, body }` out: the route table of any HTTP framework can serve it. */
export type FeatureHandler<Route extends RouteDefinition> = (
  input: HandlerInput<Route>,
) => Promise<RouteReply<Route>> | RouteReply<Route>;

/** One handler per operation of a contract's route group. */
export type FeatureHandlers<Routes extends Record<string, RouteDefinition>> = {
  [Id in keyof Routes]: FeatureHandler<Routes[Id]>;
};
