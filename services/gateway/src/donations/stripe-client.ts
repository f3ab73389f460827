import Stripe from 'stripe';
import type { StripeConfig } from '../config';

/** How long a donor's checkout waits for Stripe before it is told Stripe did not answer. */
const TIMEOUT_MS = 15_000;

/**
 * The process's one Stripe client, from Stripe's settings: Stripe's own API, or the one
 * STRIPE_API_URL names (stripe-mock, for tests and local development).
 */
export function createStripeClient({ secretKey, apiUrl }: StripeConfig): Stripe {
  const protocol = apiUrl?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    timeout: TIMEOUT_MS,
    ...(apiUrl && {
      host: apiUrl.hostname,
      port: Number(apiUrl.port || (protocol === 'http' ? 80 : 443)),
      protocol,
    }),
  });
}
