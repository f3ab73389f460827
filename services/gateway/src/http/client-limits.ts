import { allowanceText, type ClientAllowance } from '@qrshirt/contracts';
import { addressGroup } from '@qrshirt/core';
import type { Request, RequestHandler } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from './http-error';

/**
 * The client rate limits count: Express's address, which honours `trust proxy`, an IPv6 one
 * grouped by its /64 (`addressGroup`), which one subscriber gets whole.
 */
export const clientAddress = (req: Request): string => addressGroup(req.ip ?? req.socket.remoteAddress ?? 'unknown');

/**
 * Counts a request of `client` (what `clientAddress` reads) against its allowance; rejects with a
 * 429 HttpError (and Retry-After) past it.
 */
type ClientLimit = (client: string) => Promise<void>;

/**
 * The limit of one route that anyone may write to without an account (`perClient` in the route
 * table: scans, analytics, donation reports), per client as `clientAddress` reads it (an IPv6
 * client by its /64): rate-limiter-flexible's fixed windows from a client's first request.
 *
 * Counted in this gateway's memory, not shared through Redis as the sign-in limits are
 * (auth/rate-limiter.ts). A scan takes a map lookup here, where a Redis round trip would cost
 * more than the rest of the scan; and these limits bound what one client can make the product
 * store, which N gateways behind a balancer still do at N times the allowance at most (the
 * sign-in limits stop password guessing, where an allowance N times larger would matter). The
 * counting of scans per address is exact regardless: it is decided by the scans' one writer.
 */
export function clientLimit(allowance: ClientAllowance): ClientLimit {
  const limiter = new RateLimiterMemory({ points: allowance.requests, duration: allowance.seconds });
  const most = allowanceText(allowance);
  return async (client) => {
    try {
      await limiter.consume(client);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      throw new HttpError(
        429,
        `Too many requests from your address (at most ${most}). Please try again in ${seconds} s.`,
        undefined,
        { 'Retry-After': String(seconds) },
      );
    }
  };
}

/** `clientLimit` as the route table's middleware, ahead of reading the body. */
export function limitPerClient(allowance: ClientAllowance): RequestHandler {
  const limit = clientLimit(allowance);
  return (req, _res, next) => {
    limit(clientAddress(req)).then(() => next(), next);
  };
}
