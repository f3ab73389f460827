import type { DatedMovement } from './processor-donation-decider';

/**
 * The donations feature's port to what a processor's balance says of a settled charge: the fees
 * its balance transactions charged (Stripe's, and the platform's share) and its transfer to the
 * charity's account, which a processor's webhook names but does not carry. The gateway fills it
 * with the `stripe` package, so the domain imports no payment driver.
 */
export interface ChargeSettlements {
  /**
   * The charge's fees and transfer, each dated by the processor; none while its balance
   * transaction is not made yet. It throws what the gateway answers when the processor fails or
   * does not answer, which the processor's next delivery retries.
   */
  settlement(this: void, chargeId: string): Promise<DatedMovement[]>;
}
