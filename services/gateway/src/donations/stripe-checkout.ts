import type { CheckoutSessions } from '@qrshirt/core';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import { HttpError } from '../http/http-error';
import type { CheckoutSigner } from './checkout-signature';
import { timedOut } from './stripe-client';

/**
 * The donations feature's checkout port, filled with Stripe's embedded Checkout: one line item of
 * the amount in cents, `submit_type: donate`, and the fundraiser and report in the metadata of
 * both the session and its PaymentIntent, which the webhooks read back, with the charity and the
 * product's signature over them (checkout-signature.ts). Without Stripe (null), every checkout is
 * answered 503.
 */
export function createStripeCheckoutSessions(
  stripe: { client: Stripe; signer: CheckoutSigner; platformFeePercent: number } | null,
  log: Logger,
): CheckoutSessions {
  /**
   * A destination charge: Stripe pays the charity's account, whose name is on the donor's card
   * statement (`on_behalf_of`), less the platform's fee when it takes one.
   */
  const paidTo = (destination: string, amountCents: number) => {
    const fee = Math.round((amountCents * (stripe?.platformFeePercent ?? 0)) / 100);
    return {
      on_behalf_of: destination,
      transfer_data: { destination },
      ...(fee > 0 && { application_fee_amount: fee }),
    };
  };

  return {
    async createCheckoutSession({
      fundraiserId,
      charityId,
      destination,
      reportId,
      amountCents,
      productName,
      productDescription,
      idempotencyKey,
    }) {
      if (!stripe) {
        throw new HttpError(503, 'Donations by card are off here: Stripe is not configured (STRIPE_SECRET_KEY)');
      }
      const signed = { fundraiserId, reportId, charityId, amountCents };
      const metadata = { fundraiserId, reportId, charityId, signature: stripe.signer.sign(signed) };
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.client.checkout.sessions.create(
          {
            // The embedded form (Stripe.js initEmbeddedCheckout), named `embedded` before API 2026-03-25.
            ui_mode: 'embedded_page',
            // The page learns of completion from Stripe.js's onComplete and stays where it is.
            redirect_on_completion: 'never',
            mode: 'payment',
            submit_type: 'donate',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'usd',
                  unit_amount: amountCents,
                  product_data: { name: productName, description: productDescription },
                },
              },
            ],
            metadata,
            payment_intent_data: { metadata, ...(destination !== null && paidTo(destination, amountCents)) },
            client_reference_id: fundraiserId,
          },
          // Stripe's keys are one namespace for the whole account; the page's key is its own only
          // per fundraiser, as its report id is.
          idempotencyKey === null ? undefined : { idempotencyKey: `${fundraiserId}:${idempotencyKey}` },
        );
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeError)) throw error;
        const refused = refusedRequest(error);
        if (refused) {
          log.warn({ err: error, fundraiserId, reportId }, 'Stripe refused a checkout');
          throw refused;
        }
        log.error({ err: error, fundraiserId, reportId }, 'Stripe did not start a checkout');
        if (timedOut(error)) throw new HttpError(504, 'Stripe did not answer in time; please try again in a moment');
        throw new HttpError(502, TRY_AGAIN);
      }
      if (!session.client_secret) {
        log.error({ sessionId: session.id }, 'Stripe answered an embedded Checkout Session without a client secret');
        throw new HttpError(502, TRY_AGAIN);
      }
      return { clientSecret: session.client_secret, sessionId: session.id };
    },
  };
}

const TRY_AGAIN = 'Stripe could not start the checkout; please try again in a moment';

/**
 * Stripe's refusal of this very request, said in Stripe's words: 422 where the request was
 * well-formed but refused (a card declined, the Idempotency-Key used before with another amount),
 * 400 for the rest of Stripe's 4xx. Null for what is not the donor's to change, which stays a 502
 * to try again: the platform's keys refused (401, 403), a conflict or Stripe's rate limit that
 * outlasted the client's retries (409, 429), Stripe's own failures and no answer at all (504 when
 * Stripe took the connection and never answered).
 */
function refusedRequest(error: Stripe.errors.StripeError): HttpError | null {
  const status = error.statusCode;
  if (status === undefined || status < 400 || status >= 500 || [401, 403, 409, 429].includes(status)) return null;
  const wellFormed =
    error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeIdempotencyError;
  return new HttpError(wellFormed ? 422 : 400, `Stripe refused the checkout: ${error.message}`);
}
