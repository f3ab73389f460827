import { checkoutSession, PROOF_OF_WORK_HEADER } from '@qrshirt/contracts';
import { call } from '@/lib/api-client';

interface CreateCheckoutInput {
  fundraiserId: string;
  amount: number;
  /** The key the donation is reported with afterwards: the session names the same report. */
  idempotencyKey: string;
  /** A solved proof of work (the ALTCHA payload), spent by this request. */
  proofOfWork: string;
}

/**
 * POST /api/fundraisers/{id}/checkout: a Stripe Checkout Session for the amount, answered with its
 * client secret for Stripe.js to mount. Anyone may donate: no session needed, a proof of work instead.
 */
export async function createCheckout({
  fundraiserId,
  amount,
  idempotencyKey,
  proofOfWork,
}: CreateCheckoutInput): Promise<string> {
  const session = await call('createCheckout', {
    params: { id: fundraiserId },
    body: { amount },
    headers: { 'idempotency-key': idempotencyKey, [PROOF_OF_WORK_HEADER]: proofOfWork },
    schema: checkoutSession,
  });
  return session.clientSecret;
}
