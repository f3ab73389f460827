/** Every route of spec section 2, built in one place so links cannot drift from the router. */
export const paths = {
  home: '/',
  shop: '/shop',
  shirt: (shirtId: string) => `/shirt/${encodeURIComponent(shirtId)}`,
  signIn: '/signin',
  dashboard: '/dashboard',
  privacy: '/privacy',
  /** Where the verification mail links to, with `#token=<token>`. */
  verifyEmail: '/verify-email',
  /** Where the waitlist's confirmation mail links to, with `#token=<token>`. */
  waitlistConfirm: '/waitlist/confirm',
  /** Where every waitlist mail's removal link goes, with `#token=<token>`. */
  waitlistRemove: '/waitlist/remove',
  /** Where the claim mail links to, with `#token=<token>&email=<address>`. */
  claim: '/claim',
  /** Where a daily summary mail's unsubscribe link goes, with `#token=<token>`. */
  unsubscribe: '/unsubscribe',
  fundraiser: (fundraiserId: string) => `/fundraiser/${encodeURIComponent(fundraiserId)}`,
  /** A charity's Stripe account, to the member who submitted it; Stripe's onboarding returns here. */
  charityPayouts: (charityId: string) => `/charity/${encodeURIComponent(charityId)}/payouts`,
} as const;

/** Spec section 9: where a signed-in user goes when nothing sent them to /signin. */
export const DEFAULT_POST_LOGIN_PATH = paths.dashboard;
