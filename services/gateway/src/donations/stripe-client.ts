import Stripe from 'stripe';
import type { StripeConfig } from '../config';

/*
 * A donor waits at most 20 s for the checkout when Stripe hangs. stripe-node's timeout is per
 * attempt, and it waits between attempts (its backoff: max(0.5 s, a jittered 0.5 s × 2^(n-1)
 * capped at 5 s), so the first retry waits 0.5 s): 2 attempts × 8 s + 0.5 s = 16.5 s, which leaves
 * the request's other steps room. One retry still covers a dropped connection or one 5xx; its
 * default of 2 retries at 80 s would keep a donor waiting minutes.
 */
export const STRIPE_TIMEOUT_MS = 8_000;
export const STRIPE_MAX_NETWORK_RETRIES = 1;

/**
 * The process's one Stripe client, from Stripe's settings: Stripe's own API, or the one
 * STRIPE_API_URL names (stripe-mock, for tests and local development).
 */
export function createStripeClient({ secretKey, apiUrl }: Pick<StripeConfig, 'secretKey' | 'apiUrl'>): Stripe {
  const protocol = apiUrl?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    ...(apiUrl && {
      host: apiUrl.hostname,
      port: Number(apiUrl.port || (protocol === 'http' ? 80 : 443)),
      protocol,
    }),
  });
}

/** Stripe's client gave up waiting for an answer (STRIPE_TIMEOUT_MS, on every attempt). */
export const timedOut = ({ detail }: Stripe.errors.StripeError): boolean =>
  detail instanceof Error && 'code' in detail && detail.code === 'ETIMEDOUT';
