/**
 * The donations feature's port to a processor's hosted checkout (Stripe's embedded Checkout):
 * the gateway fills it with the `stripe` package, so the domain imports no payment driver.
 */
export interface CheckoutSessions {
  /**
   * Creates the processor's checkout of one donation and answers its id and the secret its page
   * mounts. It throws what the gateway answers when the processor is not configured, refuses or
   * does not answer.
   */
  createCheckoutSession(
    this: void,
    session: CheckoutSessionRequest,
  ): Promise<{ clientSecret: string; sessionId: string }>;
}

export interface CheckoutSessionRequest {
  fundraiserId: string;
  /** The fundraiser's charity now: the donation goes to it, whatever the fundraiser points to later. */
  charityId: string;
  /** The charity's connected account, paid by the processor (a destination charge); null: the platform's. */
  destination: string | null;
  /** The report the page files afterwards under the same Idempotency-Key, which the webhook settles. */
  reportId: string;
  amountCents: number;
  /** What the donor sees they give to: the charity, through the shirt. */
  productName: string;
  productDescription: string;
  /** The page's Idempotency-Key, so a retry gets the same session; null when it sent none. */
  idempotencyKey: string | null;
}
