import { stripePlatformFeePercent, stripePublishableKey } from '@/config/page-settings';

/**
 * What reaches the charity, as this gateway takes donations. Stripe's are destination charges to the
 * charity's account, whose Stripe fee the platform pays: every dollar, but for the platform's own
 * share when it takes one. Another processor's widget takes its own fee, whatever it is. Read from
 * the page's meta tags: only a browser can say it.
 */
export function whatReachesTheCharity(charityName: string): string {
  if (stripePublishableKey() === null) {
    return `Your donation goes to ${charityName} through the processor below, less any processing fee it charges.`;
  }
  const platformShare = stripePlatformFeePercent();
  if (platformShare === 0) return `Every dollar goes to ${charityName}.`;
  const charityShare = Math.round((100 - platformShare) * 100) / 100;
  return (
    `${charityShare}% of every dollar goes to ${charityName}; this site keeps ${platformShare}% and pays ` +
    "Stripe's processing fee out of it."
  );
}
