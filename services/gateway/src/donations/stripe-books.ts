import type { ProcessorBooks, ReconcileWindow } from '@qrshirt/projections';
import Stripe from 'stripe';
import { HttpError } from '../http/http-error';
import { timedOut } from './stripe-client';

/**
 * Stripe's books of a period for reconciling, shared by `npm run reconcile` and the admin area:
 * its balance transactions created in the window, each with its source expanded (so a charge,
 * a refund or a dispute names its PaymentIntent), and its Connect transfers. Every page is asked
 * of the client given, with its timeout; Stripe refusing or failing is a 502, or 504 when it did
 * not answer.
 */
export function createStripeBooks(stripe: Stripe): ProcessorBooks {
  const created = ({ from, to }: ReconcileWindow) => ({ gte: Math.floor(from / 1000), lte: Math.floor(to / 1000) });
  return {
    balanceTransactions: (window) =>
      listed(
        'its balance transactions',
        stripe.balanceTransactions.list({ created: created(window), limit: 100, expand: ['data.source'] }),
      ),
    transfers: (window) => listed('its transfers', stripe.transfers.list({ created: created(window), limit: 100 })),
  };
}

async function* listed<T>(what: string, list: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* list;
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    throw new HttpError(timedOut(error) ? 504 : 502, `Stripe did not list ${what}: ${error.message}`);
  }
}
