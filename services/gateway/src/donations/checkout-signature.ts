import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a Checkout Session the product creates carries in its metadata, and signs. */
export interface SignedCheckout {
  fundraiserId: string;
  reportId: string;
  charityId: string;
  amountCents: number;
}

export interface CheckoutSigner {
  sign(this: void, checkout: SignedCheckout): string;
  /** Whether `signature` is this product's over exactly these values. */
  verify(this: void, checkout: SignedCheckout, signature: string): boolean;
}

/**
 * Signs the metadata of the Checkout Sessions the product creates, so that a completed session
 * counts only when the product made it: a Payment Link, another integration on the same account,
 * or a copy with other keys may name one of our fundraisers, but cannot sign. The key is derived
 * from the Stripe secret key, which never leaves the server and differs between test and live.
 */
export function createCheckoutSigner(stripeSecretKey: string): CheckoutSigner {
  const key = createHmac('sha256', stripeSecretKey).update('qrshirt checkout metadata v1').digest();
  const mac = ({ fundraiserId, reportId, charityId, amountCents }: SignedCheckout): Buffer =>
    createHmac('sha256', key)
      .update([fundraiserId, reportId, charityId, String(amountCents)].join('\n'))
      .digest();
  return {
    sign: (checkout) => mac(checkout).toString('base64url'),
    verify(checkout, signature) {
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(checkout);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
