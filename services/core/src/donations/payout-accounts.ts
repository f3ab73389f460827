/**
 * The donations feature's port to the processor's accounts for charities (Stripe Connect): the
 * gateway fills it with the `stripe` package. It throws what the gateway answers when the
 * processor is not configured or does not answer.
 */
export interface PayoutAccounts {
  /** Whether the processor's keys take real money: then only connected charities take cards. */
  readonly live: boolean;
  /** Opens the charity's connected account; the same charity asked again gets the same account. */
  open(this: void, charity: { charityId: string; name: string }): Promise<{ accountId: string }>;
  /** A fresh, single-use link to the processor's onboarding of the account, which ends on `returnTo`. */
  onboardingLink(
    this: void,
    account: { accountId: string; charityId: string; returnTo: PayoutsPage },
  ): Promise<{ url: string }>;
}

/** The page of the charity's account the onboarding was started from: the admin area's, or its submitter's. */
export type PayoutsPage = 'admin' | 'creator';
